package api

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/objtest"
	"github.com/testautomation/ta/protocol"
)

// useBucket restarts h with its artifacts in b, presigning when asked.
func useBucket(t *testing.T, h *harness, b objtest.Bucket, presign bool) {
	t.Helper()
	s, err := artifacts.NewS3(artifacts.S3Config{Endpoint: b.Endpoint, Bucket: b.Bucket, AccessKey: b.AccessKey,
		SecretKey: b.SecretKey, Region: b.Region, Prefix: "hub/"})
	if err != nil {
		t.Fatal(err)
	}
	h.arts = s
	if presign {
		h.arts = artifacts.Presigning{S3: s}
	}
	h.restart(t)
}

// noFollow is c answering redirects instead of following them.
func noFollow(c *client) *client {
	return &client{h: c.h, http: &http.Client{Jar: c.http.Jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// fetch reads a URL the hub redirected to, as a browser would: no cookie,
// nothing but the URL.
func fetch(t *testing.T, u string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

// sendArtifact stores an artifact of the run as its agent would.
func sendArtifact(t *testing.T, a *rawAgent, runID string, id int64, name, contentType string, data []byte) {
	t.Helper()
	a.send(protocol.Message{Type: protocol.MsgArtifact, ID: id, RunID: runID,
		Artifact: &protocol.ArtifactInfo{Name: name, ContentType: contentType, Size: int64(len(data))}})
	if err := a.ws.Write(t.Context(), websocket.MessageBinary, data); err != nil {
		t.Fatal(err)
	}
	a.acked(id)
}

// TestS3ArtifactsServed: with artifacts in a bucket, a run's artifacts are
// served with today's rules: proxied, or, with presigning, by a redirect
// that only a member gets, to a URL answering the same bytes and headers;
// what needs the hub's sandbox (a trace's DOM snapshot) is always proxied.
func TestS3ArtifactsServed(t *testing.T) {
	for _, presign := range []bool{false, true} {
		t.Run(map[bool]string{false: "proxied", true: "presigned"}[presign], func(t *testing.T) {
			h := newHarness(t)
			b := objtest.Fake(t)
			useBucket(t, h, b, presign)
			mgr, a, runID := rawRun(t, h)
			a.send(protocol.Message{Type: protocol.MsgAccept, ID: 1, RunID: runID})
			png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte("px"), 5000)...)
			sendArtifact(t, a, runID, 2, "step-001-s1.png", "image/png", png)
			sendArtifact(t, a, runID, 3, "page.html", "text/html", []byte("<script>alert(1)</script>"))
			sendArtifact(t, a, runID, 4, "dom-001-s1.html", "text/html", []byte("<p>snapshot</p>"))
			base := "/api/runs/" + runID + "/artifacts/"
			get := func(name string) (int, http.Header, []byte) {
				r := noFollow(mgr).do("GET", base+name, nil)
				if (r.status == http.StatusFound) != presign {
					t.Fatalf("%s answered %d (presigning: %v)", name, r.status, presign)
				}
				if r.status != http.StatusFound {
					return r.status, r.header, r.body
				}
				if loc := r.header.Get("Location"); !strings.HasPrefix(loc, b.Endpoint+"/"+b.Bucket+"/hub/runs/"+runID+"/"+name+"?") {
					t.Errorf("redirected to %s", loc)
				}
				if cc := r.header.Get("Cache-Control"); cc != "private, no-store" {
					t.Errorf("a redirect to a presigned URL is kept: %q", cc)
				}
				resp, body := fetch(t, r.header.Get("Location"))
				return resp.StatusCode, resp.Header, body
			}
			st, hdr, body := get("step-001-s1.png")
			if st != 200 || !bytes.Equal(body, png) || hdr.Get("Content-Type") != "image/png" || hdr.Get("Content-Disposition") != "" {
				t.Errorf("screenshot: %d %v, %d bytes", st, hdr, len(body))
			}
			st, hdr, _ = get("page.html")
			if st != 200 || hdr.Get("Content-Type") != "application/octet-stream" || !strings.HasPrefix(hdr.Get("Content-Disposition"), "attachment") {
				t.Errorf("an agent's HTML: %d %v", st, hdr)
			}
			// A snapshot is a page only the hub's sandbox makes safe: never
			// from the bucket.
			snap := noFollow(mgr).do("GET", base+"dom-001-s1.html", nil).want(t, 200)
			if snap.header.Get("Content-Security-Policy") != snapshotPolicy || string(snap.body) != "<p>snapshot</p>" {
				t.Errorf("snapshot served with %v: %q", snap.header, snap.body)
			}
			// Ranges, when the hub serves the bytes itself (ServeContent
			// seeks in the object).
			req, _ := http.NewRequest("GET", h.srv.URL+base+"dom-001-s1.html", nil)
			req.Header.Set("Range", "bytes=3-10")
			resp, err := mgr.http.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			ranged, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 206 || string(ranged) != "snapshot" {
				t.Errorf("range: %d %q", resp.StatusCode, ranged)
			}
			noFollow(mgr).do("GET", base+"missing.png", nil).want(t, 404)
			// Another organization's member gets no redirect: 404 as before.
			outsider := h.org(t).members[access.Admin]
			noFollow(outsider).do("GET", base+"step-001-s1.png", nil).want(t, 404)
		})
	}
}

// TestS3FilesServed: with presigning, a member's download of a project
// file is a redirect to the bucket (a download there too); the agent's own
// read stays proxied, with the checksum header it checks.
func TestS3FilesServed(t *testing.T) {
	h := newHarness(t)
	useBucket(t, h, objtest.Fake(t), true)
	o := h.org(t)
	tester := o.members[access.Tester]
	content := []byte("name,size\nreport,3\n")
	id := tester.upload(o.project, "report.csv", content).want(t, 201).str("id")
	r := noFollow(tester).do("GET", "/api/files/"+id+"/content", nil).want(t, http.StatusFound)
	resp, body := fetch(t, r.header.Get("Location"))
	if resp.StatusCode != 200 || !bytes.Equal(body, content) || resp.Header.Get("Content-Disposition") != `attachment; filename=report.csv` ||
		!strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") {
		t.Errorf("presigned file: %d %v %q", resp.StatusCode, resp.Header, body)
	}
	noFollow(h.org(t).members[access.Admin]).do("GET", "/api/files/"+id+"/content", nil).want(t, 404)

	test := tester.projectDo(o.project, "POST", "/api/tests", uploadDoc(id)).want(t, 201).str("id")
	run := tester.projectDo(o.project, "POST", "/api/runs", obj{"testId": test}).want(t, 201).str("runId")
	agent, token := pairAgent(t, h, o.ids[access.Tester], "S3F-AGT")
	if ok, err := h.store.AssignRun(t.Context(), run, agent, time.Now().Add(time.Minute)); err != nil || !ok {
		t.Fatalf("assign: %v %v", ok, err)
	}
	req, _ := http.NewRequest("GET", h.srv.URL+"/api/agent/files/"+id+"?run="+run, nil)
	req.Header.Set("Authorization", "Agent "+token)
	ar, err := noFollow(tester).http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer ar.Body.Close()
	got, _ := io.ReadAll(ar.Body)
	if ar.StatusCode != 200 || !bytes.Equal(got, content) || ar.Header.Get("X-File-Sha256") == "" {
		t.Errorf("the agent's read: %d %v %q", ar.StatusCode, ar.Header, got)
	}
}

// TestHealthzStorage: /healthz names where artifacts are kept, and answers
// 503 saying it is the bucket when the bucket stops answering.
func TestHealthzStorage(t *testing.T) {
	h := newHarness(t)
	r := h.client().do("GET", "/healthz", nil).want(t, 200)
	if r.str("status") != "ok" || r.str("database") != "ok" || r.str("storage") != "folder" {
		t.Errorf("healthz: %s", r.body)
	}
	b := objtest.Fake(t)
	useBucket(t, h, b, false)
	if r := h.client().do("GET", "/healthz", nil); r.status != 200 || r.str("storage") != "s3" {
		t.Errorf("healthz: %s", r.body)
	}
	b.Stop()
	start := time.Now()
	// Not through the client: it takes any other 5xx for the hub's fault.
	resp, body := fetch(t, h.srv.URL+"/healthz")
	var e struct{ Error, Code string }
	_ = json.Unmarshal(body, &e)
	if resp.StatusCode != 503 || e.Code != codeUnavailable || !strings.Contains(e.Error, "bucket") {
		t.Errorf("healthz without the bucket: %d %s", resp.StatusCode, body)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("/healthz took %v", time.Since(start))
	}
}

// TestS3BucketDownAnswers503: while the bucket does not answer, an
// artifact or file that exists answers 503 saying to try again, not 404
// (which would say it is gone) nor a 500.
func TestS3BucketDownAnswers503(t *testing.T) {
	h := newHarness(t)
	b := objtest.Fake(t)
	useBucket(t, h, b, false)
	mgr, a, runID := rawRun(t, h)
	a.send(protocol.Message{Type: protocol.MsgAccept, ID: 1, RunID: runID})
	sendArtifact(t, a, runID, 2, "step-001-s1.png", "image/png", []byte("\x89PNG\r\n\x1a\npng"))
	project := mgr.do("GET", "/api/runs/"+runID, nil).str("projectId")
	id := mgr.upload(project, "a.csv", []byte("a,b\n")).want(t, 201).str("id")
	b.Stop()
	for _, path := range []string{"/api/runs/" + runID + "/artifacts/step-001-s1.png", "/api/files/" + id + "/content"} {
		// Not through do: it takes any 5xx for the hub's fault.
		resp, err := mgr.http.Get(h.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		var e struct{ Error, Code string }
		_ = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != 503 || e.Code != codeUnavailable || !strings.Contains(e.Error, "try again") {
			t.Errorf("%s with the bucket down: %d %+v", path, resp.StatusCode, e)
		}
	}
}
