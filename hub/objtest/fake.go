// Package objtest gives tests an S3-compatible bucket: gofakes3 in the
// test's process for unit tests (Fake), or a real SeaweedFS server (Weed).
package objtest

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// Bucket is where a test's bucket is, in the shape of the HUB_S3_* settings.
type Bucket struct {
	Endpoint  string // http://127.0.0.1:port
	Bucket    string
	AccessKey string
	SecretKey string
	Region    string
	// Received counts the bytes of request bodies the server has read so
	// far (Fake only): a test can tell streaming from buffering by it.
	Received *atomic.Int64
	// Stop ends the server before the test does (Fake only): a bucket
	// that stopped answering.
	Stop func()
}

// Fake serves an in-memory bucket named "ta-test" with gofakes3 until the test
// ends. gofakes3 checks no signature, so any keys do.
func Fake(t testing.TB) Bucket {
	t.Helper()
	mem := s3mem.New()
	if err := mem.CreateBucket("ta-test"); err != nil {
		t.Fatal(err)
	}
	fake := gofakes3.New(mem).Server()
	var received atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = &counting{r.Body, &received}
		unchunk(r)
		fake.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return Bucket{Endpoint: srv.URL, Bucket: "ta-test", AccessKey: "test", SecretKey: "test-secret", Region: "us-east-1", Received: &received,
		Stop: srv.Close}
}

// unchunk decodes a body minio-go sent with streaming signatures (its
// way over plain http): gofakes3 decodes them for a whole object but not
// for the part of a multipart upload, which would keep the chunk headers
// as content. gofakes3 checks no signature, so they are dropped unread.
func unchunk(r *http.Request) {
	if r.Header.Get("X-Amz-Content-Sha256") != "STREAMING-AWS4-HMAC-SHA256-PAYLOAD" {
		return
	}
	n, err := strconv.ParseInt(r.Header.Get("X-Amz-Decoded-Content-Length"), 10, 64)
	if err != nil {
		return
	}
	r.Header.Set("X-Amz-Content-Sha256", "UNSIGNED-PAYLOAD")
	r.Header.Del("X-Amz-Decoded-Content-Length")
	r.Header.Set("Content-Length", strconv.FormatInt(n, 10))
	r.ContentLength = n
	r.Body = &dechunker{body: r.Body, br: bufio.NewReader(r.Body)}
}

// dechunker reads the data of "<hex size>;chunk-signature=...\r\n<data>\r\n"
// chunks, up to the empty last one.
type dechunker struct {
	body io.Closer
	br   *bufio.Reader
	left int64 // of the current chunk
	done bool
}

func (d *dechunker) Read(p []byte) (int, error) {
	for d.left == 0 {
		if d.done {
			return 0, io.EOF
		}
		line, err := d.br.ReadString('\n')
		if err != nil {
			return 0, err
		}
		size, _, _ := strings.Cut(strings.TrimSpace(line), ";")
		n, err := strconv.ParseInt(size, 16, 64)
		if err != nil {
			return 0, fmt.Errorf("chunk size %q: %w", size, err)
		}
		if n == 0 {
			d.done = true
			continue
		}
		d.left = n
	}
	n, err := d.br.Read(p[:min(int64(len(p)), d.left)])
	d.left -= int64(n)
	if d.left == 0 && err == nil {
		_, err = d.br.Discard(2) // the chunk's \r\n
	}
	return n, err
}

func (d *dechunker) Close() error { return d.body.Close() }

type counting struct {
	io.ReadCloser
	n *atomic.Int64
}

func (c *counting) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.n.Add(int64(n))
	return n, err
}
