package client

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/testautomation/ta/protocol"
)

// maxFile bounds a project file the agent takes (the hub's limit).
const maxFile = 25 << 20

// fileIDRe is a project file id; nothing else becomes part of a path.
var fileIDRe = regexp.MustCompile(`^fil_[a-z0-9]{1,64}$`)

// runFiles fetches the project files a run's upload steps name (GET
// /api/agent/files/:id?run= or ?session=, with the agent's token) into a folder only
// this user can read, made on the first file and removed when the run
// ends. Each file lies in a folder named by its id, under its name as the
// hub gives it, cleaned to one plain name: the page sees that name.
type runFiles struct {
	c *Client
	// for_ is what the files are read for: "run" or "session" (the
	// editor's live session), and id that run's or session's id.
	for_, id string

	mu    sync.Mutex        // guards the fields below; held while a file downloads
	dir   string            // "" until the first file
	paths map[string]string // file id -> local path
}

// FetchFile is runner.FileFetcher: the local path of one of the run's
// files, fetched once per run.
func (f *runFiles) FetchFile(ctx context.Context, id string) (string, error) {
	if !fileIDRe.MatchString(id) {
		return "", fmt.Errorf("%q is not a project file id", id)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if p, ok := f.paths[id]; ok {
		return p, nil
	}
	if f.dir == "" {
		dir, err := os.MkdirTemp("", "ta-files-") // 0700
		if err != nil {
			return "", fmt.Errorf("no folder for the run's files: %w", err)
		}
		f.dir, f.paths = dir, map[string]string{}
	}
	p, err := f.download(ctx, id)
	if err != nil {
		return "", err
	}
	f.paths[id] = p
	return p, nil
}

// remove deletes the run's files.
func (f *runFiles) remove() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dir != "" {
		if err := os.RemoveAll(f.dir); err != nil {
			f.c.log.Warn("could not remove a run's files", f.for_, f.id, "err", err)
		}
		f.dir, f.paths = "", nil
	}
}

var fileClient = &http.Client{Timeout: 5 * time.Minute}

func (f *runFiles) download(ctx context.Context, id string) (string, error) {
	token := f.c.Token()
	if token == "" {
		return "", errors.New("the agent has no token to fetch the file " + id + " with")
	}
	u := strings.TrimSuffix(f.c.httpHub(), "/") + "/api/agent/files/" + id + "?" + f.for_ + "=" + url.QueryEscape(f.id)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Agent "+token)
	resp, err := fileClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("could not fetch the file %s from the hub: %w", id, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fetchRefused(id, resp)
	}
	folder := filepath.Join(f.dir, id)
	_ = os.RemoveAll(folder) // what a failed attempt left
	if err := os.Mkdir(folder, 0o700); err != nil {
		return "", err
	}
	p, err := f.save(folder, id, resp)
	if err != nil {
		_ = os.RemoveAll(folder)
	}
	return p, err
}

// save writes the answer's file into folder, checked against the hub's
// size limit and checksum.
func (f *runFiles) save(folder, id string, resp *http.Response) (string, error) {
	_, params, _ := mime.ParseMediaType(resp.Header.Get("Content-Disposition"))
	p := filepath.Join(folder, safeFileName(params["filename"], id))
	out, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, h), io.LimitReader(resp.Body, maxFile+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		return "", fmt.Errorf("could not fetch the file %s from the hub: %w", id, err)
	case n > maxFile:
		return "", fmt.Errorf("the file %s is larger than 25 MiB", id)
	case resp.Header.Get("X-File-Sha256") != "" && resp.Header.Get("X-File-Sha256") != hex.EncodeToString(h.Sum(nil)):
		return "", fmt.Errorf("the file %s arrived damaged (its checksum differs)", id)
	}
	return p, nil
}

// fetchRefused turns the hub's refusal into the step's error.
func fetchRefused(id string, resp *http.Response) error {
	var body struct{ Error, Code string }
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	_ = json.Unmarshal(data, &body)
	if body.Code == "file_gone" {
		return fmt.Errorf("the file %s is gone: it was deleted from the project's files; upload it again and choose it in the step", id)
	}
	if body.Error == "" {
		body.Error = resp.Status
	}
	return fmt.Errorf("the hub refused the file %s: %s", id, body.Error)
}

// safeFileName is name as one plain file name that every OS can make:
// no folders, no control characters, none of Windows' forbidden
// characters (each becomes _), no trailing dots or spaces, not one of
// Windows' device names (those get a leading _), not . or ..; the id when
// nothing usable is left. The hub refuses such names now; files uploaded
// before it did still reach pages, under a sensible name.
func safeFileName(name, id string) string {
	name = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || strings.ContainsRune(protocol.WindowsForbidden, r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return '_'
		}
		return r
	}, name)
	name = strings.TrimRight(strings.TrimSpace(name), ". ")
	if protocol.WindowsReserved(name) {
		name = "_" + name
	}
	if !utf8.ValidString(name) || name == "" || len(name) > 255 {
		return id
	}
	return name
}
