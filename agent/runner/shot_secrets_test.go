package runner

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

// TestScreenshotsPaintSecretsOver: a page showing a secret the test typed
// (in its text field and echoed as text) is painted over where it shows it,
// in the screenshot after a step, a screenshot step's and a failure's, with
// the browser's own capture and in the headless shell; the same page
// typed with a plain value is not. The page's scripts never hear the
// secrets the agent looks for (#seen stays empty).
func TestScreenshotsPaintSecretsOver(t *testing.T) {
	for name, b := range map[string]func(testing.TB) *Browser{"browser": func(testing.TB) *Browser { return testBrowser }, "headless shell": shell} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b := b(t)
			run := func(value string, secrets map[string]string) (protocol.RunResult, *recorder) {
				ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
				defer cancel()
				job := protocol.Job{RunID: "run_secret_shots", Version: 1, Screenshots: true, Secrets: secrets, Document: document(t,
					nav("/secret-echo.html"), fillStep(css("#code"), value), click(css("#show")),
					protocol.Step{Type: "screenshot", Name: "page"}, textIs(css("#seen"), "equals", ""),
					short(textIs(css("#echo"), "equals", "nope"), 500))}
				return unlessStalled(t, b, func(rec *recorder) protocol.RunResult { return b.Run(ctx, job, rec) })
			}
			const code = "K9-SECRET-42"
			res, rec := run("${secrets.CODE}", map[string]string{"CODE": code, "OTHER": "never-told-777"})
			plain, plainRec := run(code, nil)
			for _, r := range []protocol.RunResult{res, plain} {
				if r.Status != protocol.RunFailed || len(r.Steps) != 6 || r.Steps[4].Status != protocol.StepPassed || r.Steps[5].Status != protocol.StepFailed {
					t.Fatalf("want the last step only to fail (and #seen empty): %+v", r.Steps)
				}
			}
			shots := func(res protocol.RunResult, rec *recorder) map[string][]byte {
				m := map[string][]byte{"after click": rec.artifacts[res.Steps[2].Screenshot], "failure": rec.artifacts[res.Steps[5].Screenshot]}
				for n, data := range rec.artifacts {
					if strings.HasPrefix(n, "page") || strings.Contains(n, "-page") {
						m["screenshot step"] = data
					}
				}
				return m
			}
			masked, open := shots(res, rec), shots(plain, plainRec)
			for what, data := range masked {
				// The echo's line (CSS 20..300 x 130..170) and the field's (20..300 x 30..70).
				for _, box := range []image.Rectangle{image.Rect(24, 130, 300, 170), image.Rect(24, 30, 300, 70)} {
					if got := inkShare(t, what, data, box); got < 0.95 {
						t.Errorf("%s with the secret: %.0f%% of %v painted over, want all", what, 100*got, box)
					}
					if got := inkShare(t, what, open[what], box); got > 0.2 {
						t.Errorf("%s with a plain value: %.0f%% of %v painted over, want none", what, 100*got, box)
					}
				}
			}
			if len(masked) != 3 {
				t.Errorf("screenshots: %d, want 3 (%v)", len(masked), res.Steps)
			}
		})
	}
}

// inkShare is the share of the box's pixels painted with the secrets' ink
// (#333, give or take a JPEG's noise).
func inkShare(t *testing.T, what string, data []byte, box image.Rectangle) float64 {
	t.Helper()
	var img image.Image
	var err error
	if bytes.HasPrefix(data, pngMagic) {
		img, err = png.Decode(bytes.NewReader(data))
	} else {
		img, err = jpeg.Decode(bytes.NewReader(data))
	}
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	ink, all := 0, 0
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			all++
			if near(r>>8, 0x33) && near(g>>8, 0x33) && near(b>>8, 0x33) {
				ink++
			}
		}
	}
	return float64(ink) / float64(all)
}

func near(v uint32, want int) bool { return int(v) >= want-12 && int(v) <= want+12 }
