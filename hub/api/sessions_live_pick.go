package api

import (
	"net/http"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/authoring"
	"github.com/testautomation/ta/protocol"
)

// pickReplayWait bounds how long opening a picker waits for the steps
// before its step to replay.
const pickReplayWait = 5 * time.Minute

// pickOnLive opens a picker on an editor's live session's page where
// step stepId happens: when the page does not stand before that step
// already, the steps before it replay on a fresh page first (the test's
// first URL is rarely where a late step's element is).
func (s *Server) pickOnLive(w http.ResponseWriter, r *http.Request, sc scope, in pickStartRequest) {
	var issues issueList
	if in.URL != "" || in.RecordingID != "" {
		issues.add("sessionId", "exclusive", "send sessionId, url or recordingId: one of them")
	}
	if in.EnvironmentID != "" {
		issues.add("environmentId", "exclusive", "a picker on a session uses the session's environment")
	}
	if len(issues) > 0 {
		writeIssues(w, "the picker is not valid", issues)
		return
	}
	sent, ok := parseLiveDocument(w, in.Document)
	if !ok {
		return
	}
	user, project, kind, ok := s.authoring.Owner(in.SessionID)
	if !ok || user != currentUserID(r) || kind != protocol.AuthorLive || !s.bodyRecord(r, sc, project) {
		writeIssues(w, "the picker is not valid", issueList{{Path: "sessionId", Code: "unknown", Message: "no such session of yours in this project"}})
		return
	}
	if in.StepID != "" {
		if !allow(w, sc, access.RunTests) || !s.replayBefore(w, r, sc, in, sent) {
			return
		}
	}
	sess, err := s.authoring.Start(r.Context(), authoring.Start{Kind: protocol.AuthorPick, UserID: currentUserID(r), ProjectID: sc.Project.ID,
		Recording: in.SessionID})
	if err != nil {
		s.authorError(w, r, err, liveNotFound)
		return
	}
	s.noteSession(r, sess.ID)
	v, _ := s.authoring.Picker(sess.ID)
	writeJSON(w, http.StatusCreated, v)
}

// replayBefore brings the session's page to just before step in.StepID:
// nothing to do when it stands there, else the steps before it run on a
// fresh page. It answers false (with the answer written) when they could
// not run or one failed.
func (s *Server) replayBefore(w http.ResponseWriter, r *http.Request, sc scope, in pickStartRequest, sent *protocol.Document) bool {
	doc, ok := s.liveDocument(w, r, in.SessionID, sent)
	if !ok {
		return false
	}
	// A step inside blocks: the steps before it on the way through them.
	before, found := stepsBefore(doc.Steps, in.StepID)
	if !found {
		writeIssues(w, "the picker is not valid", issueList{{Path: "stepId", Code: "unknown", Message: "no such step in the document"}})
		return false
	}
	if here, known := s.authoring.At(in.SessionID); known && here == in.StepID {
		return true
	}
	done, err := s.startLiveRun(w, r, sc, in.SessionID, doc, before, in.StepID, true, true, false)
	if err != nil {
		return false
	}
	t := time.NewTimer(pickReplayWait)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		writeError(w, http.StatusGatewayTimeout, "agent_timeout", "the steps before this one did not finish in time")
		return false
	case <-r.Context().Done():
		return false
	}
	if status, why := s.authoring.LiveOutcome(in.SessionID); status != protocol.RunPassed {
		if why == "" {
			why = "the session ended"
		}
		writeError(w, http.StatusConflict, "replay_failed", "the steps before this one did not pass, so the page is not where the step happens: "+why)
		return false
	}
	return true
}
