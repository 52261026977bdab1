package store

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"
)

// Quarantine is a test's quarantine: while set, its runs' failures fail no
// batch (docs/history.md).
type Quarantine struct {
	At     time.Time
	ByID   string // "" when the account is gone
	ByName string
	Reason string
}

// HistoryRun is one finished run in a test's history.
type HistoryRun struct {
	RunID           string     `json:"runId"`
	Status          string     `json:"status"`
	DurationMs      int64      `json:"durationMs"`
	Flaky           bool       `json:"flaky"`
	Quarantined     bool       `json:"quarantined"`
	StartedAt       *time.Time `json:"startedAt"`
	FinishedAt      time.Time  `json:"finishedAt"`
	Version         int        `json:"version"`
	EnvironmentID   string     `json:"environmentId"`
	EnvironmentName string     `json:"environmentName"`
}

// TestHistory is the list's summary of a test's history: its last runs
// (newest first) and the counts its rates come from.
type TestHistory struct {
	Recent []HistoryRun
	// Over the last HistoryRuns finished runs: those that passed, those
	// that passed or failed (the rates' base) and those marked flaky.
	Passed, Judged, FlakyRuns int
}

// HistoryRuns is how many finished runs a test's history covers;
// RecentRuns how many the list's strip and the flaky call look at.
const (
	HistoryRuns = 100
	RecentRuns  = 10
)

// historyWhere selects the runs that are history, as the partial index
// runs_test_history does (0029_test_history.sql); the lateral joins
// below rely on it to read each test's newest runs from the index.
const historyWhere = `r.status IN ('passed', 'failed', 'error') AND r.finished_at IS NOT NULL`

// historyCols are a history run's columns, as HistoryRun and the JSON the
// list's lateral builds name them.
const historyCols = `r.id, r.status, r.duration_ms, r.flaky, r.quarantined, r.started_at, r.finished_at, r.version,
	coalesce(r.environment_id, ''), coalesce(e.name, '')`

// historyJoins add, per test t, hs (counts over its last 100 runs) and
// h10 (its last 10 runs as JSON and the flaky call). The flaky call is
// the rule of hub/api/history_rule.go written in SQL so that the list can
// filter and sort on it; TestFlakyRuleSQLAgrees keeps the two the same.
const historyJoins = ` LEFT JOIN LATERAL (
	SELECT count(*) FILTER (WHERE h.status = 'passed') AS passed,
		count(*) FILTER (WHERE h.status IN ('passed', 'failed')) AS judged,
		count(*) FILTER (WHERE h.flaky) AS flaky
	FROM (SELECT r.status, r.flaky FROM runs r WHERE r.test_id = t.id AND ` + historyWhere + `
		ORDER BY r.finished_at DESC, r.id DESC LIMIT 100) h) hs ON true
LEFT JOIN LATERAL (
	WITH last AS (SELECT r.flaky, r.status, r.version, r.environment_id, r.finished_at, r.id FROM runs r
		WHERE r.test_id = t.id AND ` + historyWhere + ` ORDER BY r.finished_at DESC, r.id DESC LIMIT 10)
	SELECT coalesce((SELECT bool_or(flaky) FROM last), false) OR coalesce((SELECT max(n) FROM (
		SELECT count(*) AS n FROM (
			SELECT version, environment_id, status <> lag(status) OVER (PARTITION BY version, environment_id ORDER BY finished_at, id) AS flip
			FROM last WHERE status IN ('passed', 'failed')) f
		WHERE flip GROUP BY version, environment_id) g), 0) >= 2 AS flaky) h10 ON true `

// The list's sort keys over historyJoins (see TestQuery.Sort).
const (
	passRateKey  = `hs.passed::float8 / nullif(hs.judged, 0)`
	flakinessKey = `(h10.flaky::int + coalesce(hs.flaky::float8 / nullif(hs.judged, 0), 0))`
)

