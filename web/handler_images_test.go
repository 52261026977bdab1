package web

import (
	"strings"
	"testing"
)

// TestImageOriginInPolicy: a hub presigning screenshots lets its pages
// show images from the bucket's origin, and from nowhere else; scripts
// stay the hub's own.
func TestImageOriginInPolicy(t *testing.T) {
	h, _ := NewHandler(builtFS())
	if csp := get(t, h, "GET", "/runs/run_1", nil).Header().Get("Content-Security-Policy"); !strings.Contains(csp, "img-src 'self' data: blob:;") {
		t.Errorf("without a bucket: %q", csp)
	}
	h.ImageOrigin = "https://ta.s3.eu-west-1.amazonaws.com"
	csp := get(t, h, "GET", "/runs/run_1", nil).Header().Get("Content-Security-Policy")
	if !strings.Contains(csp, "img-src 'self' data: blob: https://ta.s3.eu-west-1.amazonaws.com;") || !strings.Contains(csp, "script-src 'self';") {
		t.Errorf("with a bucket: %q", csp)
	}
}
