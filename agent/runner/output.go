package runner

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"unicode"

	"github.com/testautomation/ta/protocol"
)

// Emitter receives a run's events and artifacts as they happen. Run fills
// Kind and the kind's fields; the caller assigns RunID, Seq and Time.
// Calls for one run never overlap and come in order; the bytes of an
// artifact come (Artifact) before the artifact event that announces them.
type Emitter interface {
	Event(e protocol.Event)
	Artifact(info protocol.ArtifactInfo, data []byte)
}

// output masks and serialises what a run emits, and stops everything after
// run.finished (a dialog dismissed late must not follow it).
type output struct {
	emit Emitter
	mask *masker
	log  *slog.Logger

	// barrierMu guards barrier and is held while it runs, so everything
	// emitted after it was set goes out after what it emits.
	barrierMu sync.Mutex
	barrier   func() // emits what was held back (see hold); uses the *Now methods only

	mu    sync.Mutex      // guards the fields below and the calls to emit
	done  bool            // run.finished went out
	names map[string]bool // artifact names used
}

// hold makes f emit before anything emitted from now on: the next emission
// (by any goroutine) runs f first. A barrier already held runs now.
func (o *output) hold(f func()) {
	o.barrierMu.Lock()
	defer o.barrierMu.Unlock()
	if o.barrier != nil {
		o.barrier()
	}
	o.barrier = f
}

// pass runs the barrier held, if any.
func (o *output) pass() {
	o.barrierMu.Lock()
	defer o.barrierMu.Unlock()
	if f := o.barrier; f != nil {
		o.barrier = nil
		f()
	}
}

func (o *output) event(e protocol.Event) {
	o.pass()
	o.eventNow(e)
}

// eventNow emits e, ignoring the barrier.
func (o *output) eventNow(e protocol.Event) {
	e = o.mask.event(e)
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.done {
		return
	}
	o.done = e.Kind == protocol.RunFinished
	o.emit.Event(e)
}

// logf emits a log event (level info, warn or error) and logs it.
func (o *output) logf(level string, step *int, format string, args ...any) {
	o.pass()
	o.logfNow(level, step, format, args...)
}

// logfNow is logf ignoring the barrier.
func (o *output) logfNow(level string, step *int, format string, args ...any) {
	msg := o.mask.String(fmt.Sprintf(format, args...))
	switch level {
	case "warn":
		o.log.Warn(msg)
	case "error":
		o.log.Error(msg)
	default:
		o.log.Info(msg)
	}
	o.eventNow(protocol.Event{Kind: protocol.LogLine, Level: level, Message: msg, Step: step})
}

// artifact hands over the bytes, then emits the artifact event; it returns
// the name it was stored under ("" when it was too large to send). base is
// a name without extension, masked and sanitised here and made unique in
// the run.
func (o *output) artifact(step int, base, ext, contentType string, data []byte) string {
	o.pass()
	return o.artifactNow(step, base, ext, contentType, data)
}

// artifactNow is artifact ignoring the barrier.
func (o *output) artifactNow(step int, base, ext, contentType string, data []byte) string {
	if len(data) > protocol.MaxArtifact {
		o.logfNow("warn", &step, "artifact %s%s not sent: %d bytes is more than the limit of %d", base, ext, len(data), protocol.MaxArtifact)
		return ""
	}
	base = sanitizeName(o.mask.String(base))
	if base == "" {
		base = "artifact"
	}
	o.mu.Lock()
	if o.done {
		o.mu.Unlock()
		return ""
	}
	if o.names == nil {
		o.names = map[string]bool{}
	}
	name := o.unique(base, ext)
	if o.mask.String(name) != name {
		// Sanitising re-formed a secret (a secret like "a-b" from "a b").
		name = o.unique("artifact", ext)
	}
	o.names[name] = true
	info := protocol.ArtifactInfo{Name: name, ContentType: contentType, Size: int64(len(data)), Step: &step}
	o.emit.Artifact(info, data)
	o.emit.Event(protocol.Event{Kind: protocol.ArtifactMade, Name: name, ContentType: contentType, Step: &step, Size: info.Size})
	o.mu.Unlock()
	return name
}

// unique returns base+ext, or base-2+ext, base-3+ext ... if taken.
// o.mu must be held.
func (o *output) unique(base, ext string) string {
	name := base + ext
	for n := 2; o.names[name]; n++ {
		name = fmt.Sprintf("%s-%d%s", base, n, ext)
	}
	return name
}

// sanitizeName keeps what protocol.ValidArtifactName allows: ASCII letters
// and digits, dot, dash and underscore, starting with a letter or digit;
// every run of other characters becomes one dash. The result is at most 100
// bytes, leaving room for a suffix and an extension.
func sanitizeName(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '-') {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.TrimLeft(b.String(), ".-_")
	if len(out) > 100 {
		out = out[:100]
	}
	return strings.TrimRight(out, ".-")
}
