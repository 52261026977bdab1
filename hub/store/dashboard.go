package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// Dashboard is a project's figures as one caller sees them: other people's
// private tests and their runs are left out of every count.
type Dashboard struct {
	TestsByStatus map[string]int
	Last7, Last30 RunCounts
	PerDay        []DayCounts
	Slowest       []TestFigure
	MostFailing   []TestFigure
}

// RunCounts counts finished runs.
type RunCounts struct{ Total, Passed, Failed int }

// DayCounts is one day's finished runs.
type DayCounts struct {
	Day string // YYYY-MM-DD, UTC
	RunCounts
}

// TestFigure is one test in a top list.
type TestFigure struct {
	TestID, Name  string
	Runs          int
	Failures      int
	AvgDurationMs int64
}

const visibleRuns = `FROM runs r JOIN tests t ON t.id = r.test_id
	WHERE r.project_id = $1 AND (t.visibility = 'Shared' OR t.owner_id = $2) AND r.finished_at IS NOT NULL AND r.finished_at > $3`

// ProjectDashboard computes the dashboard over the days before now.
func (s *Store) ProjectDashboard(ctx context.Context, projectID, userID string, now time.Time) (Dashboard, error) {
	d := Dashboard{TestsByStatus: map[string]int{"Draft": 0, "Ready": 0, "Deprecated": 0}}
	rows, err := s.pool.Query(ctx, `SELECT status, count(*) FROM tests WHERE project_id = $1 AND (visibility = 'Shared' OR owner_id = $2) GROUP BY status`, projectID, userID)
	if err != nil {
		return d, err
	}
	var status string
	var n int
	if _, err := pgx.ForEachRow(rows, []any{&status, &n}, func() error { d.TestsByStatus[status] = n; return nil }); err != nil {
		return d, err
	}
	for _, p := range []struct {
		days int
		into *RunCounts
	}{{7, &d.Last7}, {30, &d.Last30}} {
		if err := s.pool.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE r.status = 'passed'), count(*) FILTER (WHERE r.status = 'failed') `+visibleRuns,
			projectID, userID, now.AddDate(0, 0, -p.days)).Scan(&p.into.Total, &p.into.Passed, &p.into.Failed); err != nil {
			return d, err
		}
	}
	since := now.AddDate(0, 0, -30)
	rows, err = s.pool.Query(ctx, `SELECT to_char(r.finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*),
		count(*) FILTER (WHERE r.status = 'passed'), count(*) FILTER (WHERE r.status = 'failed') `+visibleRuns+` GROUP BY day ORDER BY day`,
		projectID, userID, since)
	if err != nil {
		return d, err
	}
	if d.PerDay, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (DayCounts, error) {
		var dc DayCounts
		err := r.Scan(&dc.Day, &dc.Total, &dc.Passed, &dc.Failed)
		return dc, err
	}); err != nil {
		return d, err
	}
	top := func(order string) ([]TestFigure, error) {
		rows, err := s.pool.Query(ctx, `SELECT t.id, t.name, count(*), count(*) FILTER (WHERE r.status = 'failed'),
			coalesce(avg(r.duration_ms) FILTER (WHERE r.status IN ('passed', 'failed')), 0)::bigint AS avg `+visibleRuns+`
			GROUP BY t.id, t.name `+order+` LIMIT 5`, projectID, userID, since)
		if err != nil {
			return nil, err
		}
		return pgx.CollectRows(rows, func(r pgx.CollectableRow) (TestFigure, error) {
			var f TestFigure
			err := r.Scan(&f.TestID, &f.Name, &f.Runs, &f.Failures, &f.AvgDurationMs)
			return f, err
		})
	}
	if d.Slowest, err = top(`ORDER BY avg DESC, t.id`); err != nil {
		return d, err
	}
	all, err := top(`HAVING count(*) FILTER (WHERE r.status = 'failed') > 0 ORDER BY 4 DESC, t.id`)
	d.MostFailing = all
	return d, err
}
