package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// testCan is every action the caller may take on a test now. It is the
// `can` of GET /api/tests/:id and the check every test route makes.
type testCan struct {
	Edit      bool `json:"edit"`
	Run       bool `json:"run"`
	Delete    bool `json:"delete"`
	MarkReady bool `json:"markReady"`
	Deprecate bool `json:"deprecate"`
	Revise    bool `json:"revise"`
	Duplicate bool `json:"duplicate"`
	Share     bool `json:"share"`
	Transfer  bool `json:"transfer"`
	Restore   bool `json:"restore"`
	// RunProtected: a run of it may use a protected environment
	// (access.MayUseProtected), so the run dialog can say so beforehand.
	RunProtected bool `json:"runProtected"`
	// Quarantine: may quarantine it or lift its quarantine (docs/history.md).
	Quarantine bool `json:"quarantine"`
}

// canOnTest decides testCan from the caller's role in the test's project,
// whether they own it, its visibility and its status.
func canOnTest(sc scope, userID string, t store.Test) testCan {
	owner := t.OwnerID != "" && t.OwnerID == userID
	shared := t.Visibility == store.Shared
	editor := owner && sc.can(access.AuthorTests) || shared && sc.can(access.EditSharedTests)
	manager := sc.can(access.ManageTests)
	draft, ready, deprecated := t.Status == store.Draft, t.Status == store.Ready, t.Status == store.Deprecated
	return testCan{
		Edit:      draft && editor,
		Run:       !deprecated && sc.can(access.RunTests),
		Delete:    !deprecated && (owner && sc.can(access.AuthorTests) || shared && manager),
		MarkReady: draft && manager,
		Deprecate: ready && manager,
		Revise:    ready && editor,
		Duplicate: sc.can(access.AuthorTests),
		Share:     owner,
		// A shared test belongs to the project: only a manager hands it
		// over. A private one exists for its owner alone.
		Transfer: shared && manager || !shared && owner,
		Restore:  deprecated && manager || !deprecated && editor,

		RunProtected: sc.can(access.RunTests) && access.MayUseProtected(sc.Role, t.Status),
		Quarantine:   manager,
	}
}

// apiError is a refusal decided inside a transaction and answered after it.
type apiError struct {
	status int
	code   string
	msg    string
	issues []Issue
}

func (e *apiError) Error() string { return e.msg }

func (e *apiError) write(w http.ResponseWriter) {
	if e.status == http.StatusUnprocessableEntity {
		writeIssues(w, e.msg, e.issues)
		return
	}
	writeError(w, e.status, e.code, e.msg)
}

func refuse(status int, code, msg string) *apiError {
	return &apiError{status: status, code: code, msg: msg}
}

var (
	errDeprecated = refuse(http.StatusConflict, "deprecated", "this test is Deprecated and read-only; duplicate it to work from a copy")
	errFrozen     = refuse(http.StatusConflict, "frozen", "this test is Ready and frozen; start a new revision to change it")
)

func invalidDocument(issues []protocol.Issue) *apiError {
	out := make([]Issue, len(issues))
	for i, is := range issues {
		out[i] = Issue(is)
	}
	return &apiError{status: http.StatusUnprocessableEntity, code: codeInvalid, msg: "the test document is not valid", issues: out}
}

// saveRequest is a PUT /api/tests/:id body: a document, a status, or both.
type saveRequest struct {
	doc    *protocol.Document // nil: the status alone changes, or the document sent is invalid
	issues []protocol.Issue   // the sent document's issues: answered only when the lifecycle allows a save
	status string             // "" keeps the status
	note   string             // the version's note (checked by checkNote); "" keeps it
}

// maxNote is the longest version note, in characters.
const maxNote = 500

// checkNote trims a version note and refuses one that is too long or holds
// control characters (a note is one line of text).
func checkNote(l *issueList, path, v string) string {
	v = strings.TrimSpace(v)
	switch {
	case utf8.RuneCountInString(v) > maxNote:
		l.add(path, "too_long", "note is longer than 500 characters")
	case !utf8.ValidString(v) || strings.IndexFunc(v, invisible) >= 0:
		l.add(path, "format", "note may not contain control characters")
	}
	return v
}

