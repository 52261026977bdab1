package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/authoring"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/language"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// Drafting steps from plain language (DESIGN.md, "Language model").

const (
	kindExample       = "lex"
	exampleNotFound   = "no such example"
	maxExampleSteps   = 200
	promptExamples    = 3
	codeNotConfigured = "language_model_not_configured"
	codeModelFailed   = "language_model_failed"
)

type generateRequest struct {
	Text          string `json:"text" openapi:"required"`
	TestID        string `json:"testId"`
	EnvironmentID string `json:"environmentId"`
}

// groundingJSON says whether the draft was checked against a live page.
type groundingJSON struct {
	Verified bool   `json:"verified"`
	URL      string `json:"url,omitempty"`
	Title    string `json:"title,omitempty"`
	Elements int    `json:"elements"`
	Reason   string `json:"reason,omitempty"` // why not, when not verified
}

type generateResponse struct {
	Steps     []protocol.Step        `json:"steps"`
	Issues    []language.Issue       `json:"issues"`
	Model     string                 `json:"model"`
	Grounding groundingJSON          `json:"grounding"`
	Checks    []protocol.TargetCheck `json:"checks"`
}

var urlInText = regexp.MustCompile(`https?://[^\s"'<>]+`)

func checkRequestText(l *issueList, path, text string) {
	switch {
	case strings.TrimSpace(text) == "":
		l.add(path, "required", "text is required: say what the steps should do")
	case utf8.RuneCountInString(text) > language.MaxTextLen:
		l.add(path, "too_long", fmt.Sprintf("text is longer than %d characters", language.MaxTextLen))
	case badText(text):
		l.add(path, "format", "text may not contain control characters other than line breaks and tabs")
	}
}

func (s *Server) generateSteps(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.AuthorTests) {
		return
	}
	var in generateRequest
	if !decode(w, r, &in) {
		return
	}
	var issues issueList
	checkRequestText(&issues, "text", in.Text)
	if in.TestID != "" && !ids.Valid(ids.Test, in.TestID) {
		issues.add("testId", "format", "testId must be a test id (tc_...)")
	}
	if in.EnvironmentID != "" && !ids.Valid(kindEnvironment, in.EnvironmentID) {
		issues.add("environmentId", "format", "environmentId must be an environment id (env_...)")
	}
	if len(issues) > 0 {
		writeIssues(w, "the request is not valid", issues)
		return
	}
	ctx := r.Context()
	input := language.Input{Text: in.Text, Variables: map[string]string{}}
	var firstURL string
	if in.TestID != "" {
		t, _, ok := s.loadTestID(w, r, in.TestID)
		if !ok {
			return
		}
		doc, err := s.versionDocument(ctx, t.ID, t.Version)
		if err != nil {
			s.internal(w, r, err)
			return
		}
		input.Steps = doc.Steps
		for k, v := range doc.Variables {
			input.Variables[k] = v
		}
		for _, st := range protocol.AllSteps(doc.Steps) {
			if st.Type == "navigate" {
				firstURL = st.URL
				break
			}
		}
	}
	env, ok := s.loadAuthorEnv(w, r, sc, in.EnvironmentID, func(store.Environment, string) bool { return false })
	if !ok {
		return
	}
	for k, v := range env.vars {
		input.Variables[k] = v
	}
	if s.Language == nil {
		writeError(w, http.StatusServiceUnavailable, codeNotConfigured,
			"no language model is configured on this hub: set HUB_LLM_BASE_URL, HUB_LLM_API_KEY and HUB_LLM_MODEL (any OpenAI-compatible endpoint) and restart it")
		return
	}
	input.BaseURL = env.vars["baseUrl"]
	input.Secrets = env.env.Secrets
	examples, err := s.store.SimilarExamples(ctx, sc.Project.ID, in.Text, promptExamples)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	for _, e := range examples {
		var steps []protocol.Step
		if json.Unmarshal(e.Steps, &steps) == nil {
			input.Examples = append(input.Examples, language.Example{Text: e.Text, Steps: steps})
		}
	}

	// Grounding: the page the steps start on, seen by the caller's agent.
	userID := currentUserID(r)
	g := groundingJSON{}
	start := s.groundURL(in.Text, firstURL, input.Variables)
	switch {
	case s.authoring == nil:
		g.Reason = "this hub has no agents"
	case start == "":
		g.Reason = "no page to look at: name a URL, give the test a navigate step, or choose an environment with a base URL"
	default:
		g.URL = start
		res, err := s.authoring.Ground(ctx, userID, protocol.GroundRequest{URL: start})
		switch {
		case errors.Is(err, authoring.ErrAgentNeeded):
			g.Reason = "no agent of yours is connected: the steps are not checked against the page"
		case err != nil:
			g.Reason = "the page could not be read: " + clipText(err.Error(), 300)
		case res.Snapshot != nil:
			input.Page = res.Snapshot
			g.Title, g.Elements = res.Snapshot.Title, len(res.Snapshot.Elements)
		}
	}

	out, err := s.Language.Generate(ctx, sc.Project.ID, input)
	var rl *language.RateLimited
	var pe *language.ProviderError
	var nj *language.ErrNotJSON
	switch {
	case errors.As(err, &rl):
		w.Header().Set("Retry-After", strconv.Itoa(int(rl.Wait.Seconds())+1))
		writeError(w, http.StatusTooManyRequests, "rate_limited", rl.Error())
		return
	case errors.As(err, &pe):
		writeError(w, http.StatusBadGateway, codeModelFailed, pe.Error())
		return
	case errors.As(err, &nj):
		writeError(w, http.StatusBadGateway, codeModelFailed, nj.Error())
		return
	case err != nil:
		s.internal(w, r, err)
		return
	}
	resp := generateResponse{Steps: out.Steps, Issues: out.Issues, Model: out.Model, Checks: []protocol.TargetCheck{}}
	if input.Page != nil {
		resp.Checks, g.Verified, g.Reason = s.checkDraft(ctx, userID, start, out.Steps, input.Variables)
	}
	resp.Grounding = g
	writeJSON(w, http.StatusOK, resp)
}

