package main

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/minio/minio-go/v7/pkg/s3utils"
	"github.com/testautomation/ta/hub/artifacts"
)

// s3Config is HUB_S3_*: where artifacts go instead of the data folder
// (docs/object-storage.md). Zero when none is set.
type s3Config struct {
	artifacts.S3Config
	Presign bool // HUB_S3_PRESIGN=1: browsers read objects by presigned URL
}

// s3Prefix is a key prefix: plain path segments, no "..".
var s3Prefix = regexp.MustCompile(`^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$`)

// parseS3 reads HUB_S3_*: the endpoint, bucket and both keys all or none.
func parseS3(getenv func(string) string) (s3Config, error) {
	get := func(k string) string { return strings.TrimSpace(getenv(k)) }
	c := s3Config{S3Config: artifacts.S3Config{Endpoint: strings.TrimRight(get("HUB_S3_ENDPOINT"), "/"), Bucket: get("HUB_S3_BUCKET"),
		AccessKey: get("HUB_S3_ACCESS_KEY"), SecretKey: get("HUB_S3_SECRET_KEY"), Region: get("HUB_S3_REGION")}}
	required := []struct{ name, v string }{{"HUB_S3_ENDPOINT", c.Endpoint}, {"HUB_S3_BUCKET", c.Bucket},
		{"HUB_S3_ACCESS_KEY", c.AccessKey}, {"HUB_S3_SECRET_KEY", c.SecretKey}}
	var set, missing []string
	for _, r := range required {
		if r.v == "" {
			missing = append(missing, r.name)
		} else {
			set = append(set, r.name)
		}
	}
	prefix, presign := get("HUB_S3_PREFIX"), get("HUB_S3_PRESIGN")
	if len(set) == 0 {
		for _, o := range []struct{ name, v string }{{"HUB_S3_REGION", c.Region}, {"HUB_S3_PREFIX", prefix}, {"HUB_S3_PRESIGN", presign}} {
			if o.v != "" {
				return c, fmt.Errorf("%s is set but HUB_S3_ENDPOINT, HUB_S3_BUCKET, HUB_S3_ACCESS_KEY and HUB_S3_SECRET_KEY are not: set them to keep artifacts in a bucket", o.name)
			}
		}
		return c, nil
	}
	if len(missing) > 0 {
		return c, fmt.Errorf("%s set but %s missing: set all four HUB_S3_ENDPOINT, HUB_S3_BUCKET, HUB_S3_ACCESS_KEY, HUB_S3_SECRET_KEY, or none",
			strings.Join(set, ", "), strings.Join(missing, ", "))
	}
	if err := s3utils.CheckValidBucketName(c.Bucket); err != nil {
		return c, fmt.Errorf("HUB_S3_BUCKET %q is not a bucket name: %w", c.Bucket, err)
	}
	if _, err := artifacts.NewS3(c.S3Config); err != nil {
		return c, fmt.Errorf("HUB_S3_ENDPOINT: %w", err)
	}
	if prefix = strings.Trim(prefix, "/"); prefix != "" {
		if !s3Prefix.MatchString(prefix) || strings.Contains("/"+prefix+"/", "/../") || strings.Contains("/"+prefix+"/", "/./") {
			return c, fmt.Errorf("HUB_S3_PREFIX %q is not a key prefix like ta or team/ta (letters, digits, . _ - and /)", prefix)
		}
		c.Prefix = prefix + "/"
	}
	switch presign {
	case "", "0":
	case "1":
		c.Presign = true
	default:
		return c, fmt.Errorf("HUB_S3_PRESIGN %q must be 1 (presigned URLs) or 0", presign)
	}
	return c, nil
}

// openArtifacts is where the hub keeps artifacts and project files: the
// bucket of HUB_S3_*, checked to answer and exist, else <data>/artifacts.
func openArtifacts(c s3Config, dataDir string) (artifacts.Store, error) {
	if c.Endpoint == "" {
		return artifacts.Dir{Root: filepath.Join(dataDir, "artifacts")}, nil
	}
	s, err := artifacts.NewS3(c.S3Config)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	// The hub does not create the bucket: its policy, region, encryption
	// and lifecycle are the operator's (docs/object-storage.md).
	if err := s.Ping(ctx); err != nil {
		return nil, fmt.Errorf("HUB_S3_BUCKET: %w (create it, private, and check HUB_S3_ENDPOINT and the keys)", err)
	}
	if c.Presign {
		return artifacts.Presigning{S3: s}, nil
	}
	return s, nil
}

// imageOrigin is the origin the hub's pages may show images from besides
// their own: the bucket's, when screenshots are presigned ("" otherwise).
func imageOrigin(a artifacts.Store) (string, error) {
	p, ok := a.(artifacts.Presigning)
	if !ok {
		return "", nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	o, err := p.Origin(ctx)
	if err != nil {
		return "", fmt.Errorf("HUB_S3_PRESIGN: %w", err)
	}
	return o, nil
}
