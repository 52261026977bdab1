package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// What a trace records of the page comes as DevTools events of the run's
// pages (Runtime and Network are enabled on them only when the run is
// traced: traceRequests). Browser.observe hands them to traceEvent on the
// connection's reader, before the answers that follow them: so what a page
// logged or requested while a step ran is recorded when the step's last
// call returns. It must never block: it decodes, and appends under a mutex
// held for no call.

var (
	traceConsole   = []byte(`{"method":"Runtime.consoleAPICalled"`)
	traceException = []byte(`{"method":"Runtime.exceptionThrown"`)
	// traceNetwork are the Network events tracer.network reads: the
	// others (a response's every chunk, the headers' extra info) are left
	// before they are decoded, on the reader every answer waits for.
	traceNetwork = [][]byte{[]byte(`{"method":"Network.requestWillBeSent"`), []byte(`{"method":"Network.responseReceived"`),
		[]byte(`{"method":"Network.loadingFinished"`), []byte(`{"method":"Network.loadingFailed"`)}
)

// traceNetworkEvent says whether data is a Network event the trace reads.
func traceNetworkEvent(data []byte) bool {
	for _, p := range traceNetwork {
		if bytes.HasPrefix(data, p) {
			return true
		}
	}
	return false
}

// traceRequests turn on, in a page's session, the events a trace records.
// The browser passes a request's body to the event up to traceMaxPost (the
// trace keeps only its length), and keeps no answer's body for DevTools
// (buffers of 0 bytes): bodies are never read.
func traceRequests() []wireRequest {
	maxPost, none := traceMaxPost, 0
	return []wireRequest{
		{"Runtime.enable", proto.RuntimeEnable{}},
		{"Network.enable", proto.NetworkEnable{MaxPostDataSize: &maxPost, MaxTotalBufferSize: &none, MaxResourceBufferSize: &none}},
	}
}

const traceMaxPost = 64 << 10

// traceEvent records the event data for the traced run of its page, if any.
func (b *Browser) traceEvent(data []byte) {
	if !traceNetworkEvent(data) && !bytes.HasPrefix(data, traceConsole) &&
		!bytes.HasPrefix(data, traceException) && !bytes.HasPrefix(data, logEntry) && !bytes.HasPrefix(data, traceContext) {
		return
	}
	var e struct {
		Method    string          `json:"method"`
		SessionID string          `json:"sessionId"`
		Params    json.RawMessage `json:"params"`
	}
	if json.Unmarshal(data, &e) != nil {
		return
	}
	t, ok := b.tabs.Load(e.SessionID)
	if !ok {
		return
	}
	tr := t.(*tab).trace.Load()
	if tr == nil {
		return
	}
	now := time.Now()
	switch {
	case strings.HasPrefix(e.Method, "Runtime.executionContext"):
		tr.worldEvent(e.SessionID, string(t.(*tab).target), e.Method, e.Params)
	case e.Method == "Runtime.consoleAPICalled":
		var c proto.RuntimeConsoleAPICalled
		if json.Unmarshal(e.Params, &c) == nil {
			tr.console(consoleEntry(c), now)
		}
	case e.Method == "Runtime.exceptionThrown":
		var x proto.RuntimeExceptionThrown
		if json.Unmarshal(e.Params, &x) == nil && x.ExceptionDetails != nil {
			tr.console(exceptionEntry(x.ExceptionDetails), now)
		}
	case e.Method == "Log.entryAdded":
		var l proto.LogEntryAdded
		if json.Unmarshal(e.Params, &l) == nil && l.Entry != nil {
			level := string(l.Entry.Level)
			if level == "verbose" {
				level = "debug"
			}
			tr.console(protocol.ConsoleEntry{Level: level, Source: "browser", Text: l.Entry.Text,
				URL: l.Entry.URL, Line: oneBased(l.Entry.LineNumber)}, now)
		}
	default:
		tr.network(e.SessionID, e.Method, e.Params, now)
	}
}

// oneBased turns DevTools' 0-based line or column into a person's; nil
// stays 0 (unknown).
func oneBased(n *int) int {
	if n == nil {
		return 0
	}
	return *n + 1
}

// consoleLevels maps console API call types to a trace's levels.
var consoleLevels = map[proto.RuntimeConsoleAPICalledType]string{
	"debug": "debug", "info": "info", "warning": "warning", "error": "error", "assert": "error",
}

// consoleEntry is a console.* call, its text as a console prints it.
func consoleEntry(c proto.RuntimeConsoleAPICalled) protocol.ConsoleEntry {
	level := consoleLevels[c.Type]
	if level == "" {
		level = "log"
	}
	e := protocol.ConsoleEntry{Level: level, Source: "console", Text: consoleText(c.Args)}
	if c.Type == "assert" {
		e.Text = strings.TrimSpace("Assertion failed: " + e.Text)
	}
	if c.StackTrace != nil && len(c.StackTrace.CallFrames) > 0 {
		f := c.StackTrace.CallFrames[0]
		e.URL, e.Line, e.Column = f.URL, f.LineNumber+1, f.ColumnNumber+1
	}
	return e
}