// groundURL is the page a draft starts on: a URL in the request, the
// test's first navigate, or the environment's base URL.
func (s *Server) groundURL(text, firstNavigate string, vars map[string]string) string {
	if u := urlInText.FindString(text); u != "" {
		return strings.TrimRight(u, ".,;:!?)")
	}
	if firstNavigate != "" {
		if abs := navigateURL(firstNavigate, vars); abs != "" {
			return abs
		}
	}
	if b := vars["baseUrl"]; strings.HasPrefix(b, "http://") || strings.HasPrefix(b, "https://") {
		return b
	}
	return ""
}

// maxGroundPages bounds the pages a draft's check opens.
const maxGroundPages = 3

// checkDraft asks the agent how many elements each drafted target matches
// on the page the step acts on: the start page until the draft's first
// navigate, then the page each navigate opens, resolved against the
// environment's baseUrl. A draft that starts with navigate ${baseUrl}/login
// is checked on the login page, not on the base URL.
func (s *Server) checkDraft(ctx context.Context, userID, start string, steps []protocol.Step, vars map[string]string) ([]protocol.TargetCheck, bool, string) {
	type page struct {
		url     string // "" when the navigate cannot be resolved
		targets []protocol.GroundTarget
	}
	cur := &page{url: start}
	pages := []*page{cur}
	n := 0
	for _, st := range protocol.AllSteps(steps) {
		if st.Type == "navigate" {
			cur = &page{url: navigateURL(st.URL, vars)}
			pages = append(pages, cur)
			continue
		}
		if st.Target != nil && n < protocol.MaxGroundTargets {
			cur.targets = append(cur.targets, protocol.GroundTarget{StepID: st.ID, Target: *st.Target})
			n++
		}
		// A block's target is its condition's (an if's, a repeat's while):
		// checked on the page the block starts on.
		for _, c := range st.Conditions() {
			if c.Target != nil && n < protocol.MaxGroundTargets {
				cur.targets = append(cur.targets, protocol.GroundTarget{StepID: st.ID, Target: *c.Target})
				n++
			}
		}
	}
	checks, verified, reason, opened := []protocol.TargetCheck{}, true, "", 0
	for _, p := range pages {
		switch {
		case len(p.targets) == 0:
			continue
		case p.url == "":
			verified, reason = false, "some steps follow a navigate to an address that cannot be resolved: they are not checked"
			continue
		case opened == maxGroundPages:
			verified, reason = false, fmt.Sprintf("the steps on more than %d pages are not all checked", maxGroundPages)
			continue
		}
		opened++
		res, err := s.authoring.Ground(ctx, userID, protocol.GroundRequest{URL: p.url, Targets: p.targets})
		if err != nil {
			return checks, false, "the steps could not be checked: " + clipText(err.Error(), 300)
		}
		checks = append(checks, res.Checks...)
	}
	return checks, verified, reason
}

