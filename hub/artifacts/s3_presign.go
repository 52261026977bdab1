package artifacts

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"time"
)

// PresignTTL is how long a presigned URL reads its object: long enough
// for a browser to follow the redirect and read a large file, short
// enough that a URL copied from a browser's history is soon useless.
const PresignTTL = 5 * time.Minute

// ResponseHeaders are what a presigned URL makes the bucket answer with,
// so a redirected browser gets the headers the hub would have sent.
type ResponseHeaders struct {
	ContentType  string
	Disposition  string // "" for inline
	CacheControl string
}

// Presigner hands out short-lived URLs that read an object straight from
// the bucket (HUB_S3_PRESIGN=1). The API decides what may be presigned
// (hub/api/presign.go); a missing object gives an error satisfying
// errors.Is(err, os.ErrNotExist), so the API still answers 404 itself.
type Presigner interface {
	PresignArtifact(ctx context.Context, runID, name string, h ResponseHeaders) (string, error)
	PresignFile(ctx context.Context, id string, h ResponseHeaders) (string, error)
}

// Presigning is an S3 bucket whose objects the hub may hand out by
// presigned URL.
type Presigning struct{ *S3 }

// PresignArtifact presigns a GET of a run's artifact.
func (p Presigning) PresignArtifact(ctx context.Context, runID, name string, h ResponseHeaders) (string, error) {
	key, err := p.RunKey(runID, name)
	if err != nil {
		return "", err
	}
	return p.presign(ctx, key, h)
}

// PresignFile presigns a GET of a project file.
func (p Presigning) PresignFile(ctx context.Context, id string, h ResponseHeaders) (string, error) {
	key, err := p.FileKey(id)
	if err != nil {
		return "", err
	}
	return p.presign(ctx, key, h)
}

func (p Presigning) presign(ctx context.Context, key string, h ResponseHeaders) (string, error) {
	if _, found, err := p.ObjectSize(ctx, key); err != nil {
		return "", err
	} else if !found {
		return "", fmt.Errorf("%s: %w", key, os.ErrNotExist)
	}
	q := url.Values{}
	q.Set("response-content-type", h.ContentType)
	if h.Disposition != "" {
		q.Set("response-content-disposition", h.Disposition)
	}
	if h.CacheControl != "" {
		q.Set("response-cache-control", h.CacheControl)
	}
	u, err := p.c.PresignedGetObject(ctx, p.bucket, key, PresignTTL, q)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

// Origin is the scheme and host presigned URLs point to (with AWS, the
// bucket's own host name): the web pages must allow images from it.
func (p Presigning) Origin(ctx context.Context) (string, error) {
	u, err := p.c.PresignedGetObject(ctx, p.bucket, p.prefix+"origin", PresignTTL, nil)
	if err != nil {
		return "", err
	}
	return u.Scheme + "://" + u.Host, nil
}
