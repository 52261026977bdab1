// Package artifacts keeps run artifacts (screenshots ...) behind a small
// interface; Dir stores them as files under the hub's data folder, one folder
// per run. Names are checked with protocol.ValidArtifactName so no name
// escapes its run's folder.
package artifacts

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/protocol"
)

// ErrBadName refuses a run id or artifact name that is not safe as a path.
var ErrBadName = errors.New("invalid artifact name")

// Store keeps artifact contents.
type Store interface {
	Put(ctx context.Context, runID, name string, data []byte) error
	Open(ctx context.Context, runID, name string) (io.ReadSeekCloser, error)
}

// Dir stores artifacts as <root>/<runID>/<name>.
type Dir struct{ Root string }

func (d Dir) path(runID, name string) (string, error) {
	if !ids.Valid("run", runID) || !protocol.ValidArtifactName(name) {
		return "", ErrBadName
	}
	return filepath.Join(d.Root, runID, name), nil
}

// Put writes an artifact, replacing one of the same name.
func (d Dir) Put(_ context.Context, runID, name string, data []byte) error {
	p, err := d.path(runID, name)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return fmt.Errorf("artifact folder: %w", err)
	}
	tmp := p + ".part"
	if err := os.WriteFile(tmp, data, 0o640); err != nil {
		return fmt.Errorf("artifact: %w", err)
	}
	return os.Rename(tmp, p)
}

// Open reads an artifact; a missing one gives an error satisfying
// errors.Is(err, os.ErrNotExist).
func (d Dir) Open(_ context.Context, runID, name string) (io.ReadSeekCloser, error) {
	p, err := d.path(runID, name)
	if err != nil {
		return nil, err
	}
	return os.Open(p)
}
