package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// upload sends body as a file named name to the project's files.
func (c *client) upload(project, name string, body []byte) response {
	c.h.t.Helper()
	return c.do("POST", "/api/files?name="+url.QueryEscape(name), body, "Content-Type", "application/octet-stream", ProjectHeader, project)
}

// storedFiles lists the file contents the hub keeps in its data folder.
func storedFiles(t *testing.T, h *harness) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(h.dataDir, "artifacts", "files"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// TestFiles: a Tester uploads a file; every member lists it and reads its
// facts and bytes; only its uploader, Test Managers and Admins delete it,
// and its bytes go with it.
func TestFiles(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	tester, dev, mgr := o.members[access.Tester], o.members[access.TestDeveloper], o.members[access.TestManager]
	pdf := []byte("%PDF-1.4\n" + strings.Repeat("report ", 1000))
	sum := sha256.Sum256(pdf)
	f := tester.upload(o.project, "Quarterly report.pdf", pdf).want(t, 201).json()
	id, _ := f["id"].(string)
	if !strings.HasPrefix(id, "fil_") || f["name"] != "Quarterly report.pdf" || f["size"] != float64(len(pdf)) ||
		f["sha256"] != hex.EncodeToString(sum[:]) || f["contentType"] != "application/pdf" || f["projectId"] != o.project {
		t.Fatalf("uploaded: %v", f)
	}
	if by, _ := f["createdBy"].(map[string]any); by["id"] != o.ids[access.Tester] {
		t.Errorf("createdBy = %v, want the tester", f["createdBy"])
	}
	list := dev.projectDo(o.project, "GET", "/api/files", nil).want(t, 200).json()["files"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["id"] != id {
		t.Fatalf("list: %v", list)
	}
	dev.do("GET", "/api/files/"+id, nil).want(t, 200)
	r := dev.do("GET", "/api/files/"+id+"/content", nil).want(t, 200)
	if !bytes.Equal(r.body, pdf) || r.header.Get("Content-Type") != "application/pdf" ||
		!strings.HasPrefix(r.header.Get("Content-Disposition"), "attachment") || r.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("content: %d bytes, headers %v", len(r.body), r.header)
	}
	// The content type the client names is kept.
	csv := tester.do("POST", "/api/files?name=users.csv", "a,b\n1,2\n", "Content-Type", "text/csv", ProjectHeader, o.project).want(t, 201)
	if csv.str("contentType") != "text/csv" {
		t.Errorf("csv content type %q", csv.str("contentType"))
	}
	// A Test Developer who did not upload it may not delete it.
	if r := dev.do("DELETE", "/api/files/"+id, nil).want(t, 403); !strings.Contains(r.str("error"), "uploader") {
		t.Errorf("refusal: %s", r.body)
	}
	tester.do("DELETE", "/api/files/"+id, nil).want(t, 204)
	dev.do("GET", "/api/files/"+id, nil).want(t, 404)
	dev.do("GET", "/api/files/"+id+"/content", nil).want(t, 404)
	// A Test Manager deletes anyone's.
	mgr.do("DELETE", "/api/files/"+csv.str("id"), nil).want(t, 204)
	if left := storedFiles(t, h); len(left) != 0 {
		t.Errorf("contents left behind: %v", left)
	}
}

// TestFilesRefused: bad names (422), a file over 25 MiB (413, announced
// or not), a body a page of another site could send (415) and a file of
// another project (404, audited) change nothing.
func TestFilesRefused(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	tester := o.members[access.Tester]
	for _, name := range []string{"", "a/b.txt", `a\b.txt`, "a\x01b", "bell\x07", "..", ".", strings.Repeat("n", 256), "rtl\u202etxt.exe"} {
		r := tester.upload(o.project, name, []byte("x")).want(t, 422)
		if is := r.json()["issues"].([]any); len(is) != 1 || is[0].(map[string]any)["path"] != "name" {
			t.Errorf("name %q: %s", name, r.body)
		}
	}
	tester.do("POST", "/api/files?name=a.txt", "x", "Content-Type", "text/plain", ProjectHeader, o.project).want(t, 415)
	tester.do("POST", "/api/files?name=a.txt", "x", "Content-Type", "application/x-www-form-urlencoded", ProjectHeader, o.project).want(t, 415)
	big := make([]byte, MaxFileSize+1)
	if r := tester.upload(o.project, "big.bin", big).want(t, 413); r.str("code") != codeFileTooLarge {
		t.Errorf("too big: %s", r.body)
	}
	// Without a Content-Length the limit holds as the body arrives.
	req, _ := http.NewRequest("POST", h.srv.URL+"/api/files?name=big.bin", io.MultiReader(bytes.NewReader(big), strings.NewReader("")))
	req.Header.Set("Content-Type", "application/octet-stream")
	req.Header.Set(ProjectHeader, o.project)
	resp, err := tester.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 413 || req.ContentLength > 0 {
		t.Errorf("streamed too big: %d (length %d) %s", resp.StatusCode, req.ContentLength, body)
	}
	// Exactly 25 MiB is fine.
	ok := tester.upload(o.project, "max.bin", big[:MaxFileSize]).want(t, 201)
	if list := tester.projectDo(o.project, "GET", "/api/files", nil).want(t, 200).json()["files"].([]any); len(list) != 1 {
		t.Errorf("refused uploads were kept: %v", list)
	}
	if left := storedFiles(t, h); len(left) != 1 || left[0] != ok.str("id") {
		t.Errorf("stored: %v", left)
	}

	// Another organization's member sees nothing of it, and is audited.
	other := h.org(t)
	before := len(readAudit(t, h))
	for _, rq := range []struct{ method, path string }{{"GET", "/api/files/" + ok.str("id")}, {"GET", "/api/files/" + ok.str("id") + "/content"},
		{"DELETE", "/api/files/" + ok.str("id")}} {
		if r := other.owner.do(rq.method, rq.path, nil).want(t, 404); strings.Contains(string(r.body), "max.bin") {
			t.Errorf("%s leaked: %s", rq.path, r.body)
		}
	}
	// A member naming another project in the header is refused too.
	other.owner.do("GET", "/api/files/"+ok.str("id"), nil, ProjectHeader, other.project).want(t, 404)
	tester.do("GET", "/api/files/"+ok.str("id"), nil, ProjectHeader, other.project).want(t, 404)
	other.owner.upload(o.project, "in.txt", []byte("x")).want(t, 404)
	lines := readAudit(t, h)
	if len(lines)-before < 4 {
		t.Errorf("audit lines: %d new, want at least 4", len(lines)-before)
	}
	for _, l := range lines[before:] {
		if l["event"] != "cross_project_refused" {
			t.Errorf("audit: %v", l)
		}
	}
	tester.do("GET", "/api/files/"+ok.str("id"), nil).want(t, 200)
}
