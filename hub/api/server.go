// Package api is the hub's JSON REST API under /api: one route table
// (routes), one file per resource, one error writer (errors.go), the central
// session check (session.go) and project scoping with audit (scope.go).
package api

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/audit"
	"github.com/testautomation/ta/hub/auth"
	"github.com/testautomation/ta/hub/authoring"
	"github.com/testautomation/ta/hub/dispatch"
	"github.com/testautomation/ta/hub/downloads"
	"github.com/testautomation/ta/hub/language"
	"github.com/testautomation/ta/hub/metrics"
	"github.com/testautomation/ta/hub/store"
)

// Config holds the server's dependencies and policies.
type Config struct {
	Store   *store.Store
	Logger  *slog.Logger
	Audit   *audit.Log
	BaseURL string // public address used in links, without a trailing slash
	// Origin is the origin browsers open the hub at ("https://tests.example.com"),
	// set when HUB_BASE_URL is configured; empty: each request's own Host.
	// Changes from pages of any other origin are refused (csrf.go).
	Origin  string
	Hasher  auth.Hasher
	Secrets *SecretBox
	Now     func() time.Time // nil: time.Now

	Dispatch *dispatch.Hub // runs and agents
	// Language drafts steps from plain language; nil when no model is
	// configured (POST /api/language/generate answers 503).
	Language  *language.Generator
	Artifacts artifacts.Store // run artifacts
	// FileQuota is the bytes one project's files may take
	// (HUB_FILES_PER_PROJECT_MB); 0: DefaultFileQuota, 1 GiB.
	FileQuota int64
	// Downloads are the agent installers GET /api/agent/download serves;
	// nil: none.
	Downloads *downloads.Dir

	SessionIdle time.Duration // default 7 days
	SessionMax  time.Duration // default 30 days
	ResetTTL    time.Duration // default 1 hour

	LoginWindow     time.Duration // default 15 minutes
	LoginPerEmail   int           // failures per email in the window; default 5
	LoginPerAddress int           // failures per client address; default 20

	// Limits on registrations and reset links (limits.go).
	RegisterPerAddress int // accounts registered per client address per hour; default 5
	ResetPerAddress    int // reset requests per client address per 15 minutes; default 10
	ResetPerEmail      int // reset links written per account per hour; default 3

	// Metrics is served at /metrics and times every request; nil: none.
	Metrics *metrics.Metrics
	// MetricsAllow are the client addresses that may read /metrics
	// without a token (HUB_METRICS_ALLOW).
	MetricsAllow []netip.Prefix
}

// Server serves the API.
type Server struct {
	Config
	store *store.Store
	log   *slog.Logger
	// dummyHash is verified against when an email is unknown, so a failed
	// sign-in takes as long whether or not the account exists.
	dummyHash string
	scryptSem chan struct{} // bounds concurrent scrypt work (memory)
	schedWake chan struct{} // wakes this hub's scheduler loop (schedules_fire.go)
	pixelSem  chan struct{} // bounds concurrent screenshot comparisons (memory; runs_compare_pixels.go)
	// background counts work that outlives its request (reset links).
	background sync.WaitGroup
	pairs      pairGuard
	origin     string // Config.Origin normalized; "" when not configured
	baseHost   string // origin's host name: the one name besides loopback ones the hub answers to (host.go)
	// authoring keeps recording and picker sessions (nil without Dispatch).
	authoring *authoring.Manager
	// sseSubscribers counts live run event streams (a metrics gauge).
	sseSubscribers atomic.Int64
	// streams are the open event streams, ended when their caller loses
	// access (streams.go).
	streams streamGuard
}

// Authoring is the server's recording and picker sessions; the hub runs
// its sweeper.
func (s *Server) Authoring() *authoring.Manager { return s.authoring }

// Wait blocks until background work started by requests has finished; call
// it after the HTTP server has shut down, before closing the database.
func (s *Server) Wait() { s.background.Wait() }

