package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/dispatch"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

// Agents told apart and chosen (issue 27): an owner names and labels their
// agents; a run asks for one of them (agentId) or for agents with some
// labels, and a headed run goes only to an agent with a display.

const (
	maxAgentName   = 80
	maxAgentLabels = 20
	maxLabelLen    = 40
)

var agentLabelRE = regexp.MustCompile(`^[a-z0-9._-]+$`)

// agentInput is PUT /api/agent/:id.
type agentInput struct {
	Name   *string   `json:"name"`
	Labels *[]string `json:"labels"`
}

// labels checks a list of agent labels (an agent's, or those a run asks
// for) and reports every problem at once.
func (l *issueList) labels(path string, labels []string) {
	if len(labels) > maxAgentLabels {
		l.add(path, "too_many", fmt.Sprintf("at most %d labels", maxAgentLabels))
	}
	seen := map[string]bool{}
	for i, lb := range labels {
		p := fmt.Sprintf("%s[%d]", path, i)
		switch {
		case lb == "" || len(lb) > maxLabelLen:
			l.add(p, "length", fmt.Sprintf("a label has 1 to %d characters", maxLabelLen))
		case !agentLabelRE.MatchString(lb):
			l.add(p, "format", "a label has only lower-case letters, digits, dots, dashes and underscores, e.g. linux or office-vpn")
		case seen[lb]:
			l.add(p, "duplicate", fmt.Sprintf("%q is listed twice", lb))
		}
		seen[lb] = true
	}
}

// updateAgent renames one of the caller's agents and sets its labels;
// another user's agent, or an unknown one, is 404.
func (s *Server) updateAgent(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	if !ids.Valid("agt", id) {
		writeError(w, http.StatusNotFound, codeNotFound, "no such computer among yours")
		return
	}
	var in agentInput
	if !decode(w, r, &in) {
		return
	}
	var issues issueList
	name := ""
	if in.Name == nil {
		issues.add("name", "required", "name is required")
	} else {
		name = strings.TrimSpace(*in.Name)
		switch n := utf8.RuneCountInString(name); {
		case n == 0 || n > maxAgentName:
			issues.add("name", "length", fmt.Sprintf("a name has 1 to %d characters", maxAgentName))
		case strings.IndexFunc(name, invisible) >= 0:
			issues.add("name", "format", "a name is one line without control characters")
		}
	}
	if in.Labels == nil {
		issues.add("labels", "required", "labels is required (an empty list for none)")
	} else {
		issues.labels("labels", *in.Labels)
	}
	// The owner is checked before the body is judged: someone else's
	// agent is not there, whatever the body says.
	if _, err := s.store.UserAgent(r.Context(), id, currentUserID(r)); errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, codeNotFound, "no such computer among yours")
		return
	} else if err != nil {
		s.internal(w, r, err)
		return
	}
	if len(issues) > 0 {
		writeIssues(w, "the computer's name or labels are not valid", issues)
		return
	}
	labels := slices.Clone(*in.Labels)
	slices.Sort(labels)
	a, err := s.store.RenameAgent(r.Context(), id, currentUserID(r), name, labels)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, codeNotFound, "no such computer among yours")
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.Dispatch.SetAgentInfo(r.Context(), a)
	writeJSON(w, http.StatusOK, s.toAgentJSON(a, s.Dispatch.Status(a.ID)))
}

// agentState is what an agent is doing now, for the Agents page.
func agentState(st dispatch.AgentStatus) string {
	switch {
	case !st.Connected:
		return "offline"
	case st.Paused:
		return "paused"
	case st.Busy > 0:
		return "busy"
	default:
		return "idle"
	}
}

// checkChoice checks a run request's agent choice: agentId (one of the
// caller's agents; a headed run needs one with a display) or labels, not
// both.
func (s *Server) checkChoice(ctx context.Context, userID, agentID string, labels []string, headed bool) (issueList, error) {
	var issues issueList
	if agentID != "" && labels != nil {
		issues.add("labels", "exclusive", "send agentId or labels, not both")
		return issues, nil
	}
	issues.labels("labels", labels)
	if agentID == "" {
		return issues, nil
	}
	unknown := Issue{Path: "agentId", Code: "unknown", Message: "no such agent among yours"}
	if !ids.Valid("agt", agentID) {
		return append(issues, unknown), nil
	}
	a, err := s.store.UserAgent(ctx, agentID, userID)
	if errors.Is(err, store.ErrNotFound) {
		return append(issues, unknown), nil
	}
	if err != nil {
		return nil, err
	}
	if headed && a.Headless {
		issues.add("agentId", "no_display", a.Name+" has no display, so it cannot show a headed run: choose an agent with a display, or run headless")
	}
	return issues, nil
}

// runWaiting says why a queued run waits although its starter has an agent
// connected (dispatch.Waiting), naming the agent it was started for.
func (s *Server) runWaiting(ctx context.Context, run store.Run) string {
	if s.Dispatch == nil {
		return ""
	}
	name := ""
	if run.AgentPin != "" {
		if a, err := s.store.UserAgent(ctx, run.AgentPin, run.UserID); err == nil {
			name = a.Name
		}
	}
	return s.Dispatch.Waiting(run, name)
}
