package dispatch

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/testautomation/ta/protocol"
)

func TestMasker(t *testing.T) {
	m := newMasker(map[string]string{"PW": "hunter2", "LONG": "hunter2-and-more", "SHORT": "ab"})
	e := protocol.Event{Error: "typed hunter2-and-more into #pw; hunter2 rejected", Message: "ab stays", Name: "hunter2.png",
		HealedBy: &protocol.Locator{Kind: "css", Value: "[value=hunter2]"}}
	m.event(&e)
	if e.Error != "typed *** into #pw; *** rejected" || e.Message != "ab stays" || e.Name != "***.png" || e.HealedBy.Value != "[value=***]" {
		t.Errorf("masked event: %+v %+v", e, e.HealedBy)
	}
	r := protocol.RunResult{Error: "hunter2", Steps: []protocol.StepResult{{Error: "x hunter2 y"}}}
	m.result(&r)
	if r.Error != "***" || r.Steps[0].Error != "x *** y" {
		t.Errorf("masked result: %+v", r)
	}
	// A step's used values, from an agent that did not mask them.
	e = protocol.Event{Used: protocol.Used{"value": "hunter2", "url": "https://x.test/?pw=hunter2"}}
	m.event(&e)
	r = protocol.RunResult{Steps: []protocol.StepResult{{Used: protocol.Used{"expected": "Hi hunter2"}}}}
	m.result(&r)
	if e.Used["value"] != "***" || e.Used["url"] != "https://x.test/?pw=***" || r.Steps[0].Used["expected"] != "Hi ***" {
		t.Errorf("masked used values: %v %v", e.Used, r.Steps[0].Used)
	}
	var none *masker
	if none.str("hunter2") != "hunter2" || newMasker(nil).str("a") != "a" {
		t.Error("a masker without secrets changes nothing")
	}
}

// What an agent sends back is masked in every encoded form of a secret,
// even when the agent did not mask it (a modified agent, or a form the
// agent missed).
func TestMaskerEncodings(t *testing.T) {
	const v = `p@ss w/rd+"<x>&'!~*()`
	m := newMasker(map[string]string{"S": v, "SHORT": "ab"})
	jsonHTML, _ := json.Marshal(v)
	b64 := func(e *base64.Encoding, s string) string { return e.EncodeToString([]byte(s)) }
	for _, tc := range []struct{ name, form string }{
		{"raw", v},
		{"url.QueryEscape", url.QueryEscape(v)},
		{"url.PathEscape", url.PathEscape(v)},
		{"encodeURIComponent", `p%40ss%20w%2Frd%2B%22%3Cx%3E%26'!~*()`},
		{"json.Marshal", string(jsonHTML[1 : len(jsonHTML)-1])},
		{"JSON.stringify", `p@ss w/rd+\"<x>&'!~*()`},
		{"base64 StdEncoding", b64(base64.StdEncoding, v)},
		{"base64 URLEncoding", b64(base64.URLEncoding, v)},
		{"base64 RawStdEncoding", b64(base64.RawStdEncoding, v)},
		{"base64 RawURLEncoding", b64(base64.RawURLEncoding, v)},
	} {
		e := protocol.Event{Error: "got " + tc.form + " here", Message: tc.form}
		m.event(&e)
		r := protocol.RunResult{Error: tc.form, Steps: []protocol.StepResult{{Error: "x " + tc.form}}}
		m.result(&r)
		if e.Error != "got *** here" || e.Message != "***" || r.Error != "***" || r.Steps[0].Error != "x ***" {
			t.Errorf("%s: %q masked as %q, %q, %q, %q", tc.name, tc.form, e.Error, e.Message, r.Error, r.Steps[0].Error)
		}
	}
	for _, prefix := range []string{"u:", "us:", "user:"} {
		basic := "Basic " + b64(base64.StdEncoding, prefix+v)
		if got := m.str(basic); got == basic || !strings.Contains(got, "***") {
			t.Errorf("%q is not masked: %q", basic, got)
		}
	}
	// Values under 3 characters are not masked, nor their encodings.
	if got := m.str("ab YWI= YWI"); got != "ab YWI= YWI" {
		t.Errorf("a short value masked: %q", got)
	}
}

// Cleaning an agent's text takes characters out; a secret split by them
// ("h\x00u\x00n..." from UTF-16, a carriage return, an escape sequence)
// must not come back whole: the hub cleans first, then masks, in every
// text field of events and results.
func TestMaskAfterCleaning(t *testing.T) {
	m := newMasker(map[string]string{"S": "hunter22"})
	for _, in := range []string{"h\x00u\x00n\x00t\x00e\x00r\x002\x002\x00", "hun\rter22", "hun\x1bter22", "hunter\x0022"} {
		e := protocol.Event{StepID: in, StepType: in, Status: in, Level: in, Message: in, Error: in, Name: in,
			HealedBy: &protocol.Locator{Kind: in, Value: in, Name: in}}
		m.event(&e)
		r := protocol.RunResult{Status: in, Error: in, Steps: []protocol.StepResult{{ID: in, Type: in, Status: in, Error: in, Screenshot: in}}}
		m.result(&r)
		all := fmt.Sprintf("%+v %+v %+v %+v", e, *e.HealedBy, r, r.Steps[0])
		if strings.Contains(all, "hunter22") || strings.ContainsRune(all, 0) {
			t.Errorf("%q came through as %s", in, all)
		}
	}
	// A long text is cut after masking: no half secret at the cut.
	long := strings.Repeat("x", maxText-4) + "hunter22"
	if got := m.scrub(long); strings.Contains(got, "hunt") {
		t.Errorf("cut left part of a secret: %q", got[len(got)-60:])
	}
}