// New fills in defaults and returns a Server.
func New(cfg Config) (*Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Hasher.N == 0 {
		cfg.Hasher = auth.DefaultHasher
	}
	setDefault(&cfg.SessionIdle, 7*24*time.Hour)
	setDefault(&cfg.SessionMax, 30*24*time.Hour)
	setDefault(&cfg.ResetTTL, time.Hour)
	setDefault(&cfg.LoginWindow, 15*time.Minute)
	if cfg.LoginPerEmail == 0 {
		cfg.LoginPerEmail = 5
	}
	if cfg.LoginPerAddress == 0 {
		cfg.LoginPerAddress = 20
	}
	if cfg.RegisterPerAddress == 0 {
		cfg.RegisterPerAddress = 5
	}
	if cfg.ResetPerAddress == 0 {
		cfg.ResetPerAddress = 10
	}
	if cfg.ResetPerEmail == 0 {
		cfg.ResetPerEmail = 3
	}
	origin := normalOrigin(cfg.Origin)
	if cfg.Origin != "" && origin == "" {
		return nil, fmt.Errorf("origin %q is not an http or https address like https://tests.example.com", cfg.Origin)
	}
	dummy, err := cfg.Hasher.Hash("no account has this password")
	if err != nil {
		return nil, err
	}
	s := &Server{Config: cfg, store: cfg.Store, log: cfg.Logger, dummyHash: dummy, origin: origin, baseHost: originHost(origin),
		scryptSem: make(chan struct{}, max(2, runtime.NumCPU())), pixelSem: make(chan struct{}, 2), schedWake: make(chan struct{}, 1), pairs: pairGuard{misses: map[string][]time.Time{}}}
	cfg.Metrics.Gauge("ta_sse_subscribers", "Live run event streams (server-sent events) now.",
		func() float64 { return float64(s.sseSubscribers.Load()) })
	if cfg.Dispatch != nil {
		s.authoring = authoring.New(authoring.Config{Relay: cfg.Dispatch, Logger: cfg.Logger, Now: cfg.Now})
		cfg.Dispatch.SetAuthoring(s.authoring)
		if cfg.Dispatch.APITokens == nil {
			cfg.Dispatch.APITokens = s.agentAPIToken
		}
	}
	return s, nil
}

func setDefault(d *time.Duration, v time.Duration) {
	if *d == 0 {
		*d = v
	}
}

// agentConnect is the agents' WebSocket; they authenticate in their first
// message (publicRoutes lets the upgrade through without a session).
func (s *Server) agentConnect(w http.ResponseWriter, r *http.Request) { s.Dispatch.ServeAgent(w, r) }

// Handler returns the hub's HTTP handler: /healthz, /metrics, the API
// under /api and whatever serves the rest (the web application), each only
// for requests addressed to a host the hub answers to (ownHost).
func (s *Server) Handler(rest http.Handler) http.Handler {
	r := chi.NewRouter()
	r.Use(s.recoverer, s.Metrics.HTTP, s.ownHost)
	r.Get("/healthz", s.health)
	r.Get("/metrics", s.serveMetrics)
	r.Route("/api", s.routes)
	if rest != nil {
		r.Handle("/*", rest)
	}
	return r
}

