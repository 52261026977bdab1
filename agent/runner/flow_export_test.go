package runner

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

// everyBlock is the document protocol's TestFlowExportsRunInPlaywright
// runs as its Playwright export: the agent and the export agree on it.
const everyBlock = "../../protocol/testdata/flow"

// TestEveryBlockDocument: the document using every block kind two deep
// passes on the agent, each branch and iteration as the page asks.
func TestEveryBlockDocument(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(everyBlock + "/every-block.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc protocol.Document
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(everyBlock)))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, _ := runJob(t, ctx, protocol.Job{Version: 1, Document: doc, Variables: map[string]string{"baseUrl": srv.URL}})
	mustPass(t, res)
	branches := map[string]string{}
	iterations := map[string]int{}
	for _, r := range protocol.AllResults(res.Steps) {
		if r.Branch != "" {
			branches[r.ID] = r.Branch
		}
		if r.Iterations != nil {
			iterations[r.ID] = len(r.Iterations)
		}
	}
	want := map[string]string{"s2": "then", "s5": "none", "s10": "then", "s14": "then"}
	for id, b := range want {
		if branches[id] != b {
			t.Errorf("%s took branch %q, want %q (all: %v)", id, branches[id], b, branches)
		}
	}
	if iterations["s7"] != 5 || iterations["s16"] != 2 || iterations["s24"] != 3 {
		t.Errorf("iterations %v: want s7 5, s16 2, s24 3", iterations)
	}
}
