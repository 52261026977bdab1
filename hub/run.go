package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/testautomation/ta/hub/api"
	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/audit"
	"github.com/testautomation/ta/hub/auth"
	"github.com/testautomation/ta/hub/dispatch"
	"github.com/testautomation/ta/hub/downloads"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/language"
	"github.com/testautomation/ta/hub/metrics"
	"github.com/testautomation/ta/hub/netlimit"
	"github.com/testautomation/ta/hub/pgcluster"
	"github.com/testautomation/ta/hub/retention"
	"github.com/testautomation/ta/hub/secretbox"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/hub/webhooks"
	"github.com/testautomation/ta/web"
)

// run starts the hub and blocks until ctx ends, then shuts down gracefully:
// in-flight requests finish, then the private database stops.
func run(ctx context.Context, cfg config, logger *slog.Logger) error {
	dataDir, err := filepath.Abs(cfg.DataDir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dataDir, 0o711); err != nil {
		return fmt.Errorf("data folder: %w", err)
	}
	unlock, err := lockDataDir(dataDir)
	if err != nil {
		return err
	}
	defer unlock()
	pool, closeDB, err := openDatabase(ctx, cfg, dataDir, logger)
	if err != nil {
		return err
	}
	defer closeDB()
	if err := store.Migrate(ctx, pool); err != nil {
		return err
	}
	st := store.New(pool)
	if err := bootstrapAdmin(ctx, st, cfg, logger); err != nil {
		return err
	}
	srv, hub, handler, err := services(cfg, st, dataDir, logger)
	if err != nil {
		return err
	}
	if err := checkSecretKey(ctx, st, srv.Secrets); err != nil {
		return err
	}
	go hub.Run(ctx)
	go srv.Authoring().Run(ctx)
	go srv.RunSchedules(ctx, api.ScheduleInterval) // every hub looks; each due time starts once (docs/schedules.md)
	go srv.Downloads.Warm()                        // the first visitor of the Agents page need not wait for them
	hooks := webhooks.New(webhooks.Config{Store: st, Secrets: srv.Secrets, Logger: logger, BaseURL: cfg.BaseURL})
	hooksDone := make(chan struct{})
	hooksCtx, stopHooks := context.WithCancel(ctx)
	go func() { hooks.Run(hooksCtx); close(hooksDone) }()
	defer func() { stopHooks(); <-hooksDone }() // before the database closes
	cfg.Limits = fitFileLimit(cfg.Limits, logger)
	httpSrv, ln, err := listen(cfg, handler, logger)
	if err != nil {
		return err
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- httpSrv.Serve(ln) }()
	go sweepSessions(ctx, st, srv, logger)
	go retention.New(cfg.Retention, st, srv.Artifacts, logger).Run(ctx) // once across hubs (docs/retention.md)
	if cfg.Pprof != "" {
		go servePprof(ctx, cfg.Pprof, logger)
	}
	announce(ctx, st, cfg, logger)

	select {
	case err := <-serveErr:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	drain(hub, srv, httpSrv, cfg.Hubs.Drain, logger)
	srv.Wait()
	return nil
}

// services builds the dispatcher, the API and the hub's whole HTTP handler
// (API, health check, web application) over the store.
func services(cfg config, st *store.Store, dataDir string, logger *slog.Logger) (*api.Server, *dispatch.Hub, http.Handler, error) {
	box, err := secretbox.Load(dataDir, cfg.SecretKey)
	if err != nil {
		return nil, nil, nil, err
	}
	arts, err := openArtifacts(cfg.S3, dataDir) // config_s3.go
	if err != nil {
		return nil, nil, nil, err
	}
	if cfg.Hubs.Artifacts != "" {
		arts = artifacts.Dir{Root: cfg.Hubs.Artifacts} // shared with the other hubs of this machine (docs/several-hubs.md)
	}
	dl := &downloads.Dir{Path: cmp.Or(cfg.Downloads, filepath.Join(dataDir, "downloads")), HubURL: cfg.BaseURL,
		Cache: filepath.Join(dataDir, "downloads-served"), Logger: logger}
	m := metrics.New()
	hub := dispatch.New(dispatch.Config{Store: st, Artifacts: arts, Logger: logger, BaseURL: cfg.BaseURL, Secrets: box,
		Latest: dl.Latest, Metrics: m, HubURL: cfg.Hubs.AdvertiseURL})
	srv, err := api.New(api.Config{
		Store: st, Logger: logger, Audit: audit.Open(filepath.Join(dataDir, "audit.log")),
		BaseURL: cfg.BaseURL, Origin: cfg.Origin, Hasher: auth.DefaultHasher, Secrets: box, Dispatch: hub, Artifacts: arts,
		Language:  language.New(cfg.LLM, logger),
		Downloads: dl,
		Metrics:   m, MetricsAllow: cfg.MetricsAllow,
		RegisterPerAddress: cfg.RegisterLimit,
		FileQuota:          int64(cfg.FilesMB) << 20,
	})
	if err != nil {
		return nil, nil, nil, err
	}
	app, err := web.NewHandler(web.Dist())
	if err != nil {
		return nil, nil, nil, fmt.Errorf("web application: %w", err)
	}
	if app.ImageOrigin, err = imageOrigin(arts); err != nil { // config_s3.go
		return nil, nil, nil, err
	}
	if !app.Built() {
		logger.Warn("this hub was built before the web application: / explains how to build it (make run does)")
	}
	return srv, hub, srv.Handler(app), nil
}

// listen opens the hub's address and builds its HTTP server, both within
// cfg.Limits (netlimit): caps on connections, time limits on slow clients.
// run and its tests start the hub's server this way.
func listen(cfg config, h http.Handler, logger *slog.Logger) (*http.Server, net.Listener, error) {
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return nil, nil, fmt.Errorf("listen: %w", err)
	}
	srv := cfg.Limits.Server(h, slog.NewLogLogger(logger.Handler(), slog.LevelWarn))
	return srv, cfg.Limits.Listener(ln, logger), nil
}

