// Package authoring keeps the hub's side of recording, picking and trying
// scripts: sessions that live on one connected agent of their user. The
// hub relays requests to the agent (Relay: the dispatcher) and keeps what
// the agent reports, cleaned, bounded, and with secret values and the
// environment's base URL written as ${secrets.NAME} and ${baseUrl}, so no
// secret lands in a test document. Sessions are kept in memory: they end
// with their agent's connection, and a hub restart ends them all.
package authoring

import (
	"encoding/json"
	"time"

	"github.com/testautomation/ta/protocol"
)

// Session is one recording or picker session.
type Session struct {
	ID            string
	Kind          string // protocol.AuthorRecord or AuthorPick
	UserID        string
	ProjectID     string
	AgentID       string
	EnvironmentID string
	TestID        string
	Recording     string // a picker on a recording's page
	CreatedAt     time.Time
	wall          time.Time // wall clock at start, to tell connections apart

	url    string
	status string
	err    string
	mode   string
	used   time.Time // last use by its user or its agent
	ended  time.Time // when it reached a final status
	steps  []captured
	picked *protocol.Picked
	log    []Event // for SSE: at most one step event per seq, and the statuses
	nextN  int64
	subst  Substitution
	// preview is the last screenshot the agent sent (at stop: where the
	// recording ended).
	preview []byte
	frames  int64           // live view frames relayed (view.go)
	live    *liveState      // the editor's live session (live.go); nil for the other kinds
	offer   *fileOffer      // a chosen file waiting for the person's answer (offers.go)
	granted map[string]bool // project files chosen through its view: its agent may fetch them (files.go)
}

type captured struct {
	seq  int
	step protocol.Step
}

// Event is one entry of a recording's live stream: Kind "step" (Data:
// {seq, step} or {seq, removed: true}) or "status" (Data: {status, url,
// error}), or "file.offered" / "file.settled" (offers.go). N numbers the
// entries; a newer entry for a seq replaces the older one, so resuming
// after N gives the latest of everything changed.
type Event struct {
	N     int64
	Kind  string
	Data  json.RawMessage
	seq   int    // of a step entry
	offer string // of a file.offered entry (offers.go)
}

// RecordingView is what GET /api/record/:id answers.
type RecordingView struct {
	ID            string          `json:"id"`
	Status        string          `json:"status"`
	URL           string          `json:"url"`
	Steps         []protocol.Step `json:"steps"`
	Error         *string         `json:"error"`
	EnvironmentID *string         `json:"environmentId"`
	TestID        *string         `json:"testId"`
	CreatedAt     time.Time       `json:"createdAt"`
}

// PickerView is what GET /api/pick/:id answers.
type PickerView struct {
	ID          string                  `json:"id"`
	Status      string                  `json:"status"`
	Mode        string                  `json:"mode"`
	URL         string                  `json:"url"`
	RecordingID *string                 `json:"recordingId"`
	Element     *protocol.PickedElement `json:"element"`
	Target      *protocol.PickedTarget  `json:"target"`
	Error       *string                 `json:"error"`
	CreatedAt   time.Time               `json:"createdAt"`
}

func strp(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// final reports whether a session status is final.
func final(status string) bool {
	switch status {
	case protocol.SessionStopped, protocol.SessionClosed, protocol.SessionError:
		return true
	}
	return false
}

func (s *Session) recording() RecordingView {
	steps := make([]protocol.Step, 0, len(s.steps))
	for _, c := range s.steps {
		steps = append(steps, c.step)
	}
	return RecordingView{ID: s.ID, Status: s.status, URL: s.url, Steps: steps, Error: strp(s.err),
		EnvironmentID: strp(s.EnvironmentID), TestID: strp(s.TestID), CreatedAt: s.CreatedAt}
}

func (s *Session) picker() PickerView {
	v := PickerView{ID: s.ID, Status: s.status, Mode: s.mode, URL: s.url, RecordingID: strp(s.Recording),
		Error: strp(s.err), CreatedAt: s.CreatedAt}
	if s.picked != nil {
		el, t := s.picked.Element, s.picked.Target
		v.Element, v.Target = &el, &t
	}
	return v
}

// push appends a stream entry; a step entry drops the older entry of the
// same seq.
func (s *Session) push(kind string, seq int, data any) {
	raw, _ := json.Marshal(data)
	if kind == "step" {
		out := s.log[:0]
		for _, e := range s.log {
			if e.Kind == "step" && e.seq == seq {
				continue
			}
			out = append(out, e)
		}
		s.log = out
	}
	s.nextN++
	s.log = append(s.log, Event{N: s.nextN, Kind: kind, Data: raw, seq: seq})
}

// setStatus moves the session to status unless it has ended; it reports
// whether it changed.
func (s *Session) setStatus(status, url, errText string, now time.Time) bool {
	if final(s.status) {
		return false
	}
	if url != "" {
		s.url = url
	}
	if status == s.status && errText == "" {
		return false
	}
	s.status, s.err = status, errText
	if final(status) {
		s.ended = now
	}
	s.push("status", 0, map[string]any{"status": s.status, "url": s.url, "error": strp(s.err)})
	return true
}