// navigateURL is the absolute address a navigate's url opens: variables
// interpolated (secrets are not among vars), a relative one resolved
// against vars["baseUrl"]; "" when that is not possible.
func navigateURL(raw string, vars map[string]string) string {
	u := protocol.Interpolate(raw, func(ref string) (string, bool) { v, ok := vars[ref]; return v, ok })
	if strings.Contains(u, "${") {
		return ""
	}
	abs, bad := startURL(u, vars["baseUrl"], false)
	if bad != nil {
		return ""
	}
	return abs
}

type exampleJSON struct {
	ID        string          `json:"id"`
	Text      string          `json:"text"`
	Steps     []protocol.Step `json:"steps"`
	Author    *refJSON        `json:"author"`
	CreatedAt string          `json:"createdAt"`
}

func toExampleJSON(e store.LanguageExample) exampleJSON {
	var steps []protocol.Step
	_ = json.Unmarshal(e.Steps, &steps)
	if steps == nil {
		steps = []protocol.Step{}
	}
	return exampleJSON{ID: e.ID, Text: e.Text, Steps: steps, Author: ref(e.AuthorID, e.AuthorName), CreatedAt: e.CreatedAt.UTC().Format(timeFormat)}
}

func (s *Server) listExamples(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.ViewProject) {
		return
	}
	list, err := s.store.Examples(r.Context(), sc.Project.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := make([]exampleJSON, len(list))
	for i, e := range list {
		out[i] = toExampleJSON(e)
	}
	writeJSON(w, http.StatusOK, map[string]any{"examples": out})
}

func (s *Server) addExample(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.AuthorTests) {
		return
	}
	fields, ok := readObject(w, r)
	if !ok {
		return
	}
	var issues issueList
	for k := range fields {
		if k != "text" && k != "steps" {
			issues.add(k, "unknown", fmt.Sprintf("%s is not a field of an example", clipText(k, 40)))
		}
	}
	var text string
	if raw, has := fields["text"]; !has || json.Unmarshal(raw, &text) != nil {
		issues.add("text", "required", "text must be the request, as a string")
	}
	checkRequestText(&issues, "text", text)
	if len(issues) > 0 {
		writeIssues(w, "the example is not valid", issues)
		return
	}
	raw, has := fields["steps"]
	if !has {
		raw = json.RawMessage("[]")
	}
	steps, pis := componentSteps(raw, "example")
	if len(pis) == 0 && len(steps) > maxExampleSteps {
		pis = []protocol.Issue{{Path: "steps", Code: "too_many", Message: fmt.Sprintf("an example has at most %d steps", maxExampleSteps)}}
	}
	if len(pis) > 0 {
		invalidDocument(pis).write(w)
		return
	}
	e, err := s.store.AddExample(r.Context(), store.LanguageExample{ID: ids.New(kindExample), ProjectID: sc.Project.ID,
		Text: strings.TrimSpace(text), Steps: jsonBytes(steps), AuthorID: currentUserID(r), CreatedAt: s.Now()})
	if errors.Is(err, store.ErrTooMany) {
		writeError(w, http.StatusConflict, "too_many_examples", fmt.Sprintf("the project keeps at most %d examples: delete some first", store.MaxExamples))
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, toExampleJSON(e))
}

func (s *Server) deleteExample(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	e, err := store.LanguageExample{}, store.ErrNotFound
	if ids.Valid(kindExample, id) {
		e, err = s.store.Example(r.Context(), id)
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, r, err)
		return
	}
	if err != nil {
		writeError(w, http.StatusNotFound, codeNotFound, exampleNotFound)
		return
	}
	sc, ok := s.recordScope(w, r, e.ProjectID, exampleNotFound)
	if !ok {
		return
	}
	own := e.AuthorID != "" && e.AuthorID == currentUserID(r) && sc.can(access.AuthorTests)
	if !own && !allow(w, sc, access.EditSharedTests) {
		return
	}
	if err := s.store.DeleteExample(r.Context(), e.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
