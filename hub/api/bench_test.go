package api

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
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

// listVariants are the test list requests the benchmark measures, each
// with its baseline: the bare SQL of the same page (the same visibility
// rule, filter, order and limit, without the count, the joins for names,
// HTTP and JSON), so the ratio compares like with like. $1 is the
// project, $2 the caller.
var listVariants = []struct {
	name, query string
	sql         string // after SELECT t.id FROM tests t WHERE
	args        []any  // from $3
}{
	{"first-page", "", listVisible + ` ORDER BY lower(t.name), t.id LIMIT 100`, nil},
	{"search", "?q=tag7", listVisible + ` AND t.search LIKE $3 ORDER BY lower(t.name), t.id LIMIT 100`, []any{"%tag7%"}},
	{"suite-mine", "?suite=Suite+3&visibility=mine", listVisible + ` AND t.owner_id = $2 AND t.suite = $3 ORDER BY lower(t.name), t.id LIMIT 100`, []any{"Suite 3"}},
	{"saved-desc", "?sort=-savedAt&limit=50", listVisible + ` ORDER BY t.saved_at DESC, t.id DESC LIMIT 50`, nil},
}

const listVisible = `t.project_id = $1 AND (t.visibility = 'Shared' OR t.owner_id = $2)`

// baselineIDs runs a variant's bare SQL and returns the page's ids.
func baselineIDs(ctx context.Context, b *testing.B, h *harness, sql, project, user string, args []any) []string {
	rows, err := h.store.Pool().Query(ctx, `SELECT t.id FROM tests t WHERE `+sql, append([]any{project, user}, args...)...)
	if err != nil {
		b.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		b.Fatal(err)
	}
	return ids
}

// BenchmarkTestList measures GET /api/tests over HTTP with 10,000 and with
// 100,000 tests in the project (goal: p95 under 30 ms), against a baseline
// of the bare SQL query for the same page in the same run. Each size has a
// database of its own.
func BenchmarkTestList(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) { benchTestList(b, n) })
	}
}

func benchTestList(b *testing.B, n int) {
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
	seedTests(b, h, o.project, me, other, n)
	for _, v := range listVariants {
		b.Run(v.name, func(b *testing.B) {
			ctx := context.Background()
			// The baseline must be the same page, or the ratio means nothing.
			r := c.do(http.MethodGet, "/api/tests"+v.query, nil, ProjectHeader, o.project)
			var page []string
			for _, row := range r.json()["tests"].([]any) {
				page = append(page, row.(map[string]any)["id"].(string))
			}
			if base := baselineIDs(ctx, b, h, v.sql, o.project, me, v.args); !slices.Equal(page, base) || len(page) == 0 {
				b.Fatalf("the baseline SQL is not the API's page: %d ids vs %d", len(base), len(page))
			}
			var api, base []time.Duration
			for b.Loop() {
				start := time.Now()
				r := c.do(http.MethodGet, "/api/tests"+v.query, nil, ProjectHeader, o.project)
				api = append(api, time.Since(start))
				if r.status != 200 {
					b.Fatalf("%d %s", r.status, r.body)
				}
				start = time.Now()
				baselineIDs(ctx, b, h, v.sql, o.project, me, v.args)
				base = append(base, time.Since(start))
			}
			b.ReportMetric(p95(api), "p95-ms")
			b.ReportMetric(p95(base), "sql-p95-ms")
			b.ReportMetric(p95(api)/p95(base), "x-sql")
		})
	}
}
