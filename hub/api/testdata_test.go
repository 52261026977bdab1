package api

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

type dataSetOut struct {
	ID      string              `json:"id"`
	Name    string              `json:"name"`
	Columns []string            `json:"columns"`
	Rows    []map[string]string `json:"rows"`
}

// csvDo posts a CSV body.
func (c *client) csvDo(project, path, body string) response {
	c.h.t.Helper()
	return c.do("POST", path, body, ProjectHeader, project, "Content-Type", "text/csv; charset=utf-8")
}

func TestDataSetRoutes(t *testing.T) {
	h, o := envHarness(t)
	dev, tester := o.members[access.TestDeveloper], o.members[access.Tester]
	body := map[string]any{"name": "Logins", "columns": []string{"user", "password"},
		"rows": []map[string]any{{"user": "alice", "password": "a,b \"q\"\nline"}, {"user": "bob"}}}

	// Testers read but do not write.
	tester.projectDo(o.project, "POST", "/api/test-data", body).want(t, 403)
	created := decodeEnvBody[dataSetOut](t, dev.projectDo(o.project, "POST", "/api/test-data", body).want(t, 201))
	if !ids.Valid("tds", created.ID) || created.Name != "Logins" || len(created.Rows) != 2 || created.Rows[1]["password"] != "" {
		t.Fatalf("created %+v", created)
	}
	list := tester.projectDo(o.project, "GET", "/api/test-data", nil).want(t, 200).json()["dataSets"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["rowCount"] != 2.0 || list[0].(map[string]any)["name"] != "Logins" {
		t.Fatalf("list %v", list)
	}
	got := decodeEnvBody[dataSetOut](t, tester.do("GET", "/api/test-data/"+created.ID, nil).want(t, 200))
	if !slices.Equal(got.Columns, []string{"user", "password"}) || got.Rows[0]["password"] != "a,b \"q\"\nline" {
		t.Fatalf("get %+v", got)
	}
	tester.do("DELETE", "/api/test-data/"+created.ID, nil).want(t, 403)
	dev.projectDo(o.project, "POST", "/api/test-data", map[string]any{"name": "LOGINS", "columns": []string{"a"}, "rows": []any{}}).want(t, 409)

	// CSV export: quoted per RFC 4180, named after the set.
	exp := tester.do("GET", "/api/test-data/"+created.ID+"?format=csv", nil).want(t, 200)
	if ct := exp.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
		t.Fatalf("content type %q", ct)
	}
	if cd := exp.header.Get("Content-Disposition"); cd != `attachment; filename=Logins.csv` && cd != `attachment; filename="Logins.csv"` {
		t.Fatalf("content disposition %q", cd)
	}
	want := "user,password\nalice,\"a,b \"\"q\"\"\nline\"\nbob,\n"
	if string(exp.body) != want {
		t.Fatalf("export %q, want %q", exp.body, want)
	}
	tester.do("GET", "/api/test-data/"+created.ID+"?format=xml", nil).want(t, 422)

	// The export imports again as an equal set (round trip), and ?id= updates from CSV.
	again := decodeEnvBody[dataSetOut](t, dev.csvDo(o.project, "/api/test-data?name=Logins+copy", string(exp.body)).want(t, 201))
	if again.ID == created.ID || !slices.Equal(again.Columns, got.Columns) || fmt.Sprint(again.Rows) != fmt.Sprint(got.Rows) {
		t.Fatalf("round trip %+v, want %+v", again, got)
	}
	upd := decodeEnvBody[dataSetOut](t, dev.csvDo(o.project, "/api/test-data?id="+again.ID, "\ufeffa,b\r\n1,2\r\n3,4\r\n").want(t, 200))
	if upd.Name != "Logins copy" || !slices.Equal(upd.Columns, []string{"a", "b"}) || len(upd.Rows) != 2 || upd.Rows[1]["b"] != "4" {
		t.Fatalf("CSV update %+v", upd)
	}
	// A JSON update without columns and rows renames and keeps the rows.
	ren := decodeEnvBody[dataSetOut](t, dev.projectDo(o.project, "POST", "/api/test-data", map[string]any{"id": created.ID, "name": "Accounts"}).want(t, 200))
	if ren.Name != "Accounts" || len(ren.Rows) != 2 {
		t.Fatalf("rename %+v", ren)
	}
	dev.do("DELETE", "/api/test-data/"+created.ID, nil).want(t, 204)
	dev.do("GET", "/api/test-data/"+created.ID, nil).want(t, 404)
	dev.do("DELETE", "/api/test-data/"+created.ID, nil).want(t, 404)
	_ = h
}

