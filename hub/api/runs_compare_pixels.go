package api

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	_ "image/jpeg" // after-step screenshots are JPEG, a failed step's PNG
	"image/png"
	"io"
	"net/http"
	"strconv"

	"github.com/testautomation/ta/hub/store"
)

// The pixel difference of the diverging step's screenshots (docs/trace.md
// "Since it last passed"): counted for GET /api/runs/:id/compare, drawn
// for GET /api/runs/:id/compare/pixels.png.

const (
	// pixelTolerance: a channel differing by at most this much (of 255)
	// is the same, so antialiasing and JPEG noise are not counted.
	pixelTolerance = 16
	// maxComparePixels bounds the work (and memory: 4 bytes a pixel, twice)
	// of one comparison.
	maxComparePixels = 40_000_000
)

var (
	errShotMissing = errors.New("no such screenshot, or it does not decode")
	errShotSizes   = errors.New("the screenshots differ in size")
	errShotLarge   = errors.New("a screenshot is too large to compare")
)

// overlayPalette: transparent where the screenshots agree, opaque magenta
// where they differ.
var overlayPalette = color.Palette{color.NRGBA{}, color.NRGBA{R: 0xff, B: 0xff, A: 0xff}}

// pixelCount counts the diverging step's different pixels; nil when
// either screenshot is missing or does not decode, or sizes differ.
func (s *Server) pixelCount(ctx context.Context, run, base store.Run, d *divergence) *pixelsJSON {
	if d.screenshot == "" || d.baseScreenshot == "" {
		return nil
	}
	p, _, err := s.comparePixels(ctx, run.ID, d.screenshot, base.ID, d.baseScreenshot, false)
	if err != nil {
		s.log.Debug("no pixel comparison", "run", run.ID, "baseline", base.ID, "err", err)
		return nil
	}
	return &p
}

func (s *Server) runComparePixels(w http.ResponseWriter, r *http.Request) {
	run, base, ok := s.comparePair(w, r)
	if !ok {
		return
	}
	var d *divergence
	if base != nil {
		var err error
		if d, err = s.divergence(r.Context(), run, *base); err != nil {
			s.internal(w, r, err)
			return
		}
	}
	if d == nil || d.screenshot == "" || d.baseScreenshot == "" {
		writeError(w, http.StatusNotFound, codeNotFound, "no diverging step with a screenshot in both runs")
		return
	}
	_, overlay, err := s.comparePixels(r.Context(), run.ID, d.screenshot, base.ID, d.baseScreenshot, true)
	switch {
	case errors.Is(err, errShotMissing):
		writeError(w, http.StatusNotFound, codeNotFound, "a screenshot of the diverging step is missing or does not decode")
		return
	case errors.Is(err, errShotSizes):
		refuseCompare(w, "sizes_differ", "the screenshots of the diverging step differ in size")
		return
	case errors.Is(err, errShotLarge):
		refuseCompare(w, "too_large", "a screenshot of the diverging step is over 40 megapixels: too large to compare")
		return
	case err != nil:
		s.internal(w, r, err)
		return
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, overlay); err != nil {
		s.internal(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "image/png")
	h.Set("X-Content-Type-Options", "nosniff")
	// Without ?with= the baseline may change (an earlier run passing
	// later): kept briefly, and by the caller's browser only.
	h.Set("Cache-Control", "private, max-age=60")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	_, _ = w.Write(buf.Bytes())
}

// comparePixels compares a screenshot of run a with one of run b: their
// size, the count of different pixels and, with overlay, the overlay the
// size of a's. Sizes are read from the headers before anything is decoded.
func (s *Server) comparePixels(ctx context.Context, runA, nameA, runB, nameB string, overlay bool) (pixelsJSON, *image.Paletted, error) {
	var files [2]io.ReadSeekCloser
	var sizes [2]image.Config
	for i, x := range [][2]string{{runA, nameA}, {runB, nameB}} {
		f, cfg, err := s.openShot(ctx, x[0], x[1])
		if err != nil {
			return pixelsJSON{}, nil, err
		}
		defer f.Close()
		files[i], sizes[i] = f, cfg
	}
	for _, c := range sizes {
		if int64(c.Width)*int64(c.Height) > maxComparePixels {
			return pixelsJSON{}, nil, errShotLarge
		}
	}
	if sizes[0].Width != sizes[1].Width || sizes[0].Height != sizes[1].Height {
		return pixelsJSON{}, nil, errShotSizes
	}
	select {
	case s.pixelSem <- struct{}{}:
	case <-ctx.Done():
		return pixelsJSON{}, nil, ctx.Err()
	}
	defer func() { <-s.pixelSem }()
	var imgs [2]image.Image
	for i, f := range files {
		img, _, err := image.Decode(f)
		if err != nil {
			return pixelsJSON{}, nil, errShotMissing
		}
		imgs[i] = img
	}
	different, over := diffImages(imgs[0], imgs[1], overlay)
	w, h := sizes[0].Width, sizes[0].Height
	return pixelsJSON{Width: w, Height: h, Different: different, Total: int64(w) * int64(h)}, over, nil
}

// openShot opens a stored PNG or JPEG screenshot and reads its size,
// positioned at its start again.
func (s *Server) openShot(ctx context.Context, runID, name string) (io.ReadSeekCloser, image.Config, error) {
	a, err := s.store.Artifact(ctx, runID, name)
	if errors.Is(err, store.ErrNotFound) || err == nil && a.ContentType != "image/png" && a.ContentType != "image/jpeg" {
		return nil, image.Config{}, errShotMissing
	}
	if err != nil {
		return nil, image.Config{}, err
	}
	f, err := s.Artifacts.Open(ctx, runID, name)
	if err != nil {
		return nil, image.Config{}, errShotMissing
	}
	cfg, format, err := image.DecodeConfig(f)
	if err == nil && format != "png" && format != "jpeg" {
		err = errShotMissing
	}
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, image.Config{}, errShotMissing
	}
	return f, cfg, nil
}

