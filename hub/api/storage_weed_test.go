package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/objtest"
)

// TestS3RealBucketRun: on a real S3-compatible server (SeaweedFS), a run
// through a real agent and Chromium keeps its screenshots in the bucket;
// the API serves them proxied and, presigning, by a redirect whose URL
// answers the same bytes as an image; a 12 MiB project file streams up in
// parts and back both ways; deleting the test removes the run's objects.
func TestS3RealBucketRun(t *testing.T) {
	b := objtest.Weed(t)
	h := newHarness(t)
	useBucket(t, h, b, false)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	env := mgr.do("POST", "/api/environments", map[string]any{"name": "Local", "variables": map[string]string{"baseUrl": site(t)},
		"secrets": map[string]string{"PASSWORD": "hunter2-very-secret"}}, ProjectHeader, o.project).want(t, 201).str("id")
	h.pairAgent(t, mgr, browserRunner{sharedBrowser(t)})
	testID := mgr.createTest(t, o.project, signInDoc("", "Welcome, ann@example.com"))
	runID := mgr.do("POST", "/api/runs", map[string]any{"testId": testID, "environmentId": env}, ProjectHeader, o.project).want(t, 201).str("runId")
	mgr.sse(t, runID)
	var run runJSON
	_ = json.Unmarshal(mgr.do("GET", "/api/runs/"+runID, nil).want(t, 200).body, &run)
	if run.Status != "passed" || len(run.Result.Steps) == 0 {
		t.Fatalf("run: %+v", run)
	}
	shot := run.Result.Steps[len(run.Result.Steps)-1].Screenshot
	proxied := mgr.do("GET", "/api/runs/"+runID+"/artifacts/"+shot, nil).want(t, 200)
	if !bytes.HasPrefix(proxied.body, []byte("\xff\xd8\xff")) || proxied.header.Get("Content-Type") != "image/jpeg" {
		t.Fatalf("proxied screenshot %q: %q", shot, proxied.header.Get("Content-Type"))
	}

	// A project file streams up (size unknown: a multipart upload) and back.
	content := bytes.Repeat([]byte("a,b\n"), 3<<20) // 12 MiB: two parts
	fileID := mgr.upload(o.project, "big.csv", content).want(t, 201).str("id")
	if got := mgr.do("GET", "/api/files/"+fileID+"/content", nil).want(t, 200); !bytes.Equal(got.body, content) {
		t.Errorf("file read back: %d bytes, want %d", len(got.body), len(content))
	}

	useBucket(t, h, b, true) // the same bucket, presigning
	r := noFollow(mgr).do("GET", "/api/runs/"+runID+"/artifacts/"+shot, nil).want(t, http.StatusFound)
	resp, body := fetch(t, r.header.Get("Location"))
	if resp.StatusCode != 200 || !bytes.Equal(body, proxied.body) || resp.Header.Get("Content-Type") != "image/jpeg" {
		t.Errorf("presigned screenshot: %d %q, %d bytes (want %d)", resp.StatusCode, resp.Header.Get("Content-Type"), len(body), len(proxied.body))
	}
	fr := noFollow(mgr).do("GET", "/api/files/"+fileID+"/content", nil).want(t, http.StatusFound)
	if resp, body := fetch(t, fr.header.Get("Location")); resp.StatusCode != 200 || !bytes.Equal(body, content) ||
		resp.Header.Get("Content-Disposition") != "attachment; filename=big.csv" {
		t.Errorf("presigned file: %d %v, %d bytes", resp.StatusCode, resp.Header, len(body))
	}
	// The URL is the object's alone: another key with its signature fails.
	other := strings.Replace(r.header.Get("Location"), shot, "step-001-other.jpg", 1)
	if resp, _ := fetch(t, other); resp.StatusCode == 200 {
		t.Errorf("a presigned URL read another object")
	}

	mgr.do("DELETE", "/api/tests/"+testID, nil).want(t, 204)
	s, _ := h.arts.(artifacts.Presigning)
	if _, err := s.Open(t.Context(), runID, shot); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the deleted test's run kept its screenshot: %v", err)
	}
}
