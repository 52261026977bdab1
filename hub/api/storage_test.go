package api

import (
	"encoding/json"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/retention"
)

// The Admin page's storage per project sums each project's runs, the
// bytes of their artifacts and traces (a pruned run counts none) and its
// files, the largest project first; a project with nothing shows zeros.
func TestStoragePerProject(t *testing.T) {
	h := newHarnessWithPool(t)
	o := h.org(t) // its owner registered first: the platform administrator
	admin := o.owner
	other, _ := h.register("Other")
	otherOrg := other.do("POST", "/api/orgs", map[string]string{"name": "Beta"}).want(t, 201).str("id")
	empty := other.do("POST", "/api/orgs/"+otherOrg+"/projects", map[string]string{"name": "Empty"}).want(t, 201).str("id")

	test := admin.createTest(t, o.project, map[string]any{"name": "Flow"})
	now := time.Unix(0, h.clock.Load()).UTC()
	storedRun(t, h, o.project, test, "passed", now.AddDate(0, 0, -1), 100, 20)
	storedRun(t, h, o.project, test, "failed", now.AddDate(0, 0, -2), 1000, 300)
	storedRun(t, h, o.project, test, "failed", now.AddDate(0, 0, -40), 5, 7) // pruned below
	o.members["Test Developer"].upload(o.project, "a.txt", []byte("abc")).want(t, 201)
	o.members["Test Developer"].upload(o.project, "b.txt", []byte("defg")).want(t, 201)
	pr := retention.New(retention.Policy{FailedDays: 30}, h.store, artifacts.Dir{Root: filepath.Join(h.dataDir, "artifacts")},
		slog.New(slog.DiscardHandler))
	pr.Now = func() time.Time { return now }
	if res, _, err := pr.Pass(t.Context()); err != nil || res.Pruned != 1 {
		t.Fatalf("pass: %+v, %v", res, err)
	}

	var got storageJSON
	if err := json.Unmarshal(admin.do("GET", "/api/storage", nil).want(t, 200).body, &got); err != nil {
		t.Fatal(err)
	}
	want := []projectStorageJSON{
		{ProjectID: o.project, ProjectName: "Shop", OrgID: o.id, OrgName: "Acme", Runs: 3, PrunedRuns: 1,
			ArtifactBytes: 1100, TraceBytes: 320, Files: 2, FileBytes: 7, TotalBytes: 1427},
		{ProjectID: empty, ProjectName: "Empty", OrgID: otherOrg, OrgName: "Beta"},
	}
	if len(got.Projects) != len(want) {
		t.Fatalf("projects %+v, want %+v", got.Projects, want)
	}
	for i := range want {
		if got.Projects[i] != want[i] {
			t.Errorf("project %d:\n got %+v\nwant %+v", i, got.Projects[i], want[i])
		}
	}
}
