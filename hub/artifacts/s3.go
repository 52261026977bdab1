package artifacts

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/protocol"
)

// PartSize is what one streamed upload holds in memory at most: minio-go
// reads a reader of unknown length part by part, and without a part size
// it would size parts for a 5 TiB object (over 500 MiB each). 8 MiB parts
// allow objects up to 80 GB (10,000 parts).
const PartSize = 8 << 20

// S3Config names a bucket of an S3-compatible server (HUB_S3_*).
type S3Config struct {
	Endpoint  string // https://host[:port] or http://...: the scheme decides TLS
	Bucket    string
	AccessKey string
	SecretKey string
	Region    string // empty: asked of the server
	Prefix    string // put before every key, e.g. "ta/"; may be empty
}

// S3 stores artifacts and project files as objects of one bucket, under
// <prefix>runs/<runID>/<name> and <prefix>files/<id> (docs/object-storage.md).
// Names are checked as Dir checks them, so no key leaves its run.
type S3 struct {
	c      *minio.Client
	bucket string
	prefix string
}

// NewS3 makes a client for cfg; it does not talk to the server (Ping does).
func NewS3(cfg S3Config) (*S3, error) {
	u, err := url.Parse(cfg.Endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.Trim(u.Path, "/") != "" {
		return nil, fmt.Errorf("endpoint %q is not an address like https://s3.example.com or http://127.0.0.1:9000", cfg.Endpoint)
	}
	c, err := minio.New(u.Host, &minio.Options{
		Creds:  credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""),
		Secure: u.Scheme == "https",
		Region: cfg.Region,
		// minio-go's default (10 tries, backing off to a second each)
		// keeps a page waiting many seconds for a bucket that is down;
		// 3 still ride out a dropped connection.
		MaxRetries: 3,
	})
	if err != nil {
		return nil, err
	}
	return &S3{c: c, bucket: cfg.Bucket, prefix: cfg.Prefix}, nil
}

// Ping says whether the bucket answers and exists.
func (s *S3) Ping(ctx context.Context) error {
	ok, err := s.c.BucketExists(ctx, s.bucket)
	if err != nil {
		return fmt.Errorf("bucket %q at %s does not answer: %w", s.bucket, s.c.EndpointURL().Redacted(), err)
	}
	if !ok {
		return fmt.Errorf("bucket %q does not exist at %s", s.bucket, s.c.EndpointURL().Redacted())
	}
	return nil
}

// RunKey is the object key of a run's artifact.
func (s *S3) RunKey(runID, name string) (string, error) {
	if !ids.Valid("run", runID) || !protocol.ValidArtifactName(name) {
		return "", ErrBadName
	}
	return s.prefix + "runs/" + runID + "/" + name, nil
}

// FileKey is the object key of a project file.
func (s *S3) FileKey(id string) (string, error) {
	if !ids.Valid(FileKind, id) {
		return "", ErrBadName
	}
	return s.prefix + "files/" + id, nil
}

// Put writes an artifact, replacing one of the same name.
func (s *S3) Put(ctx context.Context, runID, name string, data []byte) error {
	key, err := s.RunKey(runID, name)
	if err != nil {
		return err
	}
	return s.PutObject(ctx, key, bytes.NewReader(data), int64(len(data)))
}

// Open reads an artifact; a missing one gives an error satisfying
// errors.Is(err, os.ErrNotExist), as Dir's does.
func (s *S3) Open(ctx context.Context, runID, name string) (io.ReadSeekCloser, error) {
	key, err := s.RunKey(runID, name)
	if err != nil {
		return nil, err
	}
	return s.open(ctx, key)
}

// PutFile streams r into the bucket, PartSize at a time. When r fails the
// upload is abandoned (minio-go aborts a multipart upload), so nothing is
// kept.
func (s *S3) PutFile(ctx context.Context, id string, r io.Reader) error {
	key, err := s.FileKey(id)
	if err != nil {
		return err
	}
	return s.PutObject(ctx, key, r, -1)
}

// OpenFile opens a stored file.
func (s *S3) OpenFile(ctx context.Context, id string) (io.ReadSeekCloser, error) {
	key, err := s.FileKey(id)
	if err != nil {
		return nil, err
	}
	return s.open(ctx, key)
}

// DeleteFile removes a stored file; a missing one is no error (S3's
// DELETE of a missing key succeeds).
func (s *S3) DeleteFile(ctx context.Context, id string) error {
	key, err := s.FileKey(id)
	if err != nil {
		return err
	}
	return s.c.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{})
}

// DeleteRun removes every object of a run; a run without any is no error.
func (s *S3) DeleteRun(ctx context.Context, runID string) error {
	if !ids.Valid("run", runID) {
		return ErrBadName
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the listing if removal stops early
	objects := s.c.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: s.prefix + "runs/" + runID + "/", Recursive: true})
	var listErr error
	listed := make(chan minio.ObjectInfo)
	go func() {
		defer close(listed)
		for o := range objects {
			if o.Err != nil {
				listErr = o.Err
				return
			}
			select {
			case listed <- o:
			case <-ctx.Done():
				return
			}
		}
	}()
	var removeErr error
	// Read every answer: RemoveObjects ends only once listed is closed,
	// which the cancel brings about early on the first failure.
	for e := range s.c.RemoveObjects(ctx, s.bucket, listed, minio.RemoveObjectsOptions{}) {
		if e.Err != nil && removeErr == nil {
			removeErr = fmt.Errorf("removing %s: %w", e.ObjectName, e.Err)
			cancel()
		}
	}
	if removeErr != nil {
		return removeErr
	}
	return listErr // read after listed closed: the goroutine is done
}

// PutObject streams size bytes (-1: unknown) of r to key.
func (s *S3) PutObject(ctx context.Context, key string, r io.Reader, size int64) error {
	_, err := s.c.PutObject(ctx, s.bucket, key, r, size, minio.PutObjectOptions{
		PartSize: PartSize, ContentType: "application/octet-stream"})
	return err
}

// ObjectSize is the size of key, or found false when there is none.
func (s *S3) ObjectSize(ctx context.Context, key string) (size int64, found bool, err error) {
	info, err := s.c.StatObject(ctx, s.bucket, key, minio.StatObjectOptions{})
	if isMissing(err) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return info.Size, true, nil
}

// open reads key, asking for it at once: minio-go's GetObject only asks at
// the first read, and a missing object must fail here, as a missing file
// does (the API answers 404).
func (s *S3) open(ctx context.Context, key string) (io.ReadSeekCloser, error) {
	obj, err := s.c.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err == nil {
		_, err = obj.Stat()
		if err != nil {
			obj.Close()
		}
	}
	if isMissing(err) {
		return nil, fmt.Errorf("%s: %w", key, os.ErrNotExist)
	}
	if err != nil {
		return nil, err
	}
	return obj, nil
}

func isMissing(err error) bool {
	if err == nil {
		return false
	}
	code := minio.ToErrorResponse(err).Code
	return code == minio.NoSuchKey || code == "NotFound" || errors.Is(err, os.ErrNotExist)
}