// fitFileLimit raises the open-file limit as far as allowed and keeps the
// connection cap under it, so that the cap, not the process, is what a
// flood of connections runs into.
func fitFileLimit(l netlimit.Limits, logger *slog.Logger) netlimit.Limits {
	files, err := netlimit.RaiseFileLimit()
	if err != nil {
		logger.Warn("could not raise the open-file limit", "limit", files, "err", err)
	}
	if files == 0 {
		return l
	}
	wanted := l.MaxConns
	if l.FitFiles(files, fileReserve) {
		logger.Warn("HUB_MAX_CONNS lowered to fit the open-file limit", "wanted", wanted, "maxConns", l.MaxConns, "openFileLimit", files)
	}
	logger.Info("connection limits", "openFileLimit", files, "maxConns", l.MaxConns, "maxConnsPerAddress", l.MaxConnsPerAddr)
	return l
}

// fileReserve is how many open files the hub keeps for itself beyond its
// connections: the database pool, artifacts, logs.
const fileReserve = 256

// lockDataDir makes sure one hub at a time uses a data folder: a second one
// would take over the first one's private database.
func lockDataDir(dir string) (func(), error) {
	path := filepath.Join(dir, "hub.lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("data folder lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		return nil, fmt.Errorf("data folder %s is in use by another hub (pid %s): stop it or choose another --data", dir, strings.TrimSpace(string(holder)))
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return func() { f.Close() }, nil
}

// openDatabase connects to DATABASE_URL, or starts the private cluster in
// <data>/pg. The returned func closes the pool and stops the cluster.
func openDatabase(ctx context.Context, cfg config, dataDir string, logger *slog.Logger) (*pgxpool.Pool, func(), error) {
	url := cfg.DatabaseURL
	stopCluster := func() {}
	if url == "" {
		cluster, err := pgcluster.Start(ctx, pgcluster.Options{Dir: filepath.Join(dataDir, "pg"), Logger: logger, Restart: true})
		if err != nil {
			return nil, nil, fmt.Errorf("private database: %w", err)
		}
		url = cluster.URL("hub")
		stopCluster = func() {
			stopCtx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			if err := cluster.Stop(stopCtx); err != nil {
				logger.Error("stop private database", "err", err)
			} else {
				logger.Info("private database stopped")
			}
		}
		logger.Info("private database running", "dir", filepath.Join(dataDir, "pg"))
		shareDatabase(dataDir, url, logger)
	}
	pool, err := pgxpool.New(ctx, url)
	if err == nil {
		pingCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
		err = pool.Ping(pingCtx)
		cancel()
		if err != nil {
			pool.Close()
		}
	}
	if err != nil {
		stopCluster()
		return nil, nil, fmt.Errorf("database: %w", err)
	}
	return pool, func() { pool.Close(); stopCluster() }, nil
}

// bootstrapAdmin creates the platform administrator named by
// HUB_ADMIN_EMAIL/HUB_ADMIN_PASSWORD if that account does not exist yet, or
// makes the existing account a platform administrator. It never changes an
// existing password.
func bootstrapAdmin(ctx context.Context, st *store.Store, cfg config, logger *slog.Logger) error {
	if cfg.AdminEmail == "" {
		return nil
	}
	u, err := st.UserByEmail(ctx, cfg.AdminEmail)
	if err == nil {
		if u.PlatformAdmin {
			return nil
		}
		// Someone registered this email first: promote the account only if
		// it really is the operator's, proven by the password.
		if ok, _ := auth.Verify(cfg.AdminPassword, u.PasswordHash); !ok {
			return fmt.Errorf("HUB_ADMIN_EMAIL %s belongs to an existing account whose password is not HUB_ADMIN_PASSWORD: refusing to make it a platform administrator", u.Email)
		}
		logger.Info("bootstrap: made existing account a platform administrator", "email", u.Email)
		return st.SetPlatformAdmin(ctx, u.ID)
	}
	if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if len([]rune(cfg.AdminPassword)) < 10 {
		return fmt.Errorf("HUB_ADMIN_PASSWORD must be at least 10 characters")
	}
	hash, err := auth.DefaultHasher.Hash(cfg.AdminPassword)
	if err != nil {
		return err
	}
	_, err = st.CreateUser(ctx, store.NewUser{ID: ids.New(ids.User), Email: cfg.AdminEmail, Name: "Administrator", PasswordHash: hash, PlatformAdmin: true})
	if err == nil {
		logger.Info("bootstrap: platform administrator created", "email", cfg.AdminEmail)
	}
	return err
}

// announce tells the person who started the hub where it is and how to sign in.
func announce(ctx context.Context, st *store.Store, cfg config, logger *slog.Logger) {
	how := "open it in a browser and create an account: the first one becomes platform administrator"
	if cfg.AdminEmail != "" {
		how = "open it in a browser and sign in as " + cfg.AdminEmail + " with HUB_ADMIN_PASSWORD, or create an account"
	} else if users, err := st.ListUsers(ctx); err == nil && len(users) > 0 {
		how = "open it in a browser and sign in, or create an account"
	}
	logger.Info("hub ready", "url", cfg.BaseURL, "listen", cfg.Addr, "sign-in", how)
	// Requests addressed to other host names are refused (api/host.go).
	if cfg.Origin == "" {
		logger.Warn("HUB_BASE_URL not set: only requests addressed to localhost or an IP address are accepted (a guard against DNS rebinding); " +
			"set HUB_BASE_URL=https://<name> to serve the hub under a host name")
	} else {
		logger.Info("requests are accepted when addressed to HUB_BASE_URL's host, localhost or an IP address", "baseURL", cfg.BaseURL)
	}
	fmt.Fprintf(os.Stderr, "\n  Hub running at %s\n  %s\n\n", cfg.BaseURL, how)
}

// sweepSessions deletes expired sessions hourly.
func sweepSessions(ctx context.Context, st *store.Store, srv *api.Server, logger *slog.Logger) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		if err := st.PruneAuth(ctx, time.Now().Add(-24*time.Hour)); err != nil && ctx.Err() == nil {
			logger.Warn("prune sign-in failures and reset links", "err", err)
		}
		if n, err := st.DeleteExpiredSessions(ctx, time.Now(), srv.SessionIdle); err != nil && ctx.Err() == nil {
			logger.Warn("sweep sessions", "err", err)
		} else if n > 0 {
			logger.Info("expired sessions removed", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
