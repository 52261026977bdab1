package api

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunUploadsFile: a test with an upload step runs through the hub and
// a real agent: the page receives the project file's name, size and
// bytes, and the agent's copy is gone after the run. Once the file is
// deleted, a run of the same test fails at the upload step saying so.
func TestRunUploadsFile(t *testing.T) {
	f := newRunFixture(t)
	content := "quarterly figures: 42"
	file := f.user.upload(f.o.project, "Q3 report.txt", []byte(content)).want(t, 201).str("id")
	doc := map[string]any{"dsl": 2, "name": "Attach the report", "steps": []map[string]any{
		{"id": "open", "type": "navigate", "url": "${baseUrl}/upload.html"},
		{"id": "attach", "type": "upload", "target": target(loc("label", "Attachment")), "files": []string{file}},
		{"id": "name", "type": "assertText", "target": target(loc("css", "#chosen")), "expected": "Q3 report.txt:21", "match": "equals"},
		{"id": "bytes", "type": "assertText", "target": target(loc("css", "#content")), "expected": content, "match": "equals"},
	}}
	test := f.user.createTest(t, f.o.project, doc)
	run := func() map[string]any {
		id := f.user.do("POST", "/api/runs", map[string]any{"testId": test, "environmentId": f.env}, ProjectHeader, f.o.project).want(t, 201).str("runId")
		f.user.sse(t, id)
		return f.user.do("GET", "/api/runs/"+id, nil).want(t, 200).json()
	}
	if r := run(); r["status"] != "passed" {
		t.Fatalf("run: %v", r)
	}
	// Only this run's copy counts: other packages' tests running beside
	// this one make ta-files- folders of their own in the same TMPDIR.
	leftover := func() []string {
		m, _ := filepath.Glob(filepath.Join(os.TempDir(), "ta-files-*", file))
		return m
	}
	for deadline := time.Now().Add(5 * time.Second); len(leftover()) > 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if left := leftover(); len(left) > 0 {
		t.Errorf("the agent left the run's files: %v", left)
	}

	f.user.do("DELETE", "/api/files/"+file, nil).want(t, 204)
	r := run()
	result, _ := r["result"].(map[string]any)
	steps, _ := result["steps"].([]any)
	if r["status"] != "failed" || len(steps) < 2 {
		t.Fatalf("run after the delete: %v", r)
	}
	attach := steps[1].(map[string]any)
	if attach["status"] != "failed" || !strings.Contains(attach["error"].(string), "is gone: it was deleted") {
		t.Errorf("upload step after the delete: %v", attach)
	}
}

// TestLiveSessionUploadsFile: on the editor's live session the agent
// fetches the file of the upload step it is running (?session=), and the
// page receives it; once the steps have run, the agent may read it no
// more.
func TestLiveSessionUploadsFile(t *testing.T) {
	w := newLiveWorld(t)
	file := w.c.upload(w.o.project, "notes.txt", []byte("live notes")).want(t, 201).str("id")
	w.test = w.c.createTest(t, w.o.project, map[string]any{"dsl": 2, "name": "Attach live", "steps": []map[string]any{
		{"id": "open", "type": "navigate", "url": "${baseUrl}/upload.html"},
		{"id": "attach", "type": "upload", "target": target(loc("label", "Attachment")), "files": []string{file}},
		{"id": "name", "type": "assertText", "target": target(loc("css", "#chosen")), "expected": "notes.txt:10", "match": "equals"},
	}})
	id := w.open(t)
	v := w.run(t, id, obj{"to": "name"}, "ready")
	steps := v["steps"].(map[string]any)
	for _, s := range []string{"open", "attach", "name"} {
		if m, _ := steps[s].(map[string]any); m["status"] != "passed" {
			t.Errorf("step %s: %v", s, steps[s])
		}
	}
	if _, ok := w.h.api.authoring.LiveFile(id, agentOfSession(t, w, id), file); ok {
		t.Error("the file stays readable after the steps ran")
	}
}

// agentOfSession is the agent a live session runs on.
func agentOfSession(t *testing.T, w liveWorld, id string) string {
	t.Helper()
	agents := w.c.do("GET", "/api/agent", nil).want(t, 200).json()["agents"].([]any)
	if len(agents) != 1 {
		t.Fatalf("agents: %v", agents)
	}
	return agents[0].(map[string]any)["id"].(string)
}