// TestHistoryRuns returns a test's last HistoryRuns finished runs, newest
// first.
func (s *Store) TestHistoryRuns(ctx context.Context, testID string) ([]HistoryRun, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+historyCols+` FROM runs r LEFT JOIN environments e ON e.id = r.environment_id
		WHERE r.test_id = $1 AND `+historyWhere+` ORDER BY r.finished_at DESC, r.id DESC LIMIT 100`, testID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (HistoryRun, error) {
		var h HistoryRun
		err := row.Scan(&h.RunID, &h.Status, &h.DurationMs, &h.Flaky, &h.Quarantined, &h.StartedAt, &h.FinishedAt, &h.Version,
			&h.EnvironmentID, &h.EnvironmentName)
		return h, err
	})
}

// addHistories fills the History of a page of tests, in one query.
func (s *Store) addHistories(ctx context.Context, tests []Test) error {
	if len(tests) == 0 {
		return nil
	}
	ids := make([]string, len(tests))
	for i, t := range tests {
		ids[i] = t.ID
	}
	rows, err := s.pool.Query(ctx, `SELECT t.id, hs.passed, hs.judged, hs.flaky, recent.runs
		FROM unnest($1::text[]) AS t(id)`+historyJoins+`
		LEFT JOIN LATERAL (SELECT coalesce(json_agg(json_build_object('runId', r.id, 'status', r.status, 'durationMs', r.duration_ms,
			'flaky', r.flaky, 'quarantined', r.quarantined, 'startedAt', r.started_at, 'finishedAt', r.finished_at, 'version', r.version,
			'environmentId', coalesce(r.environment_id, ''), 'environmentName', coalesce(e.name, '')) ORDER BY r.finished_at DESC, r.id DESC), '[]') AS runs
			FROM (SELECT * FROM runs r WHERE r.test_id = t.id AND `+historyWhere+` ORDER BY r.finished_at DESC, r.id DESC LIMIT 10) r
			LEFT JOIN environments e ON e.id = r.environment_id) recent ON true`, ids)
	if err != nil {
		return err
	}
	byID := map[string]*TestHistory{}
	var id string
	var runs []byte
	var h TestHistory
	if _, err := pgx.ForEachRow(rows, []any{&id, &h.Passed, &h.Judged, &h.FlakyRuns, &runs}, func() error {
		one := TestHistory{Passed: h.Passed, Judged: h.Judged, FlakyRuns: h.FlakyRuns}
		if err := json.Unmarshal(runs, &one.Recent); err != nil {
			return err
		}
		byID[id] = &one
		return nil
	}); err != nil {
		return err
	}
	for i := range tests {
		tests[i].History = byID[tests[i].ID]
	}
	return nil
}

// SetQuarantine quarantines a test (again: a new reason replaces the
// old), or lifts its quarantine when q is nil. It answers the test as it
// is now.
func (s *Store) SetQuarantine(ctx context.Context, testID string, q *Quarantine) (Test, error) {
	var err error
	if q == nil {
		_, err = s.pool.Exec(ctx, `UPDATE tests SET quarantined_at = NULL, quarantined_by = NULL, quarantine_reason = '' WHERE id = $1`, testID)
	} else {
		_, err = s.pool.Exec(ctx, `UPDATE tests SET quarantined_at = $2, quarantined_by = nullif($3, ''), quarantine_reason = $4 WHERE id = $1`,
			testID, q.At, q.ByID, q.Reason)
	}
	if err != nil {
		return Test{}, err
	}
	return s.Test(ctx, testID)
}

// FlakiestTests returns the project's tests the user sees that have a
// flaky call or flaky runs, flakiest first, at most n (the dashboard).
func (s *Store) FlakiestTests(ctx context.Context, projectID, userID string, n int) ([]Test, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+testCols+testFrom+historyJoins+`
		WHERE t.project_id = $1 AND (t.visibility = 'Shared' OR t.owner_id = $2) AND `+flakinessKey+` > 0
		ORDER BY `+flakinessKey+` DESC, t.id LIMIT $3`, projectID, userID, n)
	if err != nil {
		return nil, err
	}
	tests, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Test, error) { return scanTest(r) })
	if err != nil {
		return nil, err
	}
	return tests, s.addHistories(ctx, tests)
}
