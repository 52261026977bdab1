package store

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestQuery selects a page of a project's tests as one caller sees them.
type TestQuery struct {
	ProjectID string
	UserID    string // private tests of anyone else are never listed
	Q         string // matches name, suite or a tag, case-insensitively
	Suite     *string
	// Visibility: "all" (shared plus my private), "shared", "private" (my
	// private tests), "mine" (owned by me).
	Visibility string
	// Sort: "name" (default), "-name", "savedAt", "-savedAt" (newest first),
	// "passRate", "-passRate", "flakiness", "-flakiness" (history.go;
	// tests without runs last by pass rate).
	Sort string
	// Flaky, Quarantined keep only tests called flaky now, or quarantined.
	Flaky, Quarantined bool
	After              *Cursor
	Limit              int
}

// Cursor is the position after the last row of a page.
type Cursor struct {
	Key string // the sort key of the last row (lower(name), or saved_at in RFC 3339 nano)
	ID  string
}

// TestSorts are the accepted TestQuery.Sort values.
var TestSorts = []string{"name", "-name", "savedAt", "-savedAt", "passRate", "-passRate", "flakiness", "-flakiness"}

func likePattern(q string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(q) + "%"
}

// ListTests returns a page of tests, the total matching and the cursor of
// the next page (nil on the last page). Order is stable: ties on the sort
// key are broken by id.
func (s *Store) ListTests(ctx context.Context, q TestQuery) ([]Test, int, *Cursor, error) {
	args := []any{q.ProjectID, q.UserID}
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	where := []string{"t.project_id = $1", "(t.visibility = 'Shared' OR t.owner_id = $2)"}
	switch q.Visibility {
	case "shared":
		where = append(where, "t.visibility = 'Shared'")
	case "private":
		where = append(where, "t.visibility = 'Private' AND t.owner_id = $2")
	case "mine":
		where = append(where, "t.owner_id = $2")
	}
	// Without a search every condition is on a column test_counts has
	// (project, suite, visibility, owner): the total is a sum of its
	// groups, not a count of every row. A condition on anything else must
	// clear counted.
	counted := true
	if q.Q != "" {
		where = append(where, "t.search LIKE "+arg(likePattern(strings.ToLower(q.Q))))
		counted = false
	}
	if q.Suite != nil {
		where = append(where, "t.suite = "+arg(*q.Suite))
	}
	// A sort or filter on history joins each test's last runs (history.go).
	from := testFrom
	if q.Flaky || strings.Contains(q.Sort, "passRate") || strings.Contains(q.Sort, "flakiness") {
		from += historyJoins
	}
	if q.Flaky {
		where = append(where, "h10.flaky")
		counted = false
	}
	if q.Quarantined {
		where = append(where, "t.quarantined_at IS NOT NULL")
		counted = false
	}
	cond := strings.Join(where, " AND ")
	countFrom := ` FROM tests t `
	if q.Flaky {
		countFrom += historyJoins
	}
	countSQL := `SELECT count(*)` + countFrom + `WHERE ` + cond
	if counted {
		countSQL = `SELECT coalesce(sum(t.n), 0)::bigint FROM test_counts t WHERE ` + cond
	}
	var total int
	if err := s.pool.QueryRow(ctx, countSQL, args...).Scan(&total); err != nil {
		return nil, 0, nil, err
	}

	key, desc := "lower(t.name)", false
	switch q.Sort {
	case "-name":
		desc = true
	case "savedAt":
		key = "t.saved_at"
	case "-savedAt":
		key, desc = "t.saved_at", true
	case "passRate": // lowest first, never-run tests last either way
		key = "coalesce(" + passRateKey + ", 2)"
	case "-passRate":
		key, desc = "coalesce("+passRateKey+", -1)", true
	case "flakiness":
		key = flakinessKey
	case "-flakiness":
		key, desc = flakinessKey, true
	}
	numeric := strings.Contains(q.Sort, "passRate") || strings.Contains(q.Sort, "flakiness")
	op, dir := ">", "ASC"
	if desc {
		op, dir = "<", "DESC"
	}
	if q.After != nil {
		var k any = q.After.Key
		if key == "t.saved_at" {
			at, err := time.Parse(time.RFC3339Nano, q.After.Key)
			if err != nil {
				return nil, 0, nil, ErrBadCursor
			}
			k = at
		} else if numeric {
			f, err := strconv.ParseFloat(q.After.Key, 64)
			if err != nil {
				return nil, 0, nil, ErrBadCursor
			}
			k = f
		}
		cond += " AND (" + key + ", t.id) " + op + " (" + arg(k) + ", " + arg(q.After.ID) + ")"
	}
	limit := q.Limit
	cols := testCols
	if numeric {
		cols += ", " + key + "::float8"
	} else {
		cols += ", 0::float8"
	}
	rows, err := s.pool.Query(ctx, `SELECT `+cols+from+`WHERE `+cond+
		` ORDER BY `+key+` `+dir+`, t.id `+dir+` LIMIT `+arg(limit+1), args...)
	if err != nil {
		return nil, 0, nil, err
	}
	var keys []float64
	tests, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Test, error) {
		var k float64
		t, err := scanTestWith(r, &k)
		keys = append(keys, k)
		return t, err
	})
	if err != nil {
		return nil, 0, nil, err
	}
	var next *Cursor
	if len(tests) > limit {
		tests = tests[:limit]
		last := tests[limit-1]
		next = &Cursor{ID: last.ID, Key: strings.ToLower(last.Name)}
		if key == "t.saved_at" {
			next.Key = last.SavedAt.UTC().Format(time.RFC3339Nano)
		} else if numeric {
			next.Key = strconv.FormatFloat(keys[limit-1], 'g', -1, 64)
		}
	}
	return tests, total, next, s.addHistories(ctx, tests)
}
