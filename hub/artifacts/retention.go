package artifacts

import (
	"context"
	"os"
	"path/filepath"

	"github.com/testautomation/ta/hub/ids"
)

// RunRemover is a Store that can delete a run's artifacts, all at once:
// a run's rows go with its test, project or organization (ON DELETE
// CASCADE), and its bytes must follow (traces included, docs/trace.md).
type RunRemover interface {
	DeleteRun(ctx context.Context, runID string) error
}

// DeleteRun removes a run's folder; a run without one is no error.
func (d Dir) DeleteRun(_ context.Context, runID string) error {
	if !ids.Valid("run", runID) {
		return ErrBadName
	}
	return os.RemoveAll(filepath.Join(d.Root, runID))
}
