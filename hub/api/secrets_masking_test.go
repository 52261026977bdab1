package api

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// A script that returns its secret encoded (encodeURIComponent, btoa, JSON)
// into a failing step's message: neither the run's result nor its events
// nor the hub's log hold any of those forms.
func TestEncodedSecretsAreMasked(t *testing.T) {
	f := newRunFixture(t)
	const secret = `s3cr3t p@ss/w+rd?"<&>'!~*()`
	f.user.projectDo(f.o.project, "POST", "/api/secrets", map[string]any{"environmentId": f.env, "name": "TRICKY", "value": secret}).want(t, 201)
	d := map[string]any{"dsl": 2, "name": "Encodes", "steps": []map[string]any{
		{"id": "open", "type": "navigate", "url": "${baseUrl}/login.html"},
		{"id": "enc", "type": "script", "assign": "enc", "code": `const s = ${secrets.TRICKY};
return [encodeURIComponent(s), btoa(s), btoa("user:" + s), JSON.stringify(s)].join(" | ");`},
		{"id": "leak", "type": "assertTitle", "expected": "${enc}", "timeoutMs": 200},
	}}
	runID := f.start(t, d, map[string]any{"screenshots": false})
	events := f.user.sse(t, runID)
	run := f.user.do("GET", "/api/runs/"+runID, nil).want(t, 200)
	var rj runJSON
	_ = json.Unmarshal(run.body, &rj)
	if rj.Status != "failed" || len(rj.Result.Steps) != 3 {
		t.Fatalf("run: %s", run.body)
	}
	if !strings.Contains(rj.Result.Steps[2].Error, "***") {
		t.Errorf("nothing masked in %q", rj.Result.Steps[2].Error)
	}
	// Decoded texts, since JSON escapes some characters of the forms.
	texts := []string{string(run.body), f.h.logs.String(), rj.Error}
	for _, s := range rj.Result.Steps {
		texts = append(texts, s.Error)
	}
	for _, e := range events {
		texts = append(texts, e.Error, e.Message, e.Name)
	}
	all := strings.Join(texts, "\n")
	js, _ := json.Marshal(secret)
	b64 := func(e *base64.Encoding, s string) string { return e.EncodeToString([]byte(s)) }
	for name, form := range map[string]string{
		"raw":                secret,
		"encodeURIComponent": `s3cr3t%20p%40ss%2Fw%2Brd%3F%22%3C%26%3E'!~*()`,
		"url.QueryEscape":    url.QueryEscape(secret),
		"url.PathEscape":     url.PathEscape(secret),
		"JSON":               string(js[1 : len(js)-1]),
		"JSON.stringify":     `s3cr3t p@ss/w+rd?\"<&>'!~*()`,
		// the step's message quotes the expected text: an escape of an escape
		"JSON.stringify, quoted": `s3cr3t p@ss/w+rd?\\\"<&>'!~*()`,
		"btoa":                   b64(base64.StdEncoding, secret),
		"btoa raw":               b64(base64.RawStdEncoding, secret),
		// the characters of btoa("user:" + secret) that encode the secret alone
		"btoa user: (middle)": b64(base64.StdEncoding, "user:"+secret)[8:32],
	} {
		if strings.Contains(all, form) {
			t.Errorf("the %s form %q of the secret leaked:\n%s", name, form, rj.Result.Steps[2].Error)
		}
	}
}
