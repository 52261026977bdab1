package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// maxRetries bounds the run option retries (docs/retries.md).
const maxRetries = 3

// checkRetries refuses a retries option outside 0..maxRetries.
func checkRetries(w http.ResponseWriter, in runRequest) bool {
	if in.Retries != nil && (*in.Retries < 0 || *in.Retries > maxRetries) {
		writeIssues(w, "the run is not valid", issueList{{Path: "retries", Code: "range", Message: "retries must be 0 to 3"}})
		return false
	}
	return true
}

// retries is the request's retries option, 0 when absent.
func (in runRequest) retries() int {
	if in.Retries == nil {
		return 0
	}
	return *in.Retries
}

// addAttempts gives a retried run's answer its attempts (docs/retries.md).
// An unreadable stored list is left out: the run's own result still says
// how it ended.
func (s *Server) addAttempts(ctx context.Context, run store.Run, out *runJSON) error {
	data, err := s.store.RunAttemptResults(ctx, run.ID)
	if err != nil || data == nil {
		return err
	}
	if err := json.Unmarshal(data, &out.AttemptResults); err != nil {
		s.log.Warn("a run's attempts are unreadable", "run", run.ID, "err", err)
		out.AttemptResults = nil
	}
	return nil
}

// traceAttempt reads GET .../trace's attempt (1 when absent): one of the
// run's possible attempts, else 422 at "attempt".
func traceAttempt(w http.ResponseWriter, r *http.Request, run store.Run) (int, bool) {
	q := r.URL.Query().Get("attempt")
	if q == "" {
		return 1, true
	}
	n, err := strconv.Atoi(q)
	if err != nil || n < 1 || n > run.Retries+1 {
		writeIssues(w, "the attempt is not valid", issueList{{Path: "attempt", Code: "range",
			Message: fmt.Sprintf("attempt must be 1 to %d: the run may make %d attempts", run.Retries+1, run.Retries+1)}})
		return 0, false
	}
	return n, true
}

// btoi counts a flag: 1 when set.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// lastAttempt is the attempt a run's own result is (its last; 1 for a run
// that ran once), whose trace goes with its steps.
func (s *Server) lastAttempt(ctx context.Context, runID string) int {
	data, err := s.store.RunAttemptResults(ctx, runID)
	if err != nil || data == nil {
		return 1
	}
	var attempts []protocol.AttemptResult
	if json.Unmarshal(data, &attempts) != nil || len(attempts) == 0 {
		return 1
	}
	return attempts[len(attempts)-1].Attempt
}

// rowAttempts is a finished data-driven run's rows' attempts by row (nil
// for another run), for its JUnit cases.
func (s *Server) rowAttempts(ctx context.Context, run store.Run) (map[int][]protocol.AttemptResult, error) {
	if run.DataSetID == "" || !protocol.Final(run.Status) {
		return nil, nil
	}
	d, err := s.store.RunDetail(ctx, run.ID)
	if err != nil || d.RowResults == nil {
		return nil, err
	}
	var results []protocol.RowResult
	if json.Unmarshal(d.RowResults, &results) != nil {
		return nil, nil // the report still has each row's summary
	}
	out := map[int][]protocol.AttemptResult{}
	for _, r := range results {
		out[r.Row] = r.Attempts
	}
	return out, nil
}
