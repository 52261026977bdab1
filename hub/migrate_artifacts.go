package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/protocol"
)

// migrateArtifactsMain is `hub migrate-artifacts`: it copies the data
// folder's artifacts and project files into the HUB_S3_* bucket
// (docs/object-storage.md) and says how it went; the exit code is 0 only
// when nothing failed.
func migrateArtifactsMain(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hub migrate-artifacts", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", cmpEnv(getenv, "HUB_DATA", "./data"), "data folder whose artifacts/ is copied (HUB_DATA)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: hub migrate-artifacts [--data folder]\n\nCopies <data>/artifacts (runs' artifacts and project files) into the bucket of\nHUB_S3_ENDPOINT, HUB_S3_BUCKET, HUB_S3_ACCESS_KEY, HUB_S3_SECRET_KEY (HUB_S3_REGION,\nHUB_S3_PREFIX). An object already there with the same size is skipped, so running\nit again after an interruption continues.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "hub migrate-artifacts: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	cfg, err := parseS3(getenv)
	if err == nil && cfg.Endpoint == "" {
		err = errors.New("HUB_S3_ENDPOINT, HUB_S3_BUCKET, HUB_S3_ACCESS_KEY and HUB_S3_SECRET_KEY are not set: name the bucket to copy into")
	}
	if err != nil {
		fmt.Fprintln(stderr, "hub migrate-artifacts:", err)
		return 2
	}
	cfg.Presign = false
	store, err := openArtifacts(cfg, *data)
	if err != nil {
		fmt.Fprintln(stderr, "hub migrate-artifacts:", err)
		return 1
	}
	sum, err := migrateArtifacts(ctx, filepath.Join(*data, "artifacts"), store.(*artifacts.S3), stdout)
	fmt.Fprintf(stdout, "copied %d, skipped %d (already there), failed %d\n", sum.copied, sum.skipped, sum.failed)
	if err != nil {
		fmt.Fprintln(stderr, "hub migrate-artifacts:", err)
		return 1
	}
	if sum.failed > 0 {
		return 1
	}
	return 0
}

func cmpEnv(getenv func(string) string, key, def string) string {
	if v := getenv(key); v != "" {
		return v
	}
	return def
}

type migrateSummary struct{ copied, skipped, failed int }

// migrateItem is one file of the folder and the key it goes to.
type migrateItem struct{ path, key string }

// migrateArtifacts copies root's <run>/<name> and files/<id> to their
// keys, in a stable order, one line per object copied or failed. An
// object already in the bucket with the file's size is skipped: uploads
// are whole or absent, so after an interruption the same size means the
// same bytes. It stops early only when ctx ends.
func migrateArtifacts(ctx context.Context, root string, s *artifacts.S3, out io.Writer) (migrateSummary, error) {
	var sum migrateSummary
	items, ignored, err := migrateList(root, s)
	if err != nil {
		return sum, err
	}
	for _, p := range ignored {
		fmt.Fprintf(out, "ignored %s: not an artifact or project file\n", p)
	}
	fmt.Fprintf(out, "%d objects to copy from %s\n", len(items), root)
	for i, it := range items {
		if err := ctx.Err(); err != nil {
			return sum, fmt.Errorf("stopped after %d of %d: %w (run it again to continue)", i, len(items), err)
		}
		skipped, err := migrateOne(ctx, s, it)
		switch {
		case err != nil && ctx.Err() != nil:
			return sum, fmt.Errorf("stopped after %d of %d: %w (run it again to continue)", i, len(items), ctx.Err())
		case err != nil:
			sum.failed++
			fmt.Fprintf(out, "failed %s: %v\n", it.key, err)
		case skipped:
			sum.skipped++
		default:
			sum.copied++
			fmt.Fprintf(out, "copied %s (%d/%d)\n", it.key, i+1, len(items))
		}
	}
	return sum, nil
}

func migrateOne(ctx context.Context, s *artifacts.S3, it migrateItem) (skipped bool, err error) {
	f, err := os.Open(it.path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return false, err
	}
	if !info.Mode().IsRegular() {
		return false, fmt.Errorf("%s is not a regular file", it.path)
	}
	size, found, err := s.ObjectSize(ctx, it.key)
	if err != nil {
		return false, err
	}
	if found && size == info.Size() {
		return true, nil
	}
	return false, s.PutObject(ctx, it.key, f, info.Size())
}

// migrateList lists what Dir keeps under root, and what it does not
// recognize (temporary *.part files, stray names), sorted.
func migrateList(root string, s *artifacts.S3) (items []migrateItem, ignored []string, err error) {
	dirs, err := os.ReadDir(root)
	if err != nil {
		return nil, nil, fmt.Errorf("artifacts folder: %w", err)
	}
	for _, d := range dirs {
		dir := filepath.Join(root, d.Name())
		if !d.IsDir() || (d.Name() != "files" && !ids.Valid("run", d.Name())) {
			ignored = append(ignored, dir)
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, nil, err
		}
		for _, e := range entries {
			var key string
			var kerr error
			if d.Name() == "files" {
				key, kerr = s.FileKey(e.Name())
			} else if protocol.ValidArtifactName(e.Name()) && !strings.HasSuffix(e.Name(), ".part") {
				key, kerr = s.RunKey(d.Name(), e.Name())
			} else {
				kerr = artifacts.ErrBadName
			}
			if kerr != nil || e.IsDir() {
				ignored = append(ignored, filepath.Join(dir, e.Name()))
				continue
			}
			items = append(items, migrateItem{path: filepath.Join(dir, e.Name()), key: key})
		}
	}
	sort.Slice(items, func(i, j int) bool { return items[i].key < items[j].key })
	return items, ignored, nil
}
