package api

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// TestDecideSave is the lifecycle of a PUT /api/tests/:id as a pure rule:
// on a Ready test only "status to Deprecated" with the saved content (or
// none) passes; a conflict answers before the document's issues.
func TestDecideSave(t *testing.T) {
	saved := protocol.Document{DSL: 2, Name: "Flow", Steps: []protocol.Step{{ID: "s1", Type: "navigate", URL: "https://example.com/"}}}
	stored, _ := json.Marshal(saved)
	edited := saved
	edited.Name = "Flow v2"
	bad := []protocol.Issue{{Path: "steps[0].url", Message: "url is required", Code: "required"}}
	all := testCan{Edit: true, MarkReady: true, Deprecate: true}
	none := testCan{}
	type want struct {
		status int    // 0: allowed
		write  string // the status written; "" nothing written
		note   string
	}
	rows := []struct {
		name string
		cur  string
		can  testCan
		req  saveRequest
		want want
	}{
		{"draft save", store.Draft, all, saveRequest{doc: &edited}, want{0, store.Draft, ""}},
		{"draft save without edit right", store.Draft, none, saveRequest{doc: &edited}, want{403, "", ""}},
		{"draft invalid document", store.Draft, all, saveRequest{issues: bad}, want{422, "", ""}},
		{"draft invalid document, no right", store.Draft, none, saveRequest{issues: bad}, want{422, "", ""}},
		{"draft nothing", store.Draft, all, saveRequest{}, want{0, "", ""}},
		{"draft note alone", store.Draft, all, saveRequest{note: "wip"}, want{0, store.Draft, "wip"}},
		{"draft note alone without edit right", store.Draft, testCan{MarkReady: true}, saveRequest{note: "wip"}, want{403, "", ""}},
		{"mark Ready with a note, manager without edit right", store.Draft, testCan{MarkReady: true}, saveRequest{status: store.Ready, note: "ok"}, want{0, store.Ready, "ok"}},
		{"mark Ready with a note", store.Draft, all, saveRequest{status: store.Ready, note: "reviewed"}, want{0, store.Ready, "reviewed"}},
		{"mark Ready with the document", store.Draft, all, saveRequest{doc: &saved, status: store.Ready}, want{0, store.Ready, ""}},
		{"mark Ready without the right", store.Draft, testCan{Edit: true}, saveRequest{status: store.Ready}, want{403, "", ""}},
		{"mark Ready with an invalid document", store.Draft, all, saveRequest{issues: bad, status: store.Ready}, want{422, "", ""}},
		{"draft to Deprecated", store.Draft, all, saveRequest{status: store.Deprecated}, want{409, "", ""}},
		{"ready: deprecate", store.Ready, all, saveRequest{status: store.Deprecated}, want{0, store.Deprecated, ""}},
		{"ready: deprecate with the same document and a note", store.Ready, all, saveRequest{doc: &saved, status: store.Deprecated, note: "replaced"}, want{0, store.Deprecated, "replaced"}},
		{"ready: deprecate without the right", store.Ready, none, saveRequest{status: store.Deprecated}, want{403, "", ""}},
		{"ready: deprecate with another document", store.Ready, all, saveRequest{doc: &edited, status: store.Deprecated}, want{409, "", ""}},
		{"ready: deprecate with an invalid document", store.Ready, all, saveRequest{issues: bad, status: store.Deprecated}, want{409, "", ""}},
		{"ready: edit", store.Ready, all, saveRequest{doc: &edited}, want{409, "", ""}},
		{"ready: invalid document", store.Ready, all, saveRequest{issues: bad}, want{409, "", ""}},
		{"ready: invalid document, no right", store.Ready, none, saveRequest{issues: bad}, want{409, "", ""}},
		{"ready: unchanged document", store.Ready, all, saveRequest{doc: &saved}, want{409, "", ""}},
		{"ready: empty save", store.Ready, all, saveRequest{}, want{409, "", ""}},
		{"ready: status Ready again", store.Ready, all, saveRequest{status: store.Ready}, want{409, "", ""}},
		{"ready: note alone", store.Ready, all, saveRequest{note: "x"}, want{409, "", ""}},
		{"ready to Draft", store.Ready, all, saveRequest{status: store.Draft}, want{409, "", ""}},
		{"deprecated: anything", store.Deprecated, all, saveRequest{status: store.Deprecated}, want{409, "", ""}},
		{"deprecated: invalid document", store.Deprecated, all, saveRequest{issues: bad}, want{409, "", ""}},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			ch, err := decideSave(r.can, store.Test{Status: r.cur}, stored, r.req)
			status := 0
			var ae *apiError
			if errors.As(err, &ae) {
				status = ae.status
			} else if err != nil {
				t.Fatalf("error: %v", err)
			}
			if status != r.want.status {
				t.Fatalf("status %d, want %d (%v)", status, r.want.status, err)
			}
			if ch.Append != nil {
				t.Fatalf("a save never appends a version")
			}
			got := ""
			note := ""
			if ch.Overwrite != nil {
				got, note = ch.Overwrite.Status, ch.Overwrite.Note
			}
			if got != r.want.write || note != r.want.note {
				t.Errorf("writes %q with note %q, want %q with %q", got, note, r.want.write, r.want.note)
			}
		})
	}
}

