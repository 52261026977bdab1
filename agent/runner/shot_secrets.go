package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
)

// Screenshots show the page, and a page may show a secret the test typed:
// a coupon code in a text field, an API key it echoes. Events, traces and
// snapshots mask secrets as text; a screenshot is pixels, so where the page
// shows one is painted over before the image leaves the agent
// (docs/trace.md, "Secrets in screenshots"). Only runs with secrets pay:
// one round trip per screenshot, and a decode and encode of the images
// that show one.

// secretBoxesJS finds, in the document it runs in, where a secret shows:
// the text it is in (each line box of it) and the text fields holding it
// (a password field shows dots). It runs in a world of its own, so the
// page's scripts never see the secrets it is given; boxes are CSS pixels
// of the viewport, or of the document with full.
const secretBoxesJS = `function (forms, full) {
  const out = [];
  const dx = full ? scrollX : 0, dy = full ? scrollY : 0;
  const vw = full ? Infinity : innerWidth, vh = full ? Infinity : innerHeight;
  const add = (r) => {
    if (out.length < 2000 && r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 && r.left < vw && r.top < vh)
      out.push([r.left + dx, r.top + dy, r.width, r.height]);
  };
  const has = (s) => forms.some((f) => s.indexOf(f) >= 0);
  const w = document.createTreeWalker(document.documentElement || document, NodeFilter.SHOW_TEXT);
  for (let n = w.nextNode(); n; n = w.nextNode()) {
    const t = n.data;
    for (const f of forms) {
      for (let i = t.indexOf(f); i >= 0; i = t.indexOf(f, i + f.length)) {
        const g = document.createRange();
        g.setStart(n, i);
        g.setEnd(n, i + f.length);
        for (const r of g.getClientRects()) add(r);
      }
    }
  }
  for (const el of document.querySelectorAll('input, textarea')) {
    if (el.type !== 'password' && typeof el.value === 'string' && has(el.value)) add(el.getBoundingClientRect());
  }
  return {width: full ? document.documentElement.scrollWidth : innerWidth, boxes: out};
}`

// shotBoxes is where a screenshot shows secrets: boxes in CSS pixels of a
// picture width CSS pixels wide.
type shotBoxes struct {
	Width float64      `json:"width"`
	Boxes [][4]float64 `json:"boxes"`
}

// secretWorld caches the isolated world secretBoxesJS runs in, per page
// session: made again when the page navigated (its context is gone).
type secretWorld struct {
	mu  sync.Mutex
	ids map[string]proto.RuntimeExecutionContextID // session id -> context
}

// secretBoxes asks the page where it shows a secret: nil when the run has
// none. When the page cannot say, the error: the screenshot is then not
// sent rather than sent unchecked.
func (r *run) secretBoxes(ctx context.Context, full bool) (*shotBoxes, error) {
	if len(r.mask.forms) == 0 || r.tab == nil {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, secretBoxesWait)
	defer cancel()
	sess := r.sess(ctx)
	key := string(r.tab.sess.id)
	var err error
	for attempt := 0; attempt < 3 && ctx.Err() == nil; attempt++ {
		var id proto.RuntimeExecutionContextID
		if id, err = r.secretWorldOf(sess, key, attempt > 0); err != nil {
			continue
		}
		var res *proto.RuntimeCallFunctionOnResult
		res, err = proto.RuntimeCallFunctionOn{ExecutionContextID: id, FunctionDeclaration: secretBoxesJS, ReturnByValue: true,
			Arguments: []*proto.RuntimeCallArgument{{Value: gson.New(r.mask.forms)}, {Value: gson.New(full)}}}.Call(sess)
		if err == nil && res.ExceptionDetails != nil {
			err = errors.New(res.ExceptionDetails.Text)
		}
		if err != nil {
			continue // the document changed under it: a new world
		}
		var b shotBoxes
		if err = json.Unmarshal([]byte(res.Result.Value.JSON("", "")), &b); err == nil && b.Width <= 0 {
			err = errors.New("the page has no width")
		}
		if err != nil {
			return nil, fmt.Errorf("finding where the page shows secrets: %w", err)
		}
		return &b, nil
	}
	if err == nil {
		err = ctx.Err()
	}
	return nil, fmt.Errorf("finding where the page shows secrets: %w", err)
}

// secretBoxesWait bounds the question: a page busy in a script answers
// nothing (its screenshot would not come either).
const secretBoxesWait = 3 * time.Second

// secretWorldOf answers the isolated world of the page's main frame, made
// when there is none or fresh is set.
func (r *run) secretWorldOf(sess session, key string, fresh bool) (proto.RuntimeExecutionContextID, error) {
	r.secrets.mu.Lock()
	defer r.secrets.mu.Unlock()
	if id, ok := r.secrets.ids[key]; ok && !fresh {
		return id, nil
	}
	tree, err := proto.PageGetFrameTree{}.Call(sess)
	if err != nil {
		return 0, err
	}
	w, err := proto.PageCreateIsolatedWorld{FrameID: tree.FrameTree.Frame.ID, WorldName: "ta-secrets"}.Call(sess)
	if err != nil {
		return 0, err
	}
	if r.secrets.ids == nil {
		r.secrets.ids = map[string]proto.RuntimeExecutionContextID{}
	}
	r.secrets.ids[key] = w.ExecutionContextID
	return w.ExecutionContextID, nil
}

// paintSecrets paints the boxes over the image (PNG, or JPEG when jpg):
// the same bytes when there is nothing to paint; nil and the error when
// the image cannot be read, so no unmasked picture leaves.
func paintSecrets(data []byte, jpg bool, b *shotBoxes) ([]byte, error) {
	if b == nil || len(b.Boxes) == 0 {
		return data, nil
	}
	var src image.Image
	var err error
	if jpg {
		src, err = jpeg.Decode(bytes.NewReader(data))
	} else {
		src, err = png.Decode(bytes.NewReader(data))
	}
	if err != nil {
		return nil, err
	}
	bounds := src.Bounds()
	img := image.NewRGBA(bounds)
	draw.Draw(img, bounds, src, bounds.Min, draw.Src)
	k := float64(bounds.Dx()) / b.Width
	ink := image.NewUniform(color.RGBA{0x33, 0x33, 0x33, 0xff})
	for _, x := range b.Boxes {
		// A pixel of margin each side: antialiased edges show no trace.
		r := image.Rect(int(math.Floor((x[0]-1)*k)), int(math.Floor((x[1]-1)*k)),
			int(math.Ceil((x[0]+x[2]+1)*k)), int(math.Ceil((x[1]+x[3]+1)*k))).Add(bounds.Min).Intersect(bounds)
		draw.Draw(img, r, ink, image.Point{}, draw.Src)
	}
	var out bytes.Buffer
	if jpg {
		err = jpeg.Encode(&out, img, &jpeg.Options{Quality: stepShotQuality})
	} else {
		err = png.Encode(&out, img)
	}
	if err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