// routes is the API's one route table. Every route passes the cross-site
// check (sameOrigin), then the central session check (authenticate: a
// session cookie or an API token); only publicRoutes are open without one.
func (s *Server) routes(r chi.Router) {
	r.Use(s.sameOrigin, s.authenticate)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := currentUser(r); !ok {
			writeError(w, http.StatusUnauthorized, codeUnauthenticated, "sign in first")
			return
		}
		writeError(w, http.StatusNotFound, codeNotFound, "no such API route")
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, http.StatusMethodNotAllowed, codeMethodNotAllowed, "method not allowed on this route")
	})

	r.Post("/auth/login", s.login)
	r.With(s.sessionOnly).Post("/auth/logout", s.logout)
	r.Get("/auth/session", s.session)
	r.Post("/auth/register", s.register)
	r.Post("/auth/forgot", s.forgot)
	r.Post("/auth/reset", s.reset)
	r.With(s.sessionOnly).Post("/auth/password", s.changePassword)
	r.Get("/context", s.context)
	r.Get("/profile", s.profile)
	r.With(s.sessionOnly).Put("/profile", s.saveProfile)
	r.Get("/roles", s.roles)
	// API tokens are managed only from a signed-in session (tokens.go).
	r.With(s.sessionOnly).Get("/tokens", s.listTokens)
	r.With(s.sessionOnly).Post("/tokens", s.createToken)
	r.With(s.sessionOnly).Delete("/tokens/{id}", s.revokeToken)
	r.Get("/openapi.json", s.openAPI)

	r.Get("/members", s.listAccounts)
	r.Post("/members", s.createAccount)
	r.Delete("/members/{id}", s.deleteAccount)
	r.Get("/storage", s.storage) // platform administrators (storage.go)

	r.Post("/orgs", s.createOrg)
	r.Put("/orgs/{id}", s.renameOrg)
	r.Delete("/orgs/{id}", s.deleteOrg)
	r.Get("/orgs/{id}/members", s.listOrgMembers)
	r.Post("/orgs/{id}/members", s.inviteOrgMember)
	r.Put("/orgs/{id}/members/{userId}", s.setOrgMemberRole)
	r.Delete("/orgs/{id}/members/{userId}", s.removeOrgMember)
	r.Get("/orgs/{id}/projects", s.listOrgProjects)
	r.Post("/orgs/{id}/projects", s.createProject)

	r.Get("/agent", s.listAgents)
	r.Get("/agent/pending", s.pendingAgents)
	r.Get("/agent/download", s.agentDownload)
	r.Get("/agent/download/certificate", s.agentDownloadCertificate)
	r.Delete("/agent/{id}", s.disconnectAgent)
	r.Put("/agent/{id}", s.updateAgent)
	r.With(s.sessionOnly).Post("/agent/{id}/token", s.rotateAgentToken)
	r.Get("/agent/pair/{code}", s.getPairing)
	r.With(s.sessionOnly).Post("/agent/pair/{code}", s.approvePairing)
	r.Get("/agent/connect", s.agentConnect)
	r.Get("/agent/files/{id}", s.agentFile) // the agent's token, not a session (files_agent.go)
	r.Post("/agent/files", s.agentOffer)    // the agent's token: a file chosen while recording (files_offer.go)
	r.Delete("/environments/{id}", s.deleteEnvironment)
	r.Delete("/applications/{id}", s.deleteApplication)
	r.Get("/runs/{id}", s.getRun)
	r.Get("/runs/{id}/events", s.runEvents)
	r.Get("/runs/{id}/artifacts/{name}", s.runArtifact)
	r.Get("/runs/{id}/junit", s.runJUnit)
	r.Get("/runs/{id}/rows/{row}", s.getRunRow)
	r.Get("/runs/{id}/rows/{row}/artifacts/{name}", s.runRowArtifact)
	r.Get("/runs/{id}/rows/{row}/trace", s.getRunRowTrace) // runs_trace.go
	r.Get("/runs/{id}/trace", s.getRunTrace)
	r.Get("/runs/{id}/trace.zip", s.runTraceZip)
	r.Get("/runs/{id}/compare", s.getRunCompare) // runs_compare.go
	r.Get("/runs/{id}/compare/pixels.png", s.runComparePixels)
	r.Post("/runs/{id}/cancel", s.cancelRun)
	r.Get("/batches/{id}", s.getBatch)
	r.Get("/batches/{id}/junit", s.batchJUnit)
	r.Post("/batches/{id}/rerun", s.rerunBatch)

	r.Get("/registry", s.registry)
	r.Post("/script", s.script)
	r.With(s.authorRoute).Get("/record/{id}", s.getRecording)
	r.With(s.authorRoute).Get("/record/{id}/events", s.recordingEvents)
	r.With(s.authorRoute).Post("/record/{id}/stop", s.stopRecording)
	r.With(s.authorRoute).Get("/record/{id}/preview", s.recordingPreview)
	r.With(s.authorRoute).Get("/pick/{id}", s.getPicker)
	r.With(s.authorRoute).Post("/pick/{id}/mode", s.pickMode)
	r.With(s.authorRoute).Post("/pick/{id}/close", s.closePicker)
	r.With(s.authorRoute).Get("/sessions/{id}/view", s.sessionView)
	r.With(s.authorRoute).Post("/sessions/{id}/input", s.sessionInput)
	r.With(s.authorRoute).Post("/sessions/{id}/files/{offerId}", s.answerOffer)
	r.With(s.authorRoute).Get("/sessions/{id}", s.getLive)
	r.With(s.authorRoute).Get("/sessions/{id}/events", s.liveEvents)
	r.With(s.authorRoute).Get("/sessions/{id}/screenshots/{name}", s.liveScreenshot)
	r.With(s.authorRoute).Post("/sessions/{id}/run", s.liveRun)
	r.With(s.authorRoute).Post("/sessions/{id}/close", s.closeLive)
	r.Group(func(r chi.Router) {
		r.Use(s.headerProject) // list and create routes act on x-project-id
		r.With(s.authorRoute).Post("/record/start", s.recordStart)
		r.With(s.authorRoute).Post("/pick/start", s.pickStart)
		r.With(s.authorRoute).Post("/sessions", s.liveStart)
		r.With(s.authorRoute).Post("/scripts/try", s.tryScript)
		r.Get("/dashboard", s.dashboard)
		r.Get("/environments", s.listEnvironments)
		r.Post("/environments", s.saveEnvironment)
		r.Get("/secrets", s.listSecrets)
		r.Post("/secrets", s.setSecret)
		r.Get("/applications", s.listApplications)
		r.Post("/applications", s.saveApplication)
		r.Get("/runs", s.listRuns)
		r.Post("/runs", s.startRun)
		r.Get("/tests", s.listTests)
		r.Post("/tests", s.createTest)
		r.Post("/tests/import", s.importTests)
		r.Get("/suites", s.listSuites)
		r.Post("/language/generate", s.generateSteps)
		r.Get("/language/examples", s.listExamples)
		r.Post("/language/examples", s.addExample)
		r.Get("/components", s.listComponents)
		r.Post("/components", s.createComponent)
		r.Post("/suites", s.addSuite)
		r.Put("/suites/{name}", s.renameSuite)
		r.Delete("/suites/{name}", s.deleteSuite)
		r.Get("/settings", s.settings)
		r.Post("/settings", s.saveSettings)
		r.Get("/test-data", s.listDataSets)
		r.Post("/test-data", s.saveDataSet)
		r.Get("/data-pools", s.listDataPools)
		r.Post("/data-pools", s.saveDataPool)
		r.Get("/webhooks", s.listWebhooks)
		r.Post("/webhooks", s.saveWebhook)
		r.Get("/schedules", s.listSchedules) // schedules.go
		r.Post("/schedules", s.createSchedule)
		r.Post("/schedules/preview", s.previewSchedule)
		r.Get("/files", s.listFiles)
		r.Post("/files", s.uploadFile)
	})
	r.Get("/files/{id}", s.getFile)
	r.Get("/files/{id}/content", s.fileContent)
	r.Delete("/files/{id}", s.deleteFile)
	r.Delete("/webhooks/{id}", s.deleteWebhook)
	r.Get("/schedules/{id}", s.getSchedule)
	r.Put("/schedules/{id}", s.updateSchedule)
	r.Delete("/schedules/{id}", s.deleteSchedule)
	r.Get("/webhooks/{id}/deliveries", s.webhookDeliveries)
	r.Post("/webhooks/{id}/secret", s.rotateWebhookSecret)
	r.Post("/webhooks/{id}/test", s.testWebhook)
	r.Delete("/language/examples/{id}", s.deleteExample)
	r.Get("/components/{id}", s.getComponent)
	r.Put("/components/{id}", s.updateComponent)
	r.Delete("/components/{id}", s.deleteComponent)
	r.Post("/components/{id}/versions", s.publishComponent)
	r.Get("/components/{id}/versions/{version}", s.getComponentVersion)
	r.Get("/components/{id}/impact", s.componentImpact)
	r.Post("/components/{id}/upgrade", s.upgradeComponent)
	r.Get("/test-data/{id}", s.getDataSet)
	r.Delete("/test-data/{id}", s.deleteDataSet)
	r.Get("/data-pools/{id}", s.getDataPool)
	r.Delete("/data-pools/{id}", s.deleteDataPool)
	r.Post("/data-pools/{id}/reset", s.resetDataPool)
	r.Get("/tests/{id}", s.getTest)
	r.Put("/tests/{id}", s.saveTest)
	r.Delete("/tests/{id}", s.deleteTest)
	r.Post("/tests/{id}/validate", s.validateTest)
	r.Post("/tests/{id}/revisions", s.revise)
	r.Post("/tests/{id}/duplicate", s.duplicate)
	r.Put("/tests/{id}/sharing", s.share)
	r.Get("/tests/{id}/versions", s.listVersions)
	r.Get("/tests/{id}/versions/{version}", s.getVersion)
	r.Post("/tests/{id}/versions/{version}/restore", s.restore)
	r.Get("/tests/{id}/history", s.testHistory)
	r.Put("/tests/{id}/quarantine", s.quarantine)
	r.Delete("/tests/{id}/quarantine", s.unquarantine)

	r.Put("/projects/{id}", s.renameProject)
	r.Delete("/projects/{id}", s.deleteProject)
	r.Get("/projects/{id}/members", s.listProjectMembers)
	r.Put("/projects/{id}/members/{userId}", s.setProjectMemberRole)
	r.Delete("/projects/{id}/members/{userId}", s.removeProjectMemberRole)
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	if s.Dispatch != nil && s.Dispatch.Draining() {
		// Load balancers stop sending here while it drains.
		writeError(w, http.StatusServiceUnavailable, codeUnavailable, "this hub is stopping")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.store.Pool().Ping(ctx); err != nil {
		s.log.Warn("health check: database does not answer", "err", err)
		writeError(w, http.StatusServiceUnavailable, codeUnavailable, "the database does not answer")
		return
	}
	storage, ok := s.storageHealth(ctx, w) // health_storage.go
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "database": "ok", "storage": storage})
}

// recoverer turns a panic into a logged 500 with the standard error body.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("panic in handler", "method", r.Method, "path", r.URL.Path, "panic", v)
				writeError(w, http.StatusInternalServerError, codeInternal, "internal error; the hub's log has the details")
			}
		}()
		next.ServeHTTP(w, r)
	})
}