func TestDataSetBadInput(t *testing.T) {
	h, o := envHarness(t)
	dev := o.members[access.TestDeveloper]
	post := func(body any) response { return dev.projectDo(o.project, "POST", "/api/test-data", body) }
	wide := make([]string, 101)
	for i := range wide {
		wide[i] = fmt.Sprintf("c%d", i)
	}
	manyRows := make([]map[string]string, 10001)
	for i := range manyRows {
		manyRows[i] = map[string]string{}
	}
	cases := []struct {
		name string
		resp func() response
		want []string // path:code
	}{
		{"duplicate columns", func() response {
			return post(map[string]any{"name": "D", "columns": []string{"a", "b", "a"}, "rows": []any{}})
		}, []string{"columns[2]:duplicate"}},
		{"bad column names", func() response {
			return post(map[string]any{"name": "D", "columns": []string{"", "first name", "secrets", strings.Repeat("x", 65)}, "rows": []any{}})
		}, []string{"columns[0]:required", "columns[1]:format", "columns[2]:format", "columns[3]:too_long"}},
		{"no columns", func() response { return post(map[string]any{"name": "D", "rows": []any{}}) }, []string{"columns:required"}},
		{"unknown row key", func() response {
			return post(map[string]any{"name": "D", "columns": []string{"a"}, "rows": []any{map[string]any{"a": "1"}, map[string]any{"a": "2", "b": "3"}}})
		}, []string{"rows[1].b:unknown"}},
		{"value not a string", func() response {
			return post(map[string]any{"name": "D", "columns": []string{"a"}, "rows": []any{map[string]any{"a": 5}}})
		}, []string{"rows[0].a:type"}},
		{"columns not strings", func() response { return post(map[string]any{"name": "D", "columns": []any{1}, "rows": []any{}}) }, []string{"columns:type"}},
		{"empty columns", func() response { return post(map[string]any{"name": "D", "columns": []any{}, "rows": []any{}}) }, []string{"columns:required"}},
		{"rows not objects", func() response {
			return post(map[string]any{"name": "D", "columns": []string{"a"}, "rows": []any{"x"}})
		}, []string{"rows:type"}},
		{"too many columns", func() response { return post(map[string]any{"name": "D", "columns": wide, "rows": []any{}}) }, []string{"columns:too_many"}},
		{"too many rows", func() response { return post(map[string]any{"name": "D", "columns": []string{"a"}, "rows": manyRows}) }, []string{"rows:too_many"}},
		{"cell too long", func() response {
			return post(map[string]any{"name": "D", "columns": []string{"a"}, "rows": []any{map[string]any{"a": strings.Repeat("é", 10001)}}})
		}, []string{"rows[0].a:too_long"}},
		{"NUL in a cell", func() response {
			return post(map[string]any{"name": "D", "columns": []string{"a"}, "rows": []any{map[string]any{"a": "x\x00y"}}})
		}, []string{"rows[0].a:format"}},
		{"no name", func() response { return post(map[string]any{"columns": []string{"a"}, "rows": []any{}}) }, []string{"name:required"}},
		{"ragged CSV", func() response { return dev.csvDo(o.project, "/api/test-data?name=R", "a,b,c\n1,2,3\n4,5\n6,7,8\n") }, []string{"rows[1]:ragged"}},
		{"CSV duplicate header", func() response { return dev.csvDo(o.project, "/api/test-data?name=R", "a,a\n1,2\n") }, []string{"columns[1]:duplicate"}},
		{"CSV empty", func() response { return dev.csvDo(o.project, "/api/test-data?name=R", "") }, []string{"csv:required"}},
		{"CSV bare quote", func() response { return dev.csvDo(o.project, "/api/test-data?name=R", "a,b\n1,x\"y\n") }, []string{"csv:format"}},
		{"CSV without a name", func() response { return dev.csvDo(o.project, "/api/test-data", "a\n1\n") }, []string{"name:required"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.resp().want(t, 422)
			if got := envIssuePaths(t, r); !slices.Equal(got, tc.want) {
				t.Fatalf("issues %v, want %v: %s", got, tc.want, r.body)
			}
		})
	}
	r := dev.csvDo(o.project, "/api/test-data?name=R", "a,b,c\n1,2,3\n4,5\n")
	if !strings.Contains(r.str("error")+string(r.body), "line 3 has 2 fields, the header line has 3") {
		t.Fatalf("ragged CSV does not name the line: %s", r.body)
	}
	// Over 5 MiB: 413, as JSON and as CSV.
	big := strings.Repeat("x", 5<<20)
	post(map[string]any{"name": "Big", "columns": []string{"a"}, "rows": []any{map[string]any{"a": big}}}).want(t, 413)
	dev.csvDo(o.project, "/api/test-data?name=Big", "a\n"+big+"\n").want(t, 413)
	post(`{"name": "D", "columns": [`).want(t, 400)
	// Nothing was saved.
	if list := dev.projectDo(o.project, "GET", "/api/test-data", nil).want(t, 200).json()["dataSets"].([]any); len(list) != 0 {
		t.Fatalf("bad input saved %v", list)
	}
	_ = h
}