func TestCheckNote(t *testing.T) {
	rows := []struct {
		in, out string
		code    string
	}{
		{"  reviewed by Ann  ", "reviewed by Ann", ""},
		{"", "", ""},
		{strings.Repeat("é", 500), strings.Repeat("é", 500), ""},
		{strings.Repeat("é", 501), "", "too_long"},
		{"line\nbreak", "", "format"},
		{"tab\there", "", "format"},
		{"bidi\u202eoverride", "", "format"},
		{"bad \xff byte", "", "format"},
	}
	for _, r := range rows {
		var l issueList
		got := checkNote(&l, "note", r.in)
		switch {
		case r.code == "" && (len(l) > 0 || got != r.out):
			t.Errorf("%q: %q %v, want %q", r.in, got, l, r.out)
		case r.code != "" && (len(l) != 1 || l[0].Code != r.code):
			t.Errorf("%q: issues %v, want %s", r.in, l, r.code)
		}
	}
}

// TestVersionNotes: Mark Ready and a new revision take a note, kept as that
// version's note; a bad note is 422 and changes nothing.
func TestVersionNotes(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev, mgr := o.members[access.TestDeveloper], o.members[access.TestManager]
	id := dev.createTest(t, o.project, doc("Flow", 2))
	mgr.do("PUT", "/api/tests/"+id, map[string]any{"status": "Ready", "note": strings.Repeat("x", 501)}).want(t, 422)
	mgr.do("PUT", "/api/tests/"+id, map[string]any{"status": "Ready", "note": "bad\x01"}).want(t, 422)
	if got := dev.test(t, id); got["status"] != "Draft" {
		t.Fatalf("a refused note must change nothing: %v", got["status"])
	}
	mgr.do("PUT", "/api/tests/"+id, map[string]any{"status": "Ready", "note": "  reviewed by Ann  "}).want(t, 200)
	dev.do("POST", "/api/tests/"+id+"/revisions", map[string]any{"note": strings.Repeat("y", 501)}).want(t, 422)
	dev.do("POST", "/api/tests/"+id+"/revisions", map[string]any{"note": "fix the login step"}).want(t, 201)
	vs := dev.do("GET", "/api/tests/"+id+"/versions", nil).want(t, 200).json()["versions"].([]any)
	if len(vs) != 2 {
		t.Fatalf("versions: %v", vs)
	}
	if v := vs[0].(map[string]any); v["note"] != "fix the login step" || v["status"] != "Draft" {
		t.Errorf("version 2: %v", v)
	}
	if v := vs[1].(map[string]any); v["note"] != "reviewed by Ann" || v["status"] != "Ready" {
		t.Errorf("version 1: %v", v)
	}
	// A revision without a body still works.
	mgr.do("PUT", "/api/tests/"+id, map[string]any{"status": "Ready"}).want(t, 200)
	dev.do("POST", "/api/tests/"+id+"/revisions", nil).want(t, 201)
	if v := dev.do("GET", "/api/tests/"+id+"/versions/2", nil).want(t, 200).json(); v["note"] != "fix the login step" {
		t.Errorf("Mark Ready without a note must keep the note: %v", v["note"])
	}
}

// TestReadyExactness: a PUT on a Ready test that is not exactly "status to
// Deprecated" is 409, also when the document is invalid or unchanged.
func TestReadyExactness(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	id := mgr.createTest(t, o.project, doc("Flow", 2))
	mgr.do("PUT", "/api/tests/"+id, map[string]any{"status": "Ready"}).want(t, 200)
	for name, body := range map[string]map[string]any{
		"invalid document": {"dsl": 2, "name": "", "steps": []any{map[string]any{"id": "s1", "type": "nope"}}},
		"unchanged":        doc("Flow", 2),
		"status Ready":     {"status": "Ready"},
	} {
		if r := mgr.do("PUT", "/api/tests/"+id, body); r.status != http.StatusConflict {
			t.Errorf("%s: %d, want 409: %s", name, r.status, r.body)
		}
	}
	mgr.do("PUT", "/api/tests/"+id, map[string]any{"status": "Deprecated"}).want(t, 200)
}

// TestTransferSharedNeedsManager: the owner of a shared test may not hand
// it over; a Test Manager or Admin may. A private test's owner may.
func TestTransferSharedNeedsManager(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	for _, role := range access.Roles {
		c := o.members[role]
		other := access.Admin
		if role == access.Admin {
			other = access.TestManager
		}
		id := c.createTest(t, o.project, doc("Shared flow", 1))
		want := 403
		if role == access.TestManager || role == access.Admin {
			want = 200
		}
		if r := c.do("PUT", "/api/tests/"+id+"/sharing", map[string]any{"ownerId": o.ids[other]}); r.status != want {
			t.Errorf("%s transfers own shared test: %d, want %d: %s", role, r.status, want, r.body)
		}
		priv := c.createTest(t, o.project, with(doc("Private flow", 1), "visibility", "Private"))
		c.do("PUT", "/api/tests/"+priv+"/sharing", map[string]any{"ownerId": o.ids[other]}).want(t, 200)
	}
}
