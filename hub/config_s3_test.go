package main

import (
	"io"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/objtest"
)

// TestParseS3: no HUB_S3_* keeps the data folder; the four required ones
// come all or none, and each bad setting stops the hub naming itself.
func TestParseS3(t *testing.T) {
	parse := func(env map[string]string) (config, error) {
		return parseConfig(nil, func(k string) string { return env[k] }, io.Discard)
	}
	c, err := parse(nil)
	if err != nil || c.S3 != (s3Config{}) {
		t.Fatalf("no settings: %+v, %v", c.S3, err)
	}
	if a, err := openArtifacts(c.S3, "/data"); err != nil || a != (artifacts.Dir{Root: "/data/artifacts"}) {
		t.Errorf("no settings store in %#v, %v", a, err)
	}
	full := map[string]string{"HUB_S3_ENDPOINT": "https://s3.eu-west-1.amazonaws.com/", "HUB_S3_BUCKET": "ta-artifacts",
		"HUB_S3_ACCESS_KEY": "AKIA", "HUB_S3_SECRET_KEY": "secret", "HUB_S3_REGION": "eu-west-1", "HUB_S3_PREFIX": "/team/ta/", "HUB_S3_PRESIGN": "1"}
	c, err = parse(full)
	if err != nil {
		t.Fatal(err)
	}
	want := s3Config{S3Config: artifacts.S3Config{Endpoint: "https://s3.eu-west-1.amazonaws.com", Bucket: "ta-artifacts", AccessKey: "AKIA",
		SecretKey: "secret", Region: "eu-west-1", Prefix: "team/ta/"}, Presign: true}
	if c.S3 != want {
		t.Errorf("parsed %+v", c.S3)
	}
	for _, tc := range []struct {
		change map[string]string
		want   string
	}{
		{map[string]string{"HUB_S3_SECRET_KEY": "", "HUB_S3_BUCKET": ""}, "HUB_S3_BUCKET, HUB_S3_SECRET_KEY missing"},
		{map[string]string{"HUB_S3_ENDPOINT": "s3.amazonaws.com"}, "HUB_S3_ENDPOINT"},
		{map[string]string{"HUB_S3_ENDPOINT": "https://minio.example.com/bucket"}, "HUB_S3_ENDPOINT"},
		{map[string]string{"HUB_S3_PREFIX": "a/../b"}, "HUB_S3_PREFIX"},
		{map[string]string{"HUB_S3_BUCKET": "ta"}, `HUB_S3_BUCKET "ta" is not a bucket name`},
		{map[string]string{"HUB_S3_BUCKET": "a bucket"}, "HUB_S3_BUCKET"},
		{map[string]string{"HUB_S3_PREFIX": "a b"}, "HUB_S3_PREFIX"},
		{map[string]string{"HUB_S3_PRESIGN": "yes"}, "HUB_S3_PRESIGN"},
	} {
		env := map[string]string{}
		for k, v := range full {
			env[k] = v
		}
		for k, v := range tc.change {
			env[k] = v
		}
		if _, err := parse(env); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want it to name %s", tc.change, err, tc.want)
		}
	}
	if _, err := parse(map[string]string{"HUB_S3_PRESIGN": "1"}); err == nil || !strings.Contains(err.Error(), "HUB_S3_PRESIGN is set but") {
		t.Errorf("presign alone: %v", err)
	}
}

// TestOpenArtifactsChecksBucket: the hub starts on a bucket that exists,
// and refuses one that does not, naming it.
func TestOpenArtifactsChecksBucket(t *testing.T) {
	b := objtest.Fake(t)
	c := s3Config{S3Config: artifacts.S3Config{Endpoint: b.Endpoint, Bucket: b.Bucket, AccessKey: b.AccessKey, SecretKey: b.SecretKey, Region: b.Region}}
	if a, err := openArtifacts(c, t.TempDir()); err != nil {
		t.Fatal(err)
	} else if _, ok := a.(*artifacts.S3); !ok {
		t.Errorf("stores in %T", a)
	}
	if o, err := imageOrigin(artifacts.Dir{}); o != "" || err != nil {
		t.Errorf("a data folder's image origin: %q, %v", o, err)
	}
	c.Presign = true
	if a, _ := openArtifacts(c, t.TempDir()); a == nil {
		t.Fatal("no store")
	} else if _, ok := a.(artifacts.Presigner); !ok {
		t.Errorf("HUB_S3_PRESIGN=1 gives %T", a)
	} else if o, err := imageOrigin(a); err != nil || o != b.Endpoint {
		// The pages must allow images from where presigned URLs point.
		t.Errorf("image origin %q, %v; want %s", o, err, b.Endpoint)
	}
	c.Bucket = "not-made"
	if _, err := openArtifacts(c, t.TempDir()); err == nil || !strings.Contains(err.Error(), `HUB_S3_BUCKET: bucket "not-made" does not exist`) {
		t.Errorf("missing bucket: %v", err)
	}
}
