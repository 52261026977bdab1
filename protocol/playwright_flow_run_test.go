package protocol

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// flowDocument is testdata/flow/every-block.json: every block kind, two
// deep, against testdata/flow/flow.html (see its description).
func flowDocument(t *testing.T) Document {
	data, err := os.ReadFile("testdata/flow/every-block.json")
	must(t, err)
	var d Document
	must(t, json.Unmarshal(data, &d))
	if issues := d.Validate(); len(issues) > 0 {
		t.Fatalf("every-block.json does not validate: %v", issues)
	}
	return d
}

// TestFlowExportsRunInPlaywright (issue 29): the Playwright export of
// Selenium IDE's control-flow examples, imported, and of a document using
// every block kind runs green, unchanged, in real Playwright Test.
func TestFlowExportsRunInPlaywright(t *testing.T) {
	pw := newPlaywrightDir(t)
	for _, name := range []string{"control-flow", "variable-in-conditional"} {
		data, err := os.ReadFile(filepath.Join("testdata/side-examples/projects", name+".side"))
		must(t, err)
		docs, skipped, issues := ImportSide(data)
		wantIssues(t, issues)
		if len(skipped) > 0 || len(docs) == 0 {
			t.Fatalf("%s: %d tests, left out %v", name, len(docs), skipped)
		}
		for i, d := range docs {
			pw.spec(fmt.Sprintf("%s-%d", name, i+1), RenderPlaywright(d))
		}
	}
	pw.spec("every-block", RenderPlaywright(flowDocument(t)))
	srv := httptest.NewServer(http.FileServer(http.Dir("testdata/flow")))
	t.Cleanup(srv.Close)
	pw.run(srv.URL)
}
