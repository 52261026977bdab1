package api

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// TestHostileFiles sends hostile input to the files routes: names that
// would be paths or hide characters, junk content types, bodies over the
// limit, every role against upload and delete, another project's members
// and junk agent credentials. Nothing is stored that should not be, no
// answer is a 5xx (the harness checks) and errors have the standard body.
func TestHostileFiles(t *testing.T) {
	h := newHarness(t)
	o, other := h.org(t), h.org(t)
	owner := o.owner
	for _, name := range []string{"\x00", "a\x00.pdf", "../../etc/passwd", `..\..\boot.ini`, "/abs", "C:\\x", "\u200b", "a\u2028b",
		"\xff\xfe", strings.Repeat("é", 300), "tab\there", "new\nline", "\u202egpj.exe",
		"con", "NUL.txt", "lpt1.pdf", "a<b", "a>b", `"q"`, "a|b", "a?b", "a*b", "trail.", "trail ", "CON .txt"} {
		owner.do("POST", "/api/files?name="+url.QueryEscape(name), "x", "Content-Type", "application/octet-stream", ProjectHeader, o.project).want(t, 422)
	}
	for _, q := range []string{"?name=a&name=b", "?name=%ZZ", "?name=" + strings.Repeat("a", 4000)} {
		if r := owner.do("POST", "/api/files"+q, "x", "Content-Type", "application/octet-stream", ProjectHeader, o.project); r.status != 201 && r.status != 422 && r.status != 400 {
			t.Errorf("%.40s: %d", q, r.status)
		}
	}
	for _, ct := range []string{"text/plain", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "", ";;;", "text/plain; charset=utf-8"} {
		owner.do("POST", "/api/files?name=a.txt", "x", "Content-Type", ct, ProjectHeader, o.project).want(t, 415)
	}
	// Every role may upload; a file is deleted by its uploader, a Test
	// Manager or an Admin only.
	files := map[access.Role]string{}
	for _, role := range access.Roles {
		files[role] = o.members[role].upload(o.project, string(role)+".txt", []byte(role)).want(t, 201).str("id")
	}
	dev := o.members[access.TestDeveloper]
	dev.do("DELETE", "/api/files/"+files[access.Tester], nil).want(t, 403)
	o.members[access.Tester].do("DELETE", "/api/files/"+files[access.TestDeveloper], nil).want(t, 403)
	o.members[access.Tester].do("DELETE", "/api/files/"+files[access.Tester], nil).want(t, 204)
	o.members[access.TestManager].do("DELETE", "/api/files/"+files[access.Admin], nil).want(t, 204)
	o.members[access.Admin].do("DELETE", "/api/files/"+files[access.TestManager], nil).want(t, 204)
	// Another project's members and a header naming another project.
	id := files[access.TestDeveloper]
	for _, c := range []*client{other.owner, other.members[access.Admin]} {
		c.do("GET", "/api/files/"+id, nil).want(t, 404)
		c.do("GET", "/api/files/"+id+"/content", nil).want(t, 404)
		c.do("DELETE", "/api/files/"+id, nil).want(t, 404)
		c.projectDo(o.project, "GET", "/api/files", nil).want(t, 404)
		c.upload(o.project, "x.txt", []byte("x")).want(t, 404)
	}
	owner.do("DELETE", "/api/files/"+id, nil, ProjectHeader, other.project).want(t, 404)
	dev.do("GET", "/api/files/"+id, nil).want(t, 200) // still there
	// Too big, with a length and without.
	owner.upload(o.project, "big.bin", make([]byte, MaxFileSize+1)).want(t, 413)
	if n := len(owner.projectDo(o.project, "GET", "/api/files", nil).want(t, 200).json()["files"].([]any)); n != 2 {
		t.Errorf("files after the refusals: %d, want 2", n) // the developer's and the "?name=a&name=b" one
	}
	// Junk agent credentials and runs.
	for _, a := range []string{"Agent", "Agent ", "Agent " + strings.Repeat("t", 5000), "agent x", "Basic eDp4", "Bearer x"} {
		if st, _ := agentGet(t, h, "/api/agent/files/"+id+"?run=run_aaaaaaaaaaaaaaaa", a); st != 401 && st != 400 {
			t.Errorf("%.20q: %d", a, st)
		}
	}
	_, token := pairAgent(t, h, o.ids[access.Tester], "HST-FIL")
	for _, run := range []string{"", "%00", "run_%00aaaaaaaaaaaaaaa", "tc_aaaaaaaaaaaaaaaa", "run_aaaaaaaaaaaaaaaa", strings.Repeat("r", 3000)} {
		if st, _ := agentGet(t, h, "/api/agent/files/"+id+"?run="+run, "Agent "+token); st != 404 {
			t.Errorf("run %.20q: %d", run, st)
		}
	}
	for _, q := range []string{"?session=ses_aaaaaaaaaaaaaaaa", "?session=%00", "?session=" + strings.Repeat("s", 3000),
		"?run=run_aaaaaaaaaaaaaaaa&session=ses_aaaaaaaaaaaaaaaa", "?session=run_aaaaaaaaaaaaaaaa"} {
		if st, _ := agentGet(t, h, "/api/agent/files/"+id+q, "Agent "+token); st != 404 {
			t.Errorf("%.40q: %d", q, st)
		}
	}
	// A demoted uploader deletes their own file while they may upload
	// (every role may today: mayDeleteFile holds the rule for a role that
	// may not), and no longer anyone else's; one who left the
	// organization deletes nothing, and learns nothing (404).
	mine := o.members[access.TestManager].upload(o.project, "mine.txt", []byte("m")).want(t, 201).str("id")
	theirs := o.members[access.Tester].upload(o.project, "theirs.txt", []byte("t")).want(t, 201).str("id")
	owner.do("PUT", "/api/orgs/"+o.id+"/members/"+o.ids[access.TestManager], map[string]any{"role": access.Tester}).want(t, 200)
	o.members[access.TestManager].do("DELETE", "/api/files/"+theirs, nil).want(t, 403)
	o.members[access.TestManager].do("DELETE", "/api/files/"+mine, nil).want(t, 204)
	owner.do("DELETE", "/api/orgs/"+o.id+"/members/"+o.ids[access.Tester], nil).want(t, 204)
	o.members[access.Tester].do("DELETE", "/api/files/"+theirs, nil).want(t, 404)
	owner.do("DELETE", "/api/files/"+theirs, nil).want(t, 204)
}