// exceptionEntry is an uncaught error or an unhandled rejection:
// "Uncaught Error: boom" and its stack, where it was thrown.
func exceptionEntry(d *proto.RuntimeExceptionDetails) protocol.ConsoleEntry {
	text := d.Text
	if x := d.Exception; x != nil {
		what := x.Description
		if what == "" {
			what = remoteText(x)
		}
		text = strings.TrimSpace(text + " " + what)
	}
	e := protocol.ConsoleEntry{Level: "error", Source: "exception", Text: text, URL: d.URL,
		Line: d.LineNumber + 1, Column: d.ColumnNumber + 1}
	if e.URL == "" && d.StackTrace != nil && len(d.StackTrace.CallFrames) > 0 {
		f := d.StackTrace.CallFrames[0]
		e.URL, e.Line, e.Column = f.URL, f.LineNumber+1, f.ColumnNumber+1
	}
	return e
}

// consoleText joins a console call's arguments as a console prints them,
// a first string's %s, %d, %i, %f, %o, %O and %c taking the ones after it.
func consoleText(args []*proto.RuntimeRemoteObject) string {
	if len(args) == 0 {
		return ""
	}
	var parts []string
	rest := args
	if first := args[0]; first.Type == proto.RuntimeRemoteObjectTypeString {
		f := first.Value.Str()
		rest = args[1:]
		var b strings.Builder
		for i := 0; i < len(f); i++ {
			if f[i] != '%' || i+1 == len(f) {
				b.WriteByte(f[i])
				continue
			}
			switch c := f[i+1]; c {
			case 's', 'd', 'i', 'f', 'o', 'O', 'c':
				i++
				if len(rest) == 0 {
					b.WriteByte('%')
					b.WriteByte(c)
					continue
				}
				a := rest[0]
				rest = rest[1:]
				switch c {
				case 'c': // CSS: not text
				case 'd', 'i':
					if a.Type == proto.RuntimeRemoteObjectTypeNumber {
						b.WriteString(strconv.FormatInt(int64(a.Value.Num()), 10))
					} else {
						b.WriteString("NaN")
					}
				default:
					b.WriteString(remoteText(a))
				}
			case '%':
				i++
				b.WriteByte('%')
			default:
				b.WriteByte('%')
			}
		}
		parts = append(parts, b.String())
	}
	for _, a := range rest {
		parts = append(parts, remoteText(a))
	}
	return strings.Join(parts, " ")
}

// remoteText words a value as a console shows it: strings as they are,
// objects by their preview ({a: 1, b: "x"}) or description.
func remoteText(o *proto.RuntimeRemoteObject) string {
	switch {
	case o == nil:
		return ""
	case o.Type == proto.RuntimeRemoteObjectTypeString:
		return o.Value.Str()
	case o.Type == proto.RuntimeRemoteObjectTypeUndefined:
		return "undefined"
	case o.UnserializableValue != "":
		return string(o.UnserializableValue)
	case o.Subtype == proto.RuntimeRemoteObjectSubtypeNull:
		return "null"
	case o.Type == proto.RuntimeRemoteObjectTypeObject && o.Subtype != proto.RuntimeRemoteObjectSubtypeError && o.Preview != nil:
		return previewText(o.Preview)
	case o.Description != "":
		return o.Description
	}
	return o.Value.JSON("", "")
}

func previewText(p *proto.RuntimeObjectPreview) string {
	var items []string
	array := p.Subtype == proto.RuntimeObjectPreviewSubtypeArray
	for _, pr := range p.Properties {
		v := pr.Value
		if pr.Type == proto.RuntimePropertyPreviewTypeString {
			v = strconv.Quote(v)
		}
		if array {
			items = append(items, v)
		} else {
			items = append(items, pr.Name+": "+v)
		}
	}
	more := ""
	if p.Overflow {
		more = ", …"
	}
	if array {
		return "[" + strings.Join(items, ", ") + more + "]"
	}
	name := ""
	if p.Description != "" && p.Description != "Object" {
		name = p.Description + " "
	}
	return fmt.Sprintf("%s{%s%s}", name, strings.Join(items, ", "), more)
}

// failureName words why a request failed (docs/trace.md "Network").
func failureName(errorText string, canceled bool, blocked string, cors bool) string {
	switch {
	case blocked != "" || strings.HasPrefix(errorText, "net::ERR_BLOCKED"):
		return "blocked" // the runner's guard fails requests as blocked by the client
	case cors:
		return "cors"
	case canceled || errorText == "net::ERR_ABORTED":
		return "aborted"
	}
	switch errorText {
	case "net::ERR_NAME_NOT_RESOLVED", "net::ERR_NAME_RESOLUTION_FAILED":
		return "dns"
	case "net::ERR_CONNECTION_REFUSED":
		return "refused"
	case "net::ERR_TIMED_OUT", "net::ERR_CONNECTION_TIMED_OUT":
		return "timeout"
	}
	if errorText == "" {
		return "failed"
	}
	return errorText
}
