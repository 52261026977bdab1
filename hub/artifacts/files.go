package artifacts

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/testautomation/ta/hub/ids"
)

// FileKind is the id prefix of project files (fil_...).
const FileKind = "fil"

// Files keeps the contents of project files (what upload steps put into a
// page), by file id. It sits beside Store so that another backend (object
// storage) can keep both.
type Files interface {
	// PutFile stores the bytes read from r under id. When r fails (the
	// upload was too big, the client went away) nothing is kept.
	PutFile(ctx context.Context, id string, r io.Reader) error
	// OpenFile reads a file; a missing one gives an error satisfying
	// errors.Is(err, os.ErrNotExist).
	OpenFile(ctx context.Context, id string) (io.ReadSeekCloser, error)
	// DeleteFile removes a file; a missing one is no error.
	DeleteFile(ctx context.Context, id string) error
}

// filePath is <root>/files/<id>: run folders are named run_..., so the
// files folder is apart from them.
func (d Dir) filePath(id string) (string, error) {
	if !ids.Valid(FileKind, id) {
		return "", ErrBadName
	}
	return filepath.Join(d.Root, "files", id), nil
}

// PutFile writes the file to a temporary name and renames it into place
// once all of r was read.
func (d Dir) PutFile(_ context.Context, id string, r io.Reader) error {
	p, err := d.filePath(id)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return fmt.Errorf("files folder: %w", err)
	}
	tmp := p + ".part"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o640)
	if err != nil {
		return fmt.Errorf("file: %w", err)
	}
	_, err = io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}

// OpenFile opens a stored file.
func (d Dir) OpenFile(_ context.Context, id string) (io.ReadSeekCloser, error) {
	p, err := d.filePath(id)
	if err != nil {
		return nil, err
	}
	return os.Open(p)
}

// DeleteFile removes a stored file.
func (d Dir) DeleteFile(_ context.Context, id string) error {
	p, err := d.filePath(id)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