// TestHostileFilesQuota: uploads that try to pass the project's quota
// together, streamed without a length so that none is refused before its
// bytes came, keep no more than the quota, and leave no bytes behind
// that have no row.
func TestHostileFilesQuota(t *testing.T) {
	h := newHarness(t)
	h.quota = 100
	h.restart(t)
	o := h.org(t)
	o.owner.upload(o.project, "first.bin", make([]byte, 60)).want(t, 201)
	var wg sync.WaitGroup
	codes := make([]int, 10)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("POST", h.srv.URL+"/api/files?name=n.bin", io.MultiReader(bytes.NewReader(make([]byte, 20))))
			req.Header.Set("Content-Type", "application/octet-stream")
			req.Header.Set(ProjectHeader, o.project)
			resp, err := o.owner.http.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if codes[i] = resp.StatusCode; resp.StatusCode == 413 && !strings.Contains(string(body), `"quota_exceeded"`) {
				t.Errorf("refusal: %s", body)
			}
		}()
	}
	wg.Wait()
	slices.Sort(codes)
	if !slices.Equal(codes, []int{201, 201, 413, 413, 413, 413, 413, 413, 413, 413}) {
		t.Errorf("streamed uploads at once: %v", codes)
	}
	listed := o.owner.projectDo(o.project, "GET", "/api/files", nil).want(t, 200).json()["files"].([]any)
	if stored := storedFiles(t, h); len(listed) != 3 || len(stored) != 3 {
		t.Errorf("%d files listed, %d stored, want 3 and 3", len(listed), len(stored))
	}
}
