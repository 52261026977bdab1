package author

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/agent/runner"
	"github.com/testautomation/ta/protocol"
	"github.com/ysmood/gson"
)

// maxConsoleText bounds one console line of a tried script.
const maxConsoleText = 2 << 10

// Try implements client.Author: the code runs as a script step's does (a
// function of vars, references passed as values, never pasted), awaited,
// within the time limit, and every secret is masked in what comes back.
func (m *Manager) Try(ctx context.Context, req protocol.TryRequest) protocol.TryResult {
	began := time.Now()
	mask := runner.Masker(req.Secrets)
	res := protocol.TryResult{Value: json.RawMessage("null"), Console: []protocol.ConsoleLine{}}
	fail := func(msg string) protocol.TryResult {
		res.Error = &protocol.TryError{Message: mask(msg)}
		res.DurationMs = time.Since(began).Milliseconds()
		return res
	}
	limit := time.Duration(req.TimeoutMs) * time.Millisecond
	switch {
	case req.TimeoutMs <= 0:
		limit = protocol.DefaultTryTimeoutMs * time.Millisecond
	case req.TimeoutMs > protocol.MaxTryTimeoutMs:
		limit = protocol.MaxTryTimeoutMs * time.Millisecond
	}

	fn, refs := protocol.ScriptSource(req.Code)
	vars := map[string]any{}
	secrets := map[string]string{}
	var fields []string // bases of dotted references
	for _, ref := range refs {
		if name, ok := strings.CutPrefix(ref, protocol.SecretPrefix); ok {
			v, ok := req.Secrets[name]
			if !ok {
				return fail(fmt.Sprintf("the script uses ${%s}, and there is no such secret", ref))
			}
			secrets[name] = v
			continue
		}
		base, path, dotted := strings.Cut(ref, ".")
		v, ok := req.Variables[base]
		if !ok {
			return fail(fmt.Sprintf("the script uses ${%s}, and there is no such variable", ref))
		}
		if dotted {
			// ${resp.body.id} reads a field of a variable holding JSON, as
			// in a run (runner's script step): a missing field fails as
			// there, and the variable arrives parsed.
			if _, err := runner.Field(base, v, path); err != nil {
				return fail(err.Error())
			}
			fields = append(fields, base)
			continue
		}
		vars[ref] = v
	}
	for _, base := range fields {
		vars[base] = json.RawMessage(req.Variables[base])
	}
	if len(secrets) > 0 {
		vars["secrets"] = secrets
	}

	var page *rod.Page
	if req.Session != "" {
		s, err := m.session(req.Session)
		if err != nil {
			return fail(err.Error())
		}
		if page = s.page(); page == nil {
			return fail("the session's page is not open yet")
		}
	} else {
		p, done, err := m.freshPage(ctx, req.URL, limit)
		if err != nil {
			return fail(err.Error())
		}
		defer done()
		page = p
	}

	tctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	p := page.Context(tctx)
	var cmu sync.Mutex
	console := []protocol.ConsoleLine{}
	// Runtime is enabled on a session's page; enabling again is harmless.
	_ = proto.RuntimeEnable{}.Call(p)
	win, err := proto.RuntimeEvaluate{Expression: "window"}.Call(p)
	if err != nil {
		return fail("cannot reach the page: " + err.Error())
	}
	lctx, stopListening := context.WithCancel(ctx)
	defer stopListening()
	var refusal firstRefusal // what the script made the page try to open, and Chromium refused
	go page.Context(lctx).EachEvent(func(e *proto.RuntimeConsoleAPICalled) {
		cmu.Lock()
		defer cmu.Unlock()
		if len(console) < protocol.MaxConsoleLines {
			console = append(console, protocol.ConsoleLine{Level: consoleLevel(e.Type), Text: mask(cut(consoleText(e.Args), maxConsoleText))})
		}
	}, func(e *proto.LogEntryAdded) { // the page's guard enabled Log
		if e.Entry != nil {
			if why := runner.LogRefusal(string(e.Entry.Source), e.Entry.Text); why != "" {
				refusal.add(why)
			}
		}
	})()

	call := proto.RuntimeCallFunctionOn{ObjectID: win.Result.ObjectID, FunctionDeclaration: wrapTried(fn),
		Arguments: []*proto.RuntimeCallArgument{{Value: gson.New(vars)}}, AwaitPromise: true, ReturnByValue: true}
	out, err := call.Call(p)
	// Console messages logged just before the end arrive right after it.
	time.Sleep(50 * time.Millisecond)
	stopListening()
	cmu.Lock()
	res.Console = console
	cmu.Unlock()
	if why := refusal.get(); why != "" && err == nil {
		return fail(why)
	}
	if err != nil {
		if tctx.Err() != nil && ctx.Err() == nil {
			// A busy loop holds the page: stop it.
			kctx, kcancel := context.WithTimeout(context.Background(), 5*time.Second)
			_ = proto.RuntimeTerminateExecution{}.Call(page.Context(kctx))
			kcancel()
			return fail(fmt.Sprintf("the script did not finish within %d ms", limit.Milliseconds()))
		}
		return fail("the script could not run: " + err.Error())
	}
	if out.ExceptionDetails != nil {
		return fail(thrown(out.ExceptionDetails))
	}
	res.Value = tryValue(out.Result.Value, mask)
	res.DurationMs = time.Since(began).Milliseconds()
	return res
}

// wrapTried runs the script's function and turns its result into what
// can travel: {u} for undefined, {j} for JSON, {s} for the string form of
// anything JSON cannot hold (a function, an element, a BigInt, a cycle).
func wrapTried(fn string) string {
	return `async function(vars) {
  const v = await (async ` + fn + `)(vars);
  if (v === undefined) return {u: true};
  if (typeof v === "function" || typeof v === "symbol" || (typeof Node !== "undefined" && v instanceof Node)) return {s: String(v)};
  try {
    const j = JSON.stringify(v);
    return j === undefined ? {s: String(v)} : {j};
  } catch {
    return {s: String(v)};
  }
}`
}

