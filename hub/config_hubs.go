package main

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"
)

// Several hubs on one database (docs/several-hubs.md).
type hubsConfig struct {
	// AdvertiseURL is where the other hubs reach this one
	// (HUB_ADVERTISE_URL); default http://<listen address>.
	AdvertiseURL string
	// Drain bounds a graceful stop (HUB_DRAIN_SECONDS): agents are sent to
	// other hubs, streams end, requests finish; default 20 s.
	Drain time.Duration
	// Artifacts is the folder of artifacts without a bucket (HUB_ARTIFACTS;
	// default <data>/artifacts): hubs on one machine, or on one shared
	// file system, share it.
	Artifacts string
}

func parseHubsConfig(getenv func(string) string, addr string) (hubsConfig, error) {
	c := hubsConfig{AdvertiseURL: strings.TrimRight(strings.TrimSpace(getenv("HUB_ADVERTISE_URL")), "/"), Drain: 20 * time.Second}
	if c.AdvertiseURL == "" {
		c.AdvertiseURL = "http://" + defaultHost(addr)
	} else if u, err := url.Parse(c.AdvertiseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c, fmt.Errorf("HUB_ADVERTISE_URL %q is not an address like http://10.0.0.5:8080", c.AdvertiseURL)
	}
	secs := 20
	if err := intEnv(getenv, "HUB_DRAIN_SECONDS", 1, &secs); err != nil {
		return c, err
	}
	c.Drain = time.Duration(secs) * time.Second
	if c.Artifacts = strings.TrimSpace(getenv("HUB_ARTIFACTS")); c.Artifacts != "" {
		abs, err := filepath.Abs(c.Artifacts)
		if err != nil {
			return c, fmt.Errorf("HUB_ARTIFACTS %q: %w", c.Artifacts, err)
		}
		c.Artifacts = abs
	}
	return c, nil
}