// content turns a valid document into what the store keeps.
func content(d protocol.Document) store.TestContent {
	data, _ := json.Marshal(d)
	return store.TestContent{Name: d.Name, Suite: d.Suite, Tags: d.Tags, StepCount: protocol.CountSteps(d.Steps), Document: data}
}

// parseStored reads a document the hub saved; it was valid when saved.
func parseStored(data []byte) (protocol.Document, error) {
	var d protocol.Document
	err := json.Unmarshal(data, &d)
	return d, err
}

func sameDocument(a protocol.Document, stored []byte) bool {
	b, err := parseStored(stored)
	if err != nil {
		return false
	}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// decideSave applies the lifecycle to a save: the spec's transition table
// and DESIGN.md's decisions. State conflicts (409) come before the
// document's issues (422) and permission (403), so a frozen test says so
// whoever asks and whatever is sent. On a Ready test the only save is
// exactly "status to Deprecated", with the saved content or none.
func decideSave(can testCan, cur store.Test, stored []byte, req saveRequest) (store.TestChange, error) {
	sentDoc := req.doc != nil || len(req.issues) > 0
	changed := len(req.issues) > 0 || req.doc != nil && !sameDocument(*req.doc, stored)
	switch cur.Status {
	case store.Deprecated:
		return store.TestChange{}, errDeprecated
	case store.Ready:
		switch {
		case changed:
			return store.TestChange{}, errFrozen
		case req.status == store.Draft:
			return store.TestChange{}, refuse(http.StatusConflict, "ready_to_draft", "a Ready test cannot go back to Draft; it can only move on to Deprecated, or start a new revision")
		case req.status != store.Deprecated:
			return store.TestChange{}, refuse(http.StatusConflict, "frozen", "this test is Ready and frozen: the only change is to Deprecated; start a new revision to edit it")
		case !can.Deprecate:
			return store.TestChange{}, refuse(http.StatusForbidden, codeForbidden, "only a Test Manager or Admin may deprecate a test")
		}
		return overwrite(stored, store.Deprecated, req.note)
	}
	// Draft.
	if req.status == store.Deprecated {
		return store.TestChange{}, refuse(http.StatusConflict, "draft_to_deprecated", "a Draft test cannot be deprecated directly: mark it Ready first, or delete it")
	}
	if len(req.issues) > 0 {
		return store.TestChange{}, invalidDocument(req.issues)
	}
	if req.status == store.Ready && !can.MarkReady {
		return store.TestChange{}, refuse(http.StatusForbidden, codeForbidden, "only a Test Manager or Admin may mark a test Ready")
	}
	// A note without Mark Ready edits the Draft like a change does.
	if (changed || req.note != "" && req.status != store.Ready) && !can.Edit {
		return store.TestChange{}, refuse(http.StatusForbidden, codeForbidden, "you may not edit this test: Testers edit only their own tests")
	}
	status := store.Draft
	if req.status == store.Ready {
		status = store.Ready
	}
	if !sentDoc {
		if status == store.Draft && req.note == "" {
			return store.TestChange{}, nil
		}
		return overwrite(stored, status, req.note)
	}
	c := content(*req.doc)
	return store.TestChange{Overwrite: &store.VersionWrite{Content: c, Status: status, Note: req.note}}, nil
}

// decideDelete says whether the caller may delete the test as it is now
// (cur, locked): a Deprecated test is kept (409), someone else's private
// test does not exist for them (404), and otherwise canOnTest decides.
func decideDelete(sc scope, userID string, cur store.Test) error {
	switch {
	case cur.Visibility == store.Private && cur.OwnerID != userID:
		return store.ErrNotFound
	case cur.Status == store.Deprecated:
		return errDeprecated
	case !canOnTest(sc, userID, cur).Delete:
		return refuse(http.StatusForbidden, codeForbidden, "you may not delete this test: Testers and Test Developers delete only their own tests")
	}
	return nil
}

// overwrite keeps the stored document and sets the current version's status.
func overwrite(stored []byte, status, note string) (store.TestChange, error) {
	d, err := parseStored(stored)
	if err != nil {
		return store.TestChange{}, err
	}
	return store.TestChange{Overwrite: &store.VersionWrite{Content: content(d), Status: status, Note: note}}, nil
}
