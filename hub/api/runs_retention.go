package api

import (
	"context"
	"net/http"

	"github.com/testautomation/ta/hub/artifacts"
)

// Retention of run artifacts (docs/trace.md): a run's rows go with its
// test, project or organization (ON DELETE CASCADE); its artifacts'
// bytes, screenshots and traces alike, are deleted after them.

// runsOf lists the runs deleting a record of kind ("test", "project",
// "org") takes with it, before it is deleted; false once it answered an
// error.
func (s *Server) runsOf(w http.ResponseWriter, r *http.Request, kind, id string) ([]string, bool) {
	ids, err := s.store.RunIDsOf(r.Context(), kind, id)
	if err != nil {
		s.internal(w, r, err)
		return nil, false
	}
	return ids, true
}

// dropRunArtifacts removes the artifacts of runs whose rows are gone. A
// failure is logged: the rows are gone and the answer says so.
func (s *Server) dropRunArtifacts(ctx context.Context, runIDs []string) {
	rm, ok := s.Artifacts.(artifacts.RunRemover)
	if !ok {
		return
	}
	ctx = context.WithoutCancel(ctx) // the client may leave; the bytes still go
	for _, id := range runIDs {
		if err := rm.DeleteRun(ctx, id); err != nil {
			s.log.Error("delete run artifacts", "run", id, "err", err)
		}
	}
}
