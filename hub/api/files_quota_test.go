package api

import (
	"bytes"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// TestFilesQuota: a project's files take at most the hub's quota. An
// upload past it answers 413 quota_exceeded saying how much is used and
// the limit, whether its length is announced or not, and nothing is kept;
// uploads at the same moment cannot pass it together; deleting a file
// makes room; other projects have quotas of their own.
func TestFilesQuota(t *testing.T) {
	h := newHarness(t)
	h.quota = 1000
	h.restart(t)
	o := h.org(t)
	tester := o.members[access.Tester]
	first := tester.upload(o.project, "a.bin", make([]byte, 600)).want(t, 201).str("id")
	r := tester.upload(o.project, "b.bin", make([]byte, 500)).want(t, 413)
	if r.str("code") != codeQuotaExceeded || !strings.Contains(r.str("error"), "1000 bytes") || !strings.Contains(r.str("error"), "600 bytes") {
		t.Errorf("over the quota: %s", r.body)
	}
	// Without a Content-Length the bytes are counted once they came.
	req, _ := http.NewRequest("POST", h.srv.URL+"/api/files?name=b.bin", io.MultiReader(bytes.NewReader(make([]byte, 500))))
	req.Header.Set("Content-Type", "application/octet-stream")
	req.Header.Set(ProjectHeader, o.project)
	resp, err := tester.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 413 || req.ContentLength > 0 || !strings.Contains(string(body), codeQuotaExceeded) {
		t.Errorf("streamed over the quota: %d (length %d) %s", resp.StatusCode, req.ContentLength, body)
	}
	if left := storedFiles(t, h); len(left) != 1 || left[0] != first {
		t.Errorf("stored after the refusals: %v", left)
	}
	tester.upload(o.project, "c.bin", make([]byte, 400)).want(t, 201) // exactly the quota
	tester.upload(o.project, "d.bin", nil).want(t, 201)               // nothing more is nothing more
	tester.upload(o.project, "e.bin", []byte("x")).want(t, 413)
	tester.do("DELETE", "/api/files/"+first, nil).want(t, 204)
	tester.upload(o.project, "b.bin", make([]byte, 500)).want(t, 201)

	// Six uploads of 300 bytes at once into an empty project: three fit.
	other := h.org(t)
	var wg sync.WaitGroup
	codes := make([]int, 6)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = other.owner.upload(other.project, "same.bin", make([]byte, 300)).status
		}()
	}
	wg.Wait()
	slices.Sort(codes)
	if !slices.Equal(codes, []int{201, 201, 201, 413, 413, 413}) {
		t.Errorf("uploads at once: %v", codes)
	}
	if n := len(other.owner.projectDo(other.project, "GET", "/api/files", nil).want(t, 200).json()["files"].([]any)); n != 3 {
		t.Errorf("%d files kept, want 3", n)
	}
}

// TestFileOfferQuota: a file chosen while recording counts against the
// quota too: accepting it past the quota answers the person 413
// quota_exceeded, keeps nothing, and the agent records no step.
func TestFileOfferQuota(t *testing.T) {
	h := newHarness(t)
	h.quota = 10
	h.restart(t)
	o := h.org(t)
	a := h.rawAgent(t, o.owner, "")
	o.owner.upload(o.project, "a.bin", make([]byte, 8)).want(t, 201)
	id := o.owner.do("POST", "/api/record/start", obj{"url": "https://example.com/"}, ProjectHeader, o.project).want(t, 201).str("id")
	a.expect(protocol.MsgAuthorStart)
	a.status(id, protocol.SessionRecording, "https://example.com/", "")
	ch := offerFile(t, h, a.token, id, "big.txt", []byte("12345"))
	offerID := waitOffer(t, o.owner, id)["offerId"].(string)
	wantCode(t, o.owner.do("POST", "/api/sessions/"+id+"/files/"+offerID, obj{"accept": true}), 413, codeQuotaExceeded)
	if r := answered(t, ch); r.status < 400 {
		t.Errorf("the agent heard %d %s", r.status, r.body)
	}
	if left := storedFiles(t, h); len(left) != 1 {
		t.Errorf("stored: %v", left)
	}
}

// TestFilesGoWithTheirProject: deleting a project removes its files'
// bytes from the artifact store, not only their rows; deleting an
// organization removes those of all its projects.
func TestFilesGoWithTheirProject(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	doomed := o.owner.do("POST", "/api/orgs/"+o.id+"/projects", map[string]string{"name": "Doomed"}).want(t, 201).str("id")
	gone := o.owner.upload(doomed, "gone.pdf", []byte("%PDF gone")).want(t, 201).str("id")
	kept := o.owner.upload(o.project, "kept.pdf", []byte("%PDF kept")).want(t, 201).str("id")
	other := h.org(t)
	elsewhere := other.owner.upload(other.project, "else.pdf", []byte("%PDF else")).want(t, 201).str("id")

	o.owner.do("DELETE", "/api/projects/"+doomed, nil).want(t, 204)
	if left := storedFiles(t, h); slices.Contains(left, gone) || !slices.Contains(left, kept) {
		t.Errorf("after deleting the project the artifact store holds %v (deleted project's %s, kept %s)", left, gone, kept)
	}
	o.owner.do("GET", "/api/files/"+kept+"/content", nil).want(t, 200)
	o.owner.do("DELETE", "/api/orgs/"+o.id, nil).want(t, 204)
	if left := storedFiles(t, h); !slices.Equal(left, []string{elsewhere}) {
		t.Errorf("after deleting the organization the artifact store holds %v, want only %s", left, elsewhere)
	}
}

// TestMayDeleteFile: the uploader deletes their file only while they may
// upload files; Test Managers and Admins delete anyone's. No role lacks
// the upload permission today, so a role outside the matrix (as a
// read-only role would be) stands for one that does.
func TestMayDeleteFile(t *testing.T) {
	f := store.File{ID: "fil_x", CreatedByID: "usr_up"}
	for _, c := range []struct {
		user string
		role access.Role
		want bool
	}{
		{"usr_up", access.Tester, true},
		{"usr_up", access.TestDeveloper, true},
		{"usr_up", "Viewer", false}, // demoted below uploading
		{"usr_up", "", false},
		{"usr_other", access.Tester, false},
		{"usr_other", access.TestDeveloper, false},
		{"usr_other", access.TestManager, true},
		{"usr_other", access.Admin, true},
		{"", access.Tester, false},
	} {
		if got := mayDeleteFile(f, c.user, scope{Role: c.role}); got != c.want {
			t.Errorf("%s as %q: %v, want %v", c.user, c.role, got, c.want)
		}
	}
	// A file whose uploader's account is gone is no one's own.
	if mayDeleteFile(store.File{ID: "fil_y"}, "", scope{Role: access.Tester}) {
		t.Error("an orphan file deleted by an anonymous Tester")
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 bytes", 1000: "1000 bytes", 1024: "1 KiB", 1536: "1.5 KiB", 25 << 20: "25 MiB", 1 << 30: "1 GiB", 1<<30 - 1: "1024 MiB"} {
		if got := formatSize(n); got != want {
			t.Errorf("formatSize(%d) = %q, want %q", n, got, want)
		}
	}
}
