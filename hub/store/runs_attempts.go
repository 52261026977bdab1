package store

import (
	"context"
	"encoding/json"
)

// attemptsJSON is a RunOutcome's attempts as runs.attempt_results: nil
// (SQL NULL) for a run that ran once.
func attemptsJSON(attempts any) *string {
	if attempts == nil {
		return nil
	}
	b, err := json.Marshal(attempts)
	if err != nil || string(b) == "null" {
		return nil
	}
	v := string(b)
	return &v
}

// RunAttemptResults is a retried run's attempts as stored (JSON), nil for
// a run that ran once. Only GET /api/runs/:id and the reports that need
// them read it: run lists leave the attempts' steps out.
func (s *Store) RunAttemptResults(ctx context.Context, runID string) ([]byte, error) {
	var out *string
	err := s.pool.QueryRow(ctx, `SELECT attempt_results::text FROM runs WHERE id = $1`, runID).Scan(&out)
	if isNoRows(err) {
		return nil, ErrNotFound
	}
	if err != nil || out == nil {
		return nil, err
	}
	return []byte(*out), nil
}
