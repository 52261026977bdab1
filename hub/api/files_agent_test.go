package api

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/auth"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

// uploadDoc is a test document whose second step uploads files.
func uploadDoc(files ...string) obj {
	return obj{"dsl": 2, "name": "Attach", "steps": []any{
		obj{"id": "s1", "type": "navigate", "url": "https://shop.example.com/"},
		obj{"id": "s2", "type": "upload", "target": obj{"locators": []any{obj{"kind": "label", "value": "Attachment"}}}, "files": files},
	}}
}

// TestSaveUploadNamesProjectFile: a document whose upload step names a
// file that is not the project's (unknown, deleted, or another
// project's) is refused at steps[i].files[j], on create and on save.
func TestSaveUploadNamesProjectFile(t *testing.T) {
	h := newHarness(t)
	o, other := h.org(t), h.org(t)
	tester := o.members[access.Tester]
	mine := tester.upload(o.project, "a.txt", []byte("a")).want(t, 201).str("id")
	theirs := other.owner.upload(other.project, "b.txt", []byte("b")).want(t, 201).str("id")
	unknown := ids.New("fil")
	r := tester.projectDo(o.project, "POST", "/api/tests", uploadDoc(mine, theirs, unknown)).want(t, 422)
	issues := r.json()["issues"].([]any)
	paths := []string{}
	for _, is := range issues {
		paths = append(paths, is.(map[string]any)["path"].(string))
	}
	if strings.Join(paths, " ") != "steps[1].files[1] steps[1].files[2]" || strings.Contains(string(r.body), "b.txt") {
		t.Errorf("issues: %s", r.body)
	}
	id := tester.projectDo(o.project, "POST", "/api/tests", uploadDoc(mine)).want(t, 201).str("id")
	// Saving again after the file was deleted names it.
	tester.do("DELETE", "/api/files/"+mine, nil).want(t, 204)
	got := tester.do("GET", "/api/tests/"+id, nil).want(t, 200)
	r = tester.do("PUT", "/api/tests/"+id, uploadDoc(mine), "If-Match", got.header.Get("ETag")).want(t, 422)
	if !strings.Contains(string(r.body), "steps[1].files[0]") {
		t.Errorf("save after delete: %s", r.body)
	}
	// Components are checked the same way.
	o.members[access.TestDeveloper].projectDo(o.project, "POST", "/api/components", obj{"name": "Attach", "steps": uploadDoc(theirs)["steps"]}).want(t, 422)
}

// pairAgent makes a paired (not connected) agent of the user and returns
// its id and token.
func pairAgent(t *testing.T, h *harness, userID, code string) (string, string) {
	t.Helper()
	now := time.Now()
	if err := h.store.CreatePairing(t.Context(), store.Pairing{Code: code, Hostname: "box", OS: "linux", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	token, digest := auth.NewToken()
	a, err := h.store.ApprovePairing(t.Context(), code, ids.New("agt"), userID, digest, now)
	if err != nil {
		t.Fatal(err)
	}
	return a.ID, token
}

// agentGet fetches a file as an agent would.
func agentGet(t *testing.T, h *harness, path, auth string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", h.srv.URL+path, nil)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	out := response{status: resp.StatusCode, header: resp.Header, body: body}
	if resp.StatusCode >= 400 {
		checkErrorBody(t, "GET", path, out)
	}
	return resp.StatusCode, body
}

// TestAgentFiles: an agent reads a file only with its own token, for a
// run assigned to it and not finished whose document uploads that file;
// a deleted file answers file_gone.
func TestAgentFiles(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	tester := o.members[access.Tester]
	content := []byte("name,size\nreport,3\n")
	used := tester.upload(o.project, "report.csv", content).want(t, 201).str("id")
	unused := tester.upload(o.project, "other.csv", []byte("x")).want(t, 201).str("id")
	test := tester.projectDo(o.project, "POST", "/api/tests", uploadDoc(used)).want(t, 201).str("id")
	run := tester.projectDo(o.project, "POST", "/api/runs", obj{"testId": test}).want(t, 201).str("runId")
	agent, token := pairAgent(t, h, o.ids[access.Tester], "FIL-AGT")
	_, otherToken := pairAgent(t, h, o.ids[access.Tester], "FIL-OTH")
	path := func(file string) string { return "/api/agent/files/" + file + "?run=" + run }

	// Before the run is the agent's, nothing.
	if st, _ := agentGet(t, h, path(used), "Agent "+token); st != 404 {
		t.Errorf("unassigned run: %d", st)
	}
	if ok, err := h.store.AssignRun(t.Context(), run, agent, time.Now().Add(time.Minute)); err != nil || !ok {
		t.Fatalf("assign: %v %v", ok, err)
	}
	if st, body := agentGet(t, h, path(used), "Agent "+token); st != 200 || !bytes.Equal(body, content) {
		t.Fatalf("the agent's file: %d %q", st, body)
	}
	for _, c := range []struct {
		what, path, auth string
		want             int
	}{
		{"no token", path(used), "", 401},
		{"a wrong token", path(used), "Agent " + strings.Repeat("x", 43), 401},
		{"a session's bearer scheme", path(used), "Bearer " + token, 401},
		{"another agent", path(used), "Agent " + otherToken, 404},
		{"a file the document does not upload", path(unused), "Agent " + token, 404},
		{"no run", "/api/agent/files/" + used, "Agent " + token, 404},
		{"a malformed file id", "/api/agent/files/fil_AB?run=" + run, "Agent " + token, 404},
		{"a path", "/api/agent/files/..%2f..%2fetc%2fpasswd?run=" + run, "Agent " + token, 401},
	} {
		if st, body := agentGet(t, h, c.path, c.auth); st != c.want || bytes.Contains(body, content) {
			t.Errorf("%s: %d %s, want %d", c.what, st, body, c.want)
		}
	}
	// A user's session cannot use the route.
	tester.do("GET", path(used), nil).want(t, 401)
	// Deleted: the agent is told it is gone.
	tester.do("DELETE", "/api/files/"+used, nil).want(t, 204)
	if st, body := agentGet(t, h, path(used), "Agent "+token); st != 404 || !strings.Contains(string(body), "file_gone") {
		t.Errorf("deleted: %d %s", st, body)
	}
}
