package client

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Run files left behind: an agent removes a run's files folder
// (ta-files-*, see runFiles) when the run ends, but one that crashed or
// was killed leaves it in the temporary folder. Private (0700), yet it
// stays; so at start an agent removes such folders of its user that are
// older than staleFilesAge. Younger ones may be another agent's of the
// same user, running now; folders of other users are theirs.

// staleFilesAge is how long since a run files folder last changed before
// an agent starting takes it for left behind: far longer than runs last.
const staleFilesAge = 24 * time.Hour

// filesDirPrefix names the folders runFiles makes in the temporary folder.
const filesDirPrefix = "ta-files-"

// sweepStaleFiles removes the run files folders in dir that this user
// owns and that have not changed since before now-staleFilesAge, and
// says how many it removed. Failures are logged.
func sweepStaleFiles(dir string, now time.Time, log *slog.Logger) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		log.Warn("could not look for run files left behind", "folder", dir, "err", err)
		return 0
	}
	removed := 0
	for _, e := range entries {
		// A symbolic link is never followed: it is not a folder here.
		if !e.IsDir() || !strings.HasPrefix(e.Name(), filesDirPrefix) {
			continue
		}
		info, err := e.Info() // not following links
		if err != nil || !ownedByMe(info) || now.Sub(info.ModTime()) < staleFilesAge {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if err := os.RemoveAll(p); err != nil {
			log.Warn("could not remove run files left behind", "folder", p, "err", err)
			continue
		}
		removed++
	}
	return removed
}

// sweepStaleFiles removes, once at start, the run files of this user's
// agents that stopped without removing them.
func (c *Client) sweepStaleFiles() {
	dir := os.TempDir()
	if n := sweepStaleFiles(dir, time.Now(), c.log); n > 0 {
		c.log.Info("removed run files left behind by an agent that stopped", "folders", n, "in", dir, "older than", staleFilesAge)
	}
}
