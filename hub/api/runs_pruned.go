package api

import (
	"context"
	"errors"
	"net/http"

	"github.com/testautomation/ta/hub/store"
)

// Retention (issue 32, docs/retention.md): a run whose artifacts and
// traces the retention settings removed says when, so its page shows a
// notice instead of broken pictures, and asking for one of its artifacts
// answers 410 artifacts_pruned instead of a bare 404.

const codeArtifactsPruned = "artifacts_pruned"

// addPruned fills artifactsPrunedAt of GET /api/runs/:id.
func (s *Server) addPruned(ctx context.Context, run store.Run, out *runJSON) error {
	at, err := s.store.ArtifactsPrunedAt(ctx, run.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil // deleted meanwhile: the rest of the answer stands
	}
	out.ArtifactsPrunedAt = timePtr(at)
	return err
}

// artifactMissing answers for an artifact the run does not have: 410 when
// retention removed the run's artifacts, else 404.
func (s *Server) artifactMissing(w http.ResponseWriter, r *http.Request, run store.Run) {
	if at, err := s.store.ArtifactsPrunedAt(r.Context(), run.ID); err == nil && at != nil {
		writeError(w, http.StatusGone, codeArtifactsPruned,
			"this run's screenshots and trace were removed on "+at.UTC().Format("2006-01-02")+" by the retention setting")
		return
	}
	writeError(w, http.StatusNotFound, codeNotFound, "this run has no such artifact")
}

// notePruned tells a comparison which of its two runs lost their
// artifacts to retention, and drops the screenshots they no longer have
// (their names stay in the step results) so none shows broken.
func (s *Server) notePruned(ctx context.Context, run, base store.Run, out *compareJSON) error {
	for _, r := range []struct {
		id   string
		at   **string
		shot func(d *divergedJSON) *string
	}{
		{run.ID, &out.ArtifactsPrunedAt, func(d *divergedJSON) *string { return &d.Screenshot }},
		{base.ID, &out.Baseline.ArtifactsPrunedAt, func(d *divergedJSON) *string { return &d.BaselineScreenshot }},
	} {
		at, err := s.store.ArtifactsPrunedAt(ctx, r.id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		if at == nil {
			continue
		}
		*r.at = timePtr(at)
		if out.Diverged != nil {
			*r.shot(out.Diverged) = ""
			out.Diverged.Pixels = nil
		}
	}
	return nil
}
