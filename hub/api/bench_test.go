package api

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"
)

// seedTests inserts n tests (and their first versions) straight into the
// project, with a mix of suites, tags, owners and visibilities.
func seedTests(b *testing.B, h *harness, project, owner, other string, n int) {
	ctx := context.Background()
	_, err := h.store.Pool().Exec(ctx, `
		WITH src AS (
			SELECT g, $1 || lpad(g::text, 6, '0') AS id FROM generate_series(1, $4::int) g
		), ins AS (
			INSERT INTO tests (id, project_id, name, suite, tags, visibility, owner_id, status, version, step_count, created_at, saved_at, saved_by)
			SELECT id, $2, 'Test ' || md5(g::text), CASE WHEN g % 7 = 0 THEN '' ELSE 'Suite ' || (g % 20) END,
				ARRAY['tag' || (g % 13)], CASE WHEN g % 10 = 0 THEN 'Private' ELSE 'Shared' END,
				CASE WHEN g % 3 = 0 THEN $5 ELSE $3 END, 'Draft', 1, 5, now(), now() - g * interval '1 minute', $3
			FROM src RETURNING id
		)
		INSERT INTO test_versions (test_id, version, status, content, step_count, author_id, created_at, saved_at)
		SELECT id, 1, 'Draft', '{"dsl":2,"name":"x","steps":[]}', 5, $3, now(), now() FROM ins`,
		"tc_bench", project, owner, n, other)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := h.store.Pool().Exec(ctx, `ANALYZE tests`); err != nil {
		b.Fatal(err)
	}
}

func p95(d []time.Duration) float64 {
	slices.Sort(d)
	return float64(d[len(d)*95/100]) / float64(time.Millisecond)
}

// BenchmarkTestList measures GET /api/tests over HTTP with 10,000 tests in
// the project (goal: p95 under 30 ms), against a baseline of the bare SQL
// query for the same page in the same run.
func BenchmarkTestList(b *testing.B) {
	h := newHarness(b)
	o := h.org(b)
	c := o.members["Tester"]
	var me, other string
	for role, id := range o.ids {
		if role == "Tester" {
			me = id
		} else {
			other = id
		}
	}
	seedTests(b, h, o.project, me, other, 10000)
	for _, q := range []struct{ name, query string }{
		{"first-page", ""},
		{"search", "?q=tag7"},
		{"suite-mine", "?suite=Suite+3&visibility=mine"},
		{"saved-desc", "?sort=-savedAt&limit=50"},
	} {
		b.Run(q.name, func(b *testing.B) {
			var api, base []time.Duration
			ctx := context.Background()
			for b.Loop() {
				start := time.Now()
				r := c.do(http.MethodGet, "/api/tests"+q.query, nil, ProjectHeader, o.project)
				api = append(api, time.Since(start))
				if r.status != 200 {
					b.Fatalf("%d %s", r.status, r.body)
				}
				start = time.Now()
				rows, err := h.store.Pool().Query(ctx, `SELECT id, name FROM tests WHERE project_id = $1 ORDER BY lower(name), id LIMIT 100`, o.project)
				if err != nil {
					b.Fatal(err)
				}
				for rows.Next() {
				}
				rows.Close()
				base = append(base, time.Since(start))
			}
			b.ReportMetric(p95(api), "p95-ms")
			b.ReportMetric(p95(base), "sql-p95-ms")
			b.ReportMetric(p95(api)/p95(base), "x-sql")
		})
	}
}