// diffImages counts the pixels of two images of the same size that differ
// by more than pixelTolerance in a channel (premultiplied RGBA, 8 bits),
// and with overlay marks them in a paletted image (1 byte a pixel).
func diffImages(a, b image.Image, overlay bool) (int64, *image.Paletted) {
	ba := a.Bounds()
	w, h := ba.Dx(), ba.Dy()
	var over *image.Paletted
	if overlay {
		over = image.NewPaletted(image.Rect(0, 0, w, h), overlayPalette)
	}
	rowA, rowB := make([]byte, 4*w), make([]byte, 4*w)
	var different int64
	for y := 0; y < h; y++ {
		readRow(a, y, rowA)
		readRow(b, y, rowB)
		for x := 0; x < w; x++ {
			if !samePixel(rowA[4*x:4*x+4], rowB[4*x:4*x+4]) {
				different++
				if over != nil {
					over.Pix[y*over.Stride+x] = 1
				}
			}
		}
	}
	return different, over
}

func samePixel(p, q []byte) bool {
	for c := range 4 {
		if d := int(p[c]) - int(q[c]); d > pixelTolerance || d < -pixelTolerance {
			return false
		}
	}
	return true
}

// readRow reads row y (from the image's top) as premultiplied 8-bit RGBA,
// without an allocation per pixel for the kinds screenshots decode to.
func readRow(img image.Image, y int, dst []byte) {
	b := img.Bounds()
	y += b.Min.Y
	w := len(dst) / 4
	switch m := img.(type) {
	case *image.RGBA:
		copy(dst, m.Pix[m.PixOffset(b.Min.X, y):])
	case *image.NRGBA:
		src := m.Pix[m.PixOffset(b.Min.X, y):]
		for x := 0; x < w; x++ {
			p := src[4*x : 4*x+4]
			a := uint32(p[3])
			dst[4*x], dst[4*x+1], dst[4*x+2], dst[4*x+3] = byte(uint32(p[0])*a/255), byte(uint32(p[1])*a/255), byte(uint32(p[2])*a/255), p[3]
		}
	case *image.YCbCr:
		for x := 0; x < w; x++ {
			yi, ci := m.YOffset(b.Min.X+x, y), m.COffset(b.Min.X+x, y)
			dst[4*x], dst[4*x+1], dst[4*x+2] = color.YCbCrToRGB(m.Y[yi], m.Cb[ci], m.Cr[ci])
			dst[4*x+3] = 0xff
		}
	default:
		for x := 0; x < w; x++ {
			r, g, bl, a := img.At(b.Min.X+x, y).RGBA()
			dst[4*x], dst[4*x+1], dst[4*x+2], dst[4*x+3] = byte(r>>8), byte(g>>8), byte(bl>>8), byte(a>>8)
		}
	}
}
