package dispatch

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/testautomation/ta/hub/store"
)

// ProtectedDataRefusal says why a run on the protected environment env
// may not use a data set or pool (kind) named name that is not protected.
// Anyone who may change test data could otherwise point a Ready test's
// ${loginUrl} at their own page and receive the environment's secrets, so
// such runs use only data a Test Manager or Admin controls.
func ProtectedDataRefusal(env store.Environment, kind, name string) string {
	return fmt.Sprintf("%s %s is not protected, and environment %s is: runs on a protected environment use only protected data sets and pools, "+
		"which only a Test Manager or Admin may change; a Test Manager must mark it protected", kind, strconv.Quote(name), strconv.Quote(env.Name))
}

// protectedDataSet checks again at dispatch that the data set a run on the
// protected environment env was started with is still protected (a Test
// Manager may have cleared the flag while the run waited, and a Test
// Developer changed it since): when not, or when it is gone, the run is
// refused (ErrRefused).
func (j Jobs) protectedDataSet(ctx context.Context, env store.Environment, run store.Run, detail store.RunDetail) error {
	if detail.DataSetID == "" {
		return nil
	}
	set, err := j.Source.DataSet(ctx, run.ProjectID, detail.DataSetID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return fmt.Errorf("%w: the run's data set %s no longer exists, and environment %s is protected", ErrRefused, detail.DataSetID, strconv.Quote(env.Name))
	case err != nil:
		return fmt.Errorf("data set: %w", err)
	case !set.Protected:
		return fmt.Errorf("%w: %s", ErrRefused, ProtectedDataRefusal(env, "data set", set.Name))
	}
	return nil
}
