package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"
)

// asset is one file of the build, read once at start.
type asset struct {
	body        []byte
	gzipped     []byte // nil when compression does not pay
	contentType string
	etag        string
}

// Handler serves a built application from fsys.
type Handler struct {
	assets map[string]*asset // by path without the leading slash
	index  *asset            // nil before the first build
	// ImageOrigin is an origin besides the hub's that the pages may show
	// images from: the bucket presigned screenshots redirect to
	// (docs/object-storage.md); "" for none.
	ImageOrigin string
}

// NewHandler reads every file of fsys into memory (a build is a few hundred
// kilobytes) with its type, ETag and gzip form.
func NewHandler(fsys fs.FS) (*Handler, error) {
	h := &Handler{assets: map[string]*asset{}}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			return err
		}
		body, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		a := &asset{body: body, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		a.contentType = mime.TypeByExtension(path.Ext(p))
		if a.contentType == "" {
			a.contentType = http.DetectContentType(body)
		}
		if compressible(a.contentType) && len(body) > 1024 {
			var buf bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
			_, _ = zw.Write(body)
			_ = zw.Close()
			if buf.Len() < len(body)*9/10 {
				a.gzipped = buf.Bytes()
			}
		}
		h.assets[p] = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	h.index = h.assets["index.html"]
	return h, nil
}

// Built reports whether the application was built before the hub.
func (h *Handler) Built() bool { return h.index != nil }

func compressible(ct string) bool {
	return strings.HasPrefix(ct, "text/") || strings.Contains(ct, "javascript") || strings.Contains(ct, "json") || strings.Contains(ct, "svg")
}

// ServeHTTP answers GET and HEAD for everything outside /api.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if a, ok := h.assets[p]; ok && p != "index.html" {
		if strings.HasPrefix(p, "assets/") {
			// Vite names these by content hash: a new build makes new names.
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "no-cache")
		}
		h.serve(w, r, a)
		return
	}
	if strings.HasPrefix(p, "assets/") {
		// A hashed file of an older build: an HTML page here would only
		// confuse the browser that asked for a script.
		http.NotFound(w, r)
		return
	}
	if h.index == nil {
		notBuilt(w, r)
		return
	}
	// The application's own routes: the page decides what to show.
	w.Header().Set("Cache-Control", "no-cache")
	securityHeaders(w, h.ImageOrigin)
	h.serve(w, r, h.index)
}

func (h *Handler) serve(w http.ResponseWriter, r *http.Request, a *asset) {
	hd := w.Header()
	hd.Set("Content-Type", a.contentType)
	hd.Set("ETag", a.etag)
	hd.Set("X-Content-Type-Options", "nosniff")
	body := a.body
	if a.gzipped != nil {
		hd.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r) {
			hd.Set("Content-Encoding", "gzip")
			body = a.gzipped
		}
	}
	// ServeContent answers If-None-Match with 304 and handles HEAD and ranges.
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(enc), "gzip") && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}

// securityHeaders keep the application's page from being framed and from
// running scripts of any other origin.
func securityHeaders(w http.ResponseWriter, imageOrigin string) {
	img := "'self' data: blob:"
	if imageOrigin != "" {
		img += " " + imageOrigin
	}
	hd := w.Header()
	hd.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src "+img+"; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Referrer-Policy", "same-origin")
}

// notBuilt answers before the first web build: the API works, and the page
// says how to get the application.
func notBuilt(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	securityHeaders(w, "")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write([]byte(notBuiltPage))
}

const notBuiltPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test automation hub: web application not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>The hub is running; its web application is not built</h1>
<p>This hub binary was built before the web application, so it serves only the JSON API under <code>/api</code>.</p>
<p>To get the web application, build it and then the hub again, from the repository:</p>
<pre style="background:#f3f4f6; padding: 1rem">make run</pre>
<p>or step by step:</p>
<pre style="background:#f3f4f6; padding: 1rem">cd web &amp;&amp; npm ci &amp;&amp; npm run build &amp;&amp; cd ..
go build -o bin/hub ./hub</pre>
<p>README.md also walks through the API with curl.</p>
</body></html>
`