// tryValue is the value wrapTried returned as JSON, masked.
func tryValue(v gson.JSON, mask func(string) string) json.RawMessage {
	var w struct {
		U bool    `json:"u"`
		J *string `json:"j"`
		S *string `json:"s"`
	}
	_ = json.Unmarshal([]byte(v.JSON("", "")), &w)
	switch {
	case w.J != nil:
		masked := mask(*w.J)
		if json.Valid([]byte(masked)) {
			return json.RawMessage(masked)
		}
		return jsonText(masked)
	case w.S != nil:
		return jsonText(mask(*w.S))
	}
	return json.RawMessage("null")
}

// jsonText is s as a JSON string, with <, > and & as they are.
func jsonText(s string) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}

// thrown is the message of what a script threw, without its stack.
func thrown(d *proto.RuntimeExceptionDetails) string {
	msg := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		msg = d.Exception.Description
	} else if d.Exception != nil && d.Exception.Value.Str() != "" {
		msg = d.Exception.Value.Str()
	}
	msg, _, _ = strings.Cut(msg, "\n    at ")
	return "the script threw: " + strings.TrimSpace(msg)
}

func consoleLevel(t proto.RuntimeConsoleAPICalledType) string {
	switch t {
	case proto.RuntimeConsoleAPICalledTypeWarning:
		return "warn"
	case proto.RuntimeConsoleAPICalledTypeError, proto.RuntimeConsoleAPICalledTypeAssert:
		return "error"
	case proto.RuntimeConsoleAPICalledTypeInfo:
		return "info"
	case proto.RuntimeConsoleAPICalledTypeDebug:
		return "debug"
	}
	return "log"
}

// consoleText renders console arguments as the DevTools console would,
// roughly: strings as they are, other values as JSON or their description.
func consoleText(args []*proto.RuntimeRemoteObject) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		switch {
		case a.Type == proto.RuntimeRemoteObjectTypeString:
			parts = append(parts, a.Value.Str())
		case a.Type == proto.RuntimeRemoteObjectTypeUndefined:
			parts = append(parts, "undefined")
		case a.UnserializableValue != "":
			parts = append(parts, string(a.UnserializableValue))
		case a.Preview != nil && a.Type == proto.RuntimeRemoteObjectTypeObject:
			parts = append(parts, previewText(a.Preview))
		case a.Description != "":
			parts = append(parts, a.Description)
		default:
			parts = append(parts, a.Value.JSON("", ""))
		}
	}
	return strings.Join(parts, " ")
}

// previewText renders an object's preview as {a: 1, b: "x"} or [1, 2].
func previewText(p *proto.RuntimeObjectPreview) string {
	var b strings.Builder
	array := p.Subtype == proto.RuntimeObjectPreviewSubtypeArray
	if array {
		b.WriteString("[")
	} else if p.Description != "Object" && p.Description != "" {
		return p.Description
	} else {
		b.WriteString("{")
	}
	for i, prop := range p.Properties {
		if i > 0 {
			b.WriteString(", ")
		}
		if !array {
			b.WriteString(prop.Name + ": ")
		}
		if prop.Type == proto.RuntimePropertyPreviewTypeString {
			b.WriteString(strconv.Quote(prop.Value))
		} else {
			b.WriteString(prop.Value)
		}
	}
	if p.Overflow {
		b.WriteString(", …")
	}
	if array {
		b.WriteString("]")
	} else {
		b.WriteString("}")
	}
	return b.String()
}

// cut shortens s to at most n bytes, on a character boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// freshPage opens a page in a new incognito context at url (about:blank
// when empty); done closes the context.
func (m *Manager) freshPage(ctx context.Context, url string, limit time.Duration) (*rod.Page, func(), error) {
	b, err := m.anyBrowser()
	if err != nil {
		return nil, nil, err
	}
	inc, err := b.rod.Incognito()
	if err != nil {
		m.idleCheck()
		return nil, nil, fmt.Errorf("cannot open a browser context: %w", err)
	}
	gctx, stopGuard := context.WithCancel(ctx) // the page's guard ends with it
	done := func() {
		stopGuard()
		_ = proto.TargetDisposeBrowserContext{BrowserContextID: inc.BrowserContextID}.Call(b.rod)
		m.idleCheck()
	}
	if why := protocol.CheckOpenURL(url); url != "" && why != "" {
		done()
		return nil, nil, fmt.Errorf("opening %s refused: %s", url, why)
	}
	page, err := inc.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		done()
		return nil, nil, fmt.Errorf("cannot open a browser page: %w", err)
	}
	var refusal firstRefusal
	if err := guard(gctx, page, refusal.add); err != nil {
		done()
		return nil, nil, fmt.Errorf("cannot prepare the page: %w", err)
	}
	if url == "" || url == "about:blank" {
		return page, done, nil
	}
	octx, cancel := context.WithTimeout(ctx, openTimeout)
	defer cancel()
	nav, err := proto.PageNavigate{URL: url}.Call(page.Context(octx))
	if err == nil && nav.ErrorText != "" {
		err = errors.New(nav.ErrorText)
	}
	if err == nil {
		err = page.Context(octx).WaitLoad()
	}
	if why := refusal.get(); why != "" {
		err = errors.New(why) // a redirect to a refused address: say so
	}
	if err != nil {
		done()
		return nil, nil, fmt.Errorf("cannot open %s: %v", url, err)
	}
	return page, done, nil
}
