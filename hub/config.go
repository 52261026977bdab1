package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/mail"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/testautomation/ta/hub/language"
	"github.com/testautomation/ta/hub/metrics"
	"github.com/testautomation/ta/hub/netlimit"
	"github.com/testautomation/ta/hub/retention"
)

// config is the hub's configuration: flags win over environment variables.
type config struct {
	Addr          string
	DataDir       string
	DatabaseURL   string
	BaseURL       string
	Origin        string // HUB_BASE_URL when set: the only origin whose pages may change things; else each request's Host
	AdminEmail    string
	AdminPassword string
	LogFormat     string
	SecretKey     string // HUB_SECRET_KEY: encrypts secrets at rest; else <data>/secret.key
	Limits        netlimit.Limits
	RegisterLimit int             // HUB_REGISTER_PER_ADDR: accounts registered per client address per hour; 0: the API's default
	LLM           language.Config // HUB_LLM_*: drafting steps from plain language; off without a model
	Downloads     string          // HUB_DOWNLOADS: the agent installers served; else <data>/downloads
	Pprof         string          // HUB_PPROF: address of a listener serving Go's profiles; off when empty
	MetricsAllow  []netip.Prefix  // HUB_METRICS_ALLOW: addresses that may read /metrics without a token
	FilesMB       int             // HUB_FILES_PER_PROJECT_MB: MiB of project files one project may keep
	Hubs          hubsConfig      // HUB_ADVERTISE_URL, HUB_DRAIN_SECONDS: several hubs on one database
	S3            s3Config        // HUB_S3_*: artifacts in a bucket (config_s3.go); else <data>/artifacts

	Retention retention.Policy // HUB_RETAIN_*: config_retention.go
}