type poolOut struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Free     int    `json:"free"`
	Leased   int    `json:"leased"`
	Consumed int    `json:"consumed"`
	Total    int    `json:"total"`
	Records  []struct {
		Index    int               `json:"index"`
		Values   map[string]string `json:"values"`
		State    string            `json:"state"`
		RunID    string            `json:"runId"`
		TestID   string            `json:"testId"`
		TestName string            `json:"testName"`
		TakenBy  *struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"takenBy"`
		TakenAt string `json:"takenAt"`
	} `json:"records"`
}

func (p poolOut) counts() string {
	return fmt.Sprintf("free %d leased %d consumed %d total %d", p.Free, p.Leased, p.Consumed, p.Total)
}

// queuedRun makes a queued run of test by user, as POST /api/runs would.
func queuedRun(t *testing.T, h *harness, project, test, user string) string {
	t.Helper()
	id := ids.New("run")
	if err := h.store.CreateRun(t.Context(), store.Run{ID: id, ProjectID: project, TestID: test, Version: 1, UserID: user, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	return id
}

func TestDataPoolRoutes(t *testing.T) {
	h, o := envHarness(t)
	dev, tester := o.members[access.TestDeveloper], o.members[access.Tester]
	records := []map[string]string{{"card": "4111"}, {"card": "4222"}, {"card": "4333"}}
	body := map[string]any{"name": "Cards", "columns": []string{"card"}, "records": records}
	tester.projectDo(o.project, "POST", "/api/data-pools", body).want(t, 403)
	p := decodeEnvBody[poolOut](t, dev.projectDo(o.project, "POST", "/api/data-pools", body).want(t, 201))
	if p.counts() != "free 3 leased 0 consumed 0 total 3" || p.Records[2].Values["card"] != "4333" || p.Records[2].State != "free" {
		t.Fatalf("created %+v", p)
	}
	dev.projectDo(o.project, "POST", "/api/data-pools", body).want(t, 409)
	dev.projectDo(o.project, "POST", "/api/data-pools", map[string]any{"name": "X", "columns": []string{"card"}, "records": []any{map[string]any{"pin": "1"}}}).want(t, 422)

	// Runs of a shared test and of the tester's private test take records.
	shared := dev.projectDo(o.project, "POST", "/api/tests", map[string]any{"name": "Pay"}).want(t, 201).str("id")
	private := tester.projectDo(o.project, "POST", "/api/tests", map[string]any{"name": "Secret pay", "visibility": "Private"}).want(t, 201).str("id")
	r1 := queuedRun(t, h, o.project, shared, o.ids[access.TestDeveloper])
	r2 := queuedRun(t, h, o.project, private, o.ids[access.Tester])
	if _, err := h.store.TakePoolRecord(t.Context(), o.project, p.ID, r1, store.PoolLease); err != nil {
		t.Fatal(err)
	}
	if _, err := h.store.TakePoolRecord(t.Context(), o.project, p.ID, r2, store.PoolConsume); err != nil {
		t.Fatal(err)
	}
	list := tester.projectDo(o.project, "GET", "/api/data-pools", nil).want(t, 200).json()["dataPools"].([]any)
	if l := list[0].(map[string]any); len(list) != 1 || l["free"] != 1.0 || l["leased"] != 1.0 || l["consumed"] != 1.0 || l["total"] != 3.0 {
		t.Fatalf("list %v", list)
	}
	// Everyone sees who holds a record, except for someone else's private test.
	seenBy := decodeEnvBody[poolOut](t, dev.do("GET", "/api/data-pools/"+p.ID, nil).want(t, 200))
	r := seenBy.Records[0]
	if r.State != "leased" || r.RunID != r1 || r.TestID != shared || r.TestName != "Pay" || r.TakenBy == nil || r.TakenBy.Name != "Test Developer" || r.TakenAt == "" {
		t.Fatalf("leased record %+v", r)
	}
	if r := seenBy.Records[1]; r.State != "consumed" || r.RunID != "" || r.TestID != "" || r.TestName != "" || r.TakenBy != nil {
		t.Fatalf("another's private test shows in %+v", r)
	}
	if r := decodeEnvBody[poolOut](t, tester.do("GET", "/api/data-pools/"+p.ID, nil).want(t, 200)).Records[1]; r.TestName != "Secret pay" || r.RunID != r2 {
		t.Fatalf("the owner's own private run %+v", r)
	}

	// While r1 runs, the records may not change and the pool may not go; a rename is fine.
	changed := map[string]any{"id": p.ID, "name": "Cards", "columns": []string{"card"}, "records": records[:1]}
	if r := dev.projectDo(o.project, "POST", "/api/data-pools", changed).want(t, 409); r.str("code") != "pool_in_use" {
		t.Fatalf("change under lease: %s", r.body)
	}
	if r := dev.do("DELETE", "/api/data-pools/"+p.ID, nil).want(t, 409); r.str("code") != "pool_in_use" {
		t.Fatalf("delete under lease: %s", r.body)
	}
	renamed := decodeEnvBody[poolOut](t, dev.projectDo(o.project, "POST", "/api/data-pools", map[string]any{"id": p.ID, "name": "Visa"}).want(t, 200))
	if renamed.Name != "Visa" || renamed.counts() != "free 1 leased 1 consumed 1 total 3" {
		t.Fatalf("rename %+v", renamed)
	}

	// Reset frees the consumed record; the active lease stays. Testers may not reset.
	tester.do("POST", "/api/data-pools/"+p.ID+"/reset", nil).want(t, 403)
	reset := decodeEnvBody[poolOut](t, dev.do("POST", "/api/data-pools/"+p.ID+"/reset", nil).want(t, 200))
	if reset.counts() != "free 2 leased 1 consumed 0 total 3" || reset.Records[0].RunID != r1 {
		t.Fatalf("reset %+v", reset)
	}
	// The run ends: its lease comes back and the pool may change and go.
	if err := h.store.ReleasePoolLeases(t.Context(), r1); err != nil {
		t.Fatal(err)
	}
	after := decodeEnvBody[poolOut](t, dev.projectDo(o.project, "POST", "/api/data-pools", changed).want(t, 200))
	if after.counts() != "free 1 leased 0 consumed 0 total 1" {
		t.Fatalf("records replaced %+v", after)
	}
	tester.do("DELETE", "/api/data-pools/"+p.ID, nil).want(t, 403)
	dev.do("DELETE", "/api/data-pools/"+p.ID, nil).want(t, 204)
	dev.do("GET", "/api/data-pools/"+p.ID, nil).want(t, 404)
}

func TestDataCrossProject(t *testing.T) {
	h, o := envHarness(t)
	owner := o.owner
	other := owner.do("POST", "/api/orgs/"+o.id+"/projects", map[string]string{"name": "Other"}).want(t, 201).str("id")
	set := owner.projectDo(o.project, "POST", "/api/test-data", map[string]any{"name": "S", "columns": []string{"a"}, "rows": []any{}}).want(t, 201).str("id")
	pool := owner.projectDo(o.project, "POST", "/api/data-pools", map[string]any{"name": "P", "columns": []string{"a"}, "records": []any{}}).want(t, 201).str("id")
	stranger, strangerID := h.register("Stranger")
	strangerOrg := stranger.do("POST", "/api/orgs", map[string]string{"name": "Elsewhere"}).want(t, 201).str("id")
	strangerProject := stranger.do("POST", "/api/orgs/"+strangerOrg+"/projects", map[string]string{"name": "Mine"}).want(t, 201).str("id")

	type attempt struct {
		who          *client
		whoID        string
		method, path string
		header       string
		body         any
	}
	attempts := []attempt{
		{stranger, strangerID, "GET", "/api/test-data/" + set, "", nil},
		{stranger, strangerID, "GET", "/api/test-data/" + set + "?format=csv", "", nil},
		{stranger, strangerID, "DELETE", "/api/test-data/" + set, "", nil},
		{stranger, strangerID, "POST", "/api/test-data", strangerProject, map[string]any{"id": set, "name": "Hijack", "columns": []string{"a"}, "rows": []any{}}},
		{stranger, strangerID, "GET", "/api/data-pools/" + pool, "", nil},
		{stranger, strangerID, "DELETE", "/api/data-pools/" + pool, "", nil},
		{stranger, strangerID, "POST", "/api/data-pools/" + pool + "/reset", "", nil},
		{stranger, strangerID, "POST", "/api/data-pools", strangerProject, map[string]any{"id": pool, "name": "Hijack"}},
	}
	for _, a := range attempts {
		before := len(readAudit(t, h))
		var r response
		if a.header != "" {
			r = a.who.projectDo(a.header, a.method, a.path, a.body)
		} else {
			r = a.who.do(a.method, a.path, a.body)
		}
		r.want(t, 404)
		lines := readAudit(t, h)
		if len(lines) != before+1 {
			t.Errorf("%s %s: %d new audit lines", a.method, a.path, len(lines)-before)
			continue
		}
		if l := lines[before]; l["event"] != "cross_project_refused" || l["user"] != a.whoID || l["recordProject"] != o.project {
			t.Errorf("%s %s: audit %v", a.method, a.path, l)
		}
	}
	// The owner, a member of both, naming the other project in the header.
	owner.projectDo(other, "GET", "/api/test-data/"+set, nil).want(t, 404)
	owner.projectDo(other, "POST", "/api/test-data", map[string]any{"id": set, "name": "Hijack"}).want(t, 404)
	// Lists show only the header's project; nothing changed.
	if l := owner.projectDo(other, "GET", "/api/test-data", nil).want(t, 200).json()["dataSets"].([]any); len(l) != 0 {
		t.Fatalf("other project lists %v", l)
	}
	if got := owner.do("GET", "/api/test-data/"+set, nil).want(t, 200).str("name"); got != "S" {
		t.Fatalf("set renamed to %q", got)
	}
	if got := owner.do("GET", "/api/data-pools/"+pool, nil).want(t, 200).str("name"); got != "P" {
		t.Fatalf("pool renamed to %q", got)
	}
}

// A document's data binding must name records of the test's project.
func TestDataBindingAtSave(t *testing.T) {
	h, o := envHarness(t)
	dev := o.members[access.TestDeveloper]
	other := o.owner.do("POST", "/api/orgs/"+o.id+"/projects", map[string]string{"name": "Other"}).want(t, 201).str("id")
	set := dev.projectDo(o.project, "POST", "/api/test-data", map[string]any{"name": "S", "columns": []string{"user"}, "rows": []any{}}).want(t, 201).str("id")
	pool := dev.projectDo(o.project, "POST", "/api/data-pools", map[string]any{"name": "P", "columns": []string{"card"}, "records": []any{}}).want(t, 201).str("id")
	otherSet := o.owner.projectDo(other, "POST", "/api/test-data", map[string]any{"name": "S", "columns": []string{"user"}, "rows": []any{}}).want(t, 201).str("id")

	doc := func(data any) map[string]any { return map[string]any{"name": "Bound", "data": data, "steps": []any{}} }
	cases := []struct {
		data any
		want []string
	}{
		{map[string]any{"set": "tds_aaaaaaaaaaaaaaaa"}, []string{"data.set:unknown"}},
		{map[string]any{"set": otherSet}, []string{"data.set:unknown"}},
		{map[string]any{"pool": "dpl_aaaaaaaaaaaaaaaa", "set": set}, []string{"data.pool:unknown"}},
		{map[string]any{"mode": "consume"}, []string{"data.mode:conflict"}},
		{map[string]any{"pool": pool, "mode": "borrow"}, []string{"data.mode:enum"}},
	}
	for _, tc := range cases {
		r := dev.projectDo(o.project, "POST", "/api/tests", doc(tc.data)).want(t, 422)
		if got := envIssuePaths(t, r); !slices.Equal(got, tc.want) {
			t.Errorf("%v: issues %v, want %v", tc.data, got, tc.want)
		}
	}
	r := dev.projectDo(o.project, "POST", "/api/tests", doc(map[string]any{"set": set, "pool": pool})).want(t, 201)
	d := r.json()["document"].(map[string]any)["data"].(map[string]any)
	if d["set"] != set || d["pool"] != pool || d["mode"] != "lease" {
		t.Fatalf("saved binding %v", d)
	}
	id := r.str("id")
	// A save (PUT) and the validate route check the same.
	bad := doc(map[string]any{"pool": "dpl_aaaaaaaaaaaaaaaa"})
	if got := envIssuePaths(t, dev.do("PUT", "/api/tests/"+id, bad).want(t, 422)); !slices.Equal(got, []string{"data.pool:unknown"}) {
		t.Fatalf("PUT issues %v", got)
	}
	v := dev.do("POST", "/api/tests/"+id+"/validate", bad).want(t, 200).json()
	if v["valid"] != false || !strings.Contains(fmt.Sprint(v["issues"]), "data.pool") {
		t.Fatalf("validate %v", v)
	}
	dev.do("PUT", "/api/tests/"+id, doc(map[string]any{"pool": pool, "mode": "consume"})).want(t, 200)
	// Import checks it too.
	imp := dev.projectDo(o.project, "POST", "/api/tests/import", map[string]any{"dsl": 2, "name": "I", "data": map[string]any{"set": otherSet}, "steps": []any{}}).want(t, 422)
	if got := envIssuePaths(t, imp); !slices.Equal(got, []string{"data.set:unknown"}) {
		t.Fatalf("import issues %v", got)
	}
	_ = h
}

// Hostile CSV bodies and query strings get a 4xx and save nothing.
func TestDataSetHostileCSV(t *testing.T) {
	h, o := envHarness(t)
	dev := o.members[access.TestDeveloper]
	cases := []struct{ query, body string }{
		{"?name=N", "a,b\n1,\x002\n"},
		{"?name=N", "a\x00,b\n1,2\n"},
		{"?name=N", "a,b\n\xff\xfe,2\n"},
		{"?name=N", "\"a\nb\",c\n1,2\n"},
		{"?name=N", "a,b\n\"unterminated,2\n"},
		{"?name=N", strings.Repeat("c,", 5000) + "c\n"},
		{"?name=N", "a\n" + strings.Repeat("x\n", 10001)},
		{"?name=%00", "a\n1\n"},
		{"?name=%ff%fe", "a\n1\n"},
		{"?name=" + strings.Repeat("n", 200), "a\n1\n"},
		{"?name=N&id=%00", "a\n1\n"},
		{"?name=N&id=tds_aaaaaaaaaaaaaaaa", "a\n1\n"},
		{"?name=N&id=dpl_aaaaaaaaaaaaaaaa", "a\n1\n"},
		{"?name=N", "${x},b\n1,2\n"},
	}
	for _, tc := range cases {
		r := dev.csvDo(o.project, "/api/test-data"+tc.query, tc.body)
		if r.status < 400 || r.status >= 500 {
			t.Errorf("%q %.40q: %d %s", tc.query, tc.body, r.status, r.body)
		}
	}
	if list := dev.projectDo(o.project, "GET", "/api/test-data", nil).want(t, 200).json()["dataSets"].([]any); len(list) != 0 {
		t.Fatalf("hostile CSV saved %v", list)
	}
	_ = h
}

// text/csv is accepted on POST /api/test-data alone, and never from a page
// of another site.
func TestCSVOnlyWhereImported(t *testing.T) {
	h, o := envHarness(t)
	dev := o.members[access.TestDeveloper]
	for _, route := range [][2]string{{"POST", "/api/data-pools"}, {"POST", "/api/tests"}, {"POST", "/api/environments"}, {"DELETE", "/api/test-data/tds_aaaaaaaaaaaaaaaa"}} {
		dev.send(route[0], route[1], "a\n1\n", ProjectHeader, o.project, "Content-Type", "text/csv").wantCode(t, 415, codeUnsupportedMediaType)
	}
	dev.send("POST", "/api/test-data?name=X", "a\n1\n", ProjectHeader, o.project, "Content-Type", "text/csv", "Origin", "https://evil.example").
		wantCode(t, 403, codeCrossOrigin)
	dev.send("POST", "/api/test-data?name=X", "a\n1\n", ProjectHeader, o.project, "Content-Type", "text/csv", "Origin", h.srv.URL).want(t, 201)
}
