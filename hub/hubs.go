package main

// Several hubs on one database (docs/several-hubs.md): what the hub
// process does for it at start and at stop.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/testautomation/ta/hub/api"
	"github.com/testautomation/ta/hub/dispatch"
	"github.com/testautomation/ta/hub/secretbox"
	"github.com/testautomation/ta/hub/store"
)

// databaseURLFile is where a hub running the private database writes the
// URL a second hub on this machine connects with.
const databaseURLFile = "database-url"

// shareDatabase writes <data>/database-url (owner-only: it reaches the
// database without a password) and says how to start a second hub.
func shareDatabase(dataDir, url string, logger *slog.Logger) {
	path := filepath.Join(dataDir, databaseURLFile)
	if err := os.WriteFile(path, []byte(url+"\n"), 0o600); err != nil {
		logger.Warn("could not write the database URL for a second hub", "path", path, "err", err)
		return
	}
	how := "mkdir -p data2 && cp " + filepath.Join(dataDir, secretbox.KeyFile) + " data2/ && DATABASE_URL=\"$(cat " + path + ")\" HUB_ARTIFACTS=" +
		filepath.Join(dataDir, "artifacts") + " hub --addr 127.0.0.1:8081 --data data2"
	logger.Info("a second hub on this machine can share this hub's database: give it this hub's secret key file, the URL and the artifacts folder",
		"how", how)
	fmt.Fprintf(os.Stderr, "\n  A second hub on this machine shares this one's database (README: Running several hubs):\n  %s\n", how)
}

// keyCheckText is sealed with the first hub's secret key and stored.
var keyCheckText = []byte("ta hub secret key check")

// checkSecretKey refuses to start a hub whose secret key is not the one
// the database's secrets were sealed with: it could not read them, and
// every run using a secret would fail on it.
func checkSecretKey(ctx context.Context, st *store.Store, box *secretbox.Box) error {
	sealed, nonce, err := box.Seal(keyCheckText, []byte("key-check"))
	if err != nil {
		return err
	}
	storedSealed, storedNonce, err := st.KeyCheck(ctx, sealed, nonce)
	if err != nil {
		return fmt.Errorf("secret key check: %w", err)
	}
	plain, err := box.Open(storedSealed, storedNonce, []byte("key-check"))
	if err != nil || !bytes.Equal(plain, keyCheckText) {
		return errors.New("this hub's secret key is not the one the database's secrets were sealed with: " +
			"every hub sharing a database needs the same HUB_SECRET_KEY, or the same " + secretbox.KeyFile + " in its data folder (copy the first hub's)")
	}
	return nil
}

// drain stops the hub gracefully within d: agents go to other hubs,
// streams end (browsers reconnect elsewhere), requests in flight finish.
func drain(hub *dispatch.Hub, srv *api.Server, httpSrv *http.Server, d time.Duration, logger *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	start := time.Now()
	logger.Info("stopping: sending agents to other hubs, then finishing requests", "within", d)
	hub.Drain(ctx)
	srv.EndStreams()
	if err := httpSrv.Shutdown(ctx); err != nil {
		logger.Warn("shutdown", "err", err)
	}
	logger.Info("stopped", "took", time.Since(start).Round(time.Millisecond))
}