func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	envOr := func(key, def string) string {
		if v := getenv(key); v != "" {
			return v
		}
		return def
	}
	var c config
	fs := flag.NewFlagSet("hub", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.Addr, "addr", envOr("HUB_ADDR", "127.0.0.1:8080"), "listen address (HUB_ADDR)")
	fs.StringVar(&c.DataDir, "data", envOr("HUB_DATA", "./data"), "data folder: private database, audit log, artifacts (HUB_DATA)")
	fs.StringVar(&c.LogFormat, "log-format", envOr("HUB_LOG_FORMAT", "text"), "log format: text or json (HUB_LOG_FORMAT)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: hub [flags]\n       hub migrate-artifacts [--data folder]   (docs/object-storage.md)\n\nEnvironment: DATABASE_URL, HUB_BASE_URL, HUB_ADMIN_EMAIL, HUB_ADMIN_PASSWORD, HUB_SECRET_KEY, HUB_MAX_CONNS, HUB_MAX_CONNS_PER_ADDR, HUB_REGISTER_PER_ADDR, HUB_LLM_BASE_URL, HUB_LLM_API_KEY, HUB_LLM_MODEL, HUB_LLM_TIMEOUT, HUB_LLM_PER_MINUTE, HUB_DOWNLOADS, HUB_PPROF, HUB_METRICS_ALLOW, HUB_FILES_PER_PROJECT_MB, HUB_S3_ENDPOINT, HUB_S3_BUCKET, HUB_S3_ACCESS_KEY, HUB_S3_SECRET_KEY, HUB_S3_REGION, HUB_S3_PREFIX, HUB_S3_PRESIGN, HUB_RETAIN_RUNS_DAYS, HUB_RETAIN_FAILED_DAYS, HUB_RETAIN_RUN_ROWS_DAYS, HUB_ADVERTISE_URL, HUB_DRAIN_SECONDS, HUB_ARTIFACTS (see README.md)\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return c, fmt.Errorf("--log-format must be text or json, not %q", c.LogFormat)
	}
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		return c, fmt.Errorf("--addr %q: %w", c.Addr, err)
	}
	c.DatabaseURL = getenv("DATABASE_URL")
	c.SecretKey = getenv("HUB_SECRET_KEY")
	c.AdminEmail = strings.ToLower(strings.TrimSpace(getenv("HUB_ADMIN_EMAIL")))
	if a, err := mail.ParseAddress(c.AdminEmail); c.AdminEmail != "" && (err != nil || a.Address != c.AdminEmail) {
		return c, fmt.Errorf("HUB_ADMIN_EMAIL %q is not an email address like admin@example.com", c.AdminEmail)
	}
	c.AdminPassword = getenv("HUB_ADMIN_PASSWORD")
	if (c.AdminEmail == "") != (c.AdminPassword == "") {
		return c, fmt.Errorf("set both HUB_ADMIN_EMAIL and HUB_ADMIN_PASSWORD, or neither")
	}
	c.BaseURL = strings.TrimRight(getenv("HUB_BASE_URL"), "/")
	if c.BaseURL == "" {
		c.BaseURL = "http://" + defaultHost(c.Addr)
	} else if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c, fmt.Errorf("HUB_BASE_URL %q is not an address like https://tests.example.com", c.BaseURL)
	} else {
		c.Origin = c.BaseURL
	}
	c.LLM = language.Config{BaseURL: strings.TrimSpace(getenv("HUB_LLM_BASE_URL")), APIKey: strings.TrimSpace(getenv("HUB_LLM_API_KEY")),
		Model: strings.TrimSpace(getenv("HUB_LLM_MODEL"))}
	if b := c.LLM.BaseURL; b != "" {
		if u, err := url.Parse(b); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return c, fmt.Errorf("HUB_LLM_BASE_URL %q is not an address like https://api.openai.com/v1", b)
		}
	}
	if (c.LLM.BaseURL != "" || c.LLM.APIKey != "") && c.LLM.Model == "" {
		return c, fmt.Errorf("HUB_LLM_MODEL is not set: name the model to draft steps with (for example gpt-4o-mini, or llama3.1 on Ollama)")
	}
	timeout := 0
	if err := intEnv(getenv, "HUB_LLM_TIMEOUT", 1, &timeout); err != nil {
		return c, err
	}
	c.LLM.Timeout = time.Duration(timeout) * time.Second
	if err := intEnv(getenv, "HUB_LLM_PER_MINUTE", 1, &c.LLM.PerMinute); err != nil {
		return c, err
	}
	c.Downloads = strings.TrimSpace(getenv("HUB_DOWNLOADS"))
	if c.Pprof = strings.TrimSpace(getenv("HUB_PPROF")); c.Pprof != "" {
		if _, _, err := net.SplitHostPort(c.Pprof); err != nil {
			return c, fmt.Errorf("HUB_PPROF %q is not an address like 127.0.0.1:6060", c.Pprof)
		}
	}
	allow, err := metrics.ParseAllow(getenv("HUB_METRICS_ALLOW"))
	if err != nil {
		return c, fmt.Errorf("HUB_METRICS_ALLOW: %w", err)
	}
	c.MetricsAllow = allow
	c.Limits = netlimit.Defaults
	if err := intEnv(getenv, "HUB_MAX_CONNS", 1, &c.Limits.MaxConns); err != nil {
		return c, err
	}
	if err := intEnv(getenv, "HUB_MAX_CONNS_PER_ADDR", 0, &c.Limits.MaxConnsPerAddr); err != nil {
		return c, err
	}
	if err := intEnv(getenv, "HUB_REGISTER_PER_ADDR", 1, &c.RegisterLimit); err != nil {
		return c, err
	}
	c.FilesMB = 1024
	if err := intEnv(getenv, "HUB_FILES_PER_PROJECT_MB", 1, &c.FilesMB); err != nil {
		return c, err
	}
	if c.Hubs, err = parseHubsConfig(getenv, c.Addr); err != nil {
		return c, err
	}
	if c.S3, err = parseS3(getenv); err != nil {
		return c, err
	}
	if c.S3.Endpoint != "" && c.Hubs.Artifacts != "" {
		return c, fmt.Errorf("HUB_ARTIFACTS and HUB_S3_ENDPOINT are both set: artifacts go to a folder or to a bucket, not both")
	}
	if err := parseRetention(getenv, &c); err != nil {
		return c, err
	}
	return c, nil
}

// intEnv reads a whole number of at least floor from the variable key into
// dst, leaving dst alone when the variable is not set.
func intEnv(getenv func(string) string, key string, floor int, dst *int) error {
	v := strings.TrimSpace(getenv(key))
	if v == "" {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < floor {
		return fmt.Errorf("%s %q must be a whole number of at least %d", key, v, floor)
	}
	*dst = n
	return nil
}

// defaultHost turns a listen address into one a browser can open.
func defaultHost(addr string) string {
	host, port, _ := net.SplitHostPort(addr)
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}
