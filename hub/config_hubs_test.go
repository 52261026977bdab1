package main

import (
	"io"
	"strings"
	"testing"
	"time"
)

func TestParseHubsConfig(t *testing.T) {
	env := map[string]string{"HUB_ADDR": "0.0.0.0:9000"}
	getenv := func(k string) string { return env[k] }
	c, err := parseConfig(nil, getenv, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Hubs.AdvertiseURL != "http://127.0.0.1:9000" || c.Hubs.Drain != 20*time.Second || c.Hubs.Artifacts != "" {
		t.Errorf("defaults: %+v", c.Hubs)
	}
	env["HUB_ADVERTISE_URL"], env["HUB_DRAIN_SECONDS"], env["HUB_ARTIFACTS"] = "http://10.0.0.5:8080/", "5", "shared/artifacts"
	if c, err = parseConfig(nil, getenv, io.Discard); err != nil {
		t.Fatal(err)
	}
	if c.Hubs.AdvertiseURL != "http://10.0.0.5:8080" || c.Hubs.Drain != 5*time.Second || !strings.HasSuffix(c.Hubs.Artifacts, "/shared/artifacts") ||
		!strings.HasPrefix(c.Hubs.Artifacts, "/") {
		t.Errorf("set: %+v", c.Hubs)
	}
	for k, v := range map[string]string{"HUB_ADVERTISE_URL": "10.0.0.5:8080", "HUB_DRAIN_SECONDS": "0", "HUB_S3_ENDPOINT": "http://127.0.0.1:9"} {
		bad := map[string]string{"HUB_ARTIFACTS": "a", k: v}
		if k == "HUB_S3_ENDPOINT" {
			bad["HUB_S3_BUCKET"], bad["HUB_S3_ACCESS_KEY"], bad["HUB_S3_SECRET_KEY"] = "ta-bucket", "key", "secret"
		}
		if _, err := parseConfig(nil, func(k string) string { return bad[k] }, io.Discard); err == nil || !strings.Contains(err.Error(), strings.Split(k, "=")[0]) {
			t.Errorf("%s=%s: %v", k, v, err)
		}
	}
}
