package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// suitePage is the fixture the exported spec runs against: dialogs, popup
// tabs, a file input, a draggable card, mouse buttons, a form.
const suitePage = `<!doctype html><html><head><title>Fixture</title>
<style>body { margin: 0 } #pad { width: 200px; height: 80px; background: #eee } #shiftme { padding: 0; border: 0 }</style>
</head><body>
<h1>Fixture page</h1>
<button id="delete" onclick="if (confirm('Delete 3 items?')) result.textContent = 'deleted'">Delete</button>
<button id="ask" onclick="answer.textContent = prompt('Your name?')">Ask</button>
<p id="result"></p><p id="answer"></p>
<a href="/help" target="_blank">Open help</a>
<button id="open" onclick="window.open('/help')">Open help in a popup</button>
<label>Attachment <input type="file" id="file" onchange="picked.textContent = this.files[0].name + ' ' + this.files[0].size"></label>
<p id="picked"></p>
<div id="card" draggable="true">Card</div>
<div id="done" data-testid="done" style="min-height: 40px">Done:</div>
<button id="row3">Row 3</button><p id="menu"></p>
<span id="shiftme">Shift me</span>
<div id="pad"></div>
<label><input type="checkbox" id="terms" checked> Terms</label>
<label><input type="checkbox" id="news"> Newsletter</label>
<label>Code <input id="code" disabled></label>
<label>Readonly <input id="ro" readonly value="fixed"></label>
<label>Copy <input id="copy"></label>
<label>Country <select id="country"><option value="fr">France</option><option value="be" selected>Belgium</option></select></label>
<a id="docs" href="/docs/start" data-kind="guide">Docs</a>
<ul><li>one</li><li>two</li><li>three</li></ul>
<button id="later" disabled>Later</button>
<script>
  setTimeout(() => later.disabled = false, 300);
  card.addEventListener('dragstart', (e) => e.dataTransfer.setData('text/plain', 'Card'));
  done.addEventListener('dragover', (e) => e.preventDefault());
  done.addEventListener('drop', (e) => { e.preventDefault(); done.textContent += ' ' + e.dataTransfer.getData('text/plain'); });
  row3.addEventListener('contextmenu', (e) => { e.preventDefault(); menu.textContent = 'menu for Row 3'; });
  shiftme.addEventListener('click', (e) => shiftme.textContent = (e.shiftKey ? 'shift at ' : 'plain at ') + e.offsetX);
  pad.addEventListener('mousedown', (e) => pad.textContent += 'down@' + e.offsetX + ' ');
  pad.addEventListener('mouseup', (e) => pad.textContent += 'up@' + e.offsetX);
  document.cookie = 'sid=abc123; path=/';
</script>
</body></html>`

// suiteServer serves the fixture page, a help page and a small JSON API;
// /api/me answers the sid cookie it gets, to show requests share them.
func suiteServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, suitePage)
	})
	mux.HandleFunc("/help", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><meta name="viewport" content="width=device-width"><title>Help</title><h1>Help</h1>`)
	})
	mux.HandleFunc("POST /api/items", func(w http.ResponseWriter, r *http.Request) {
		var in struct{ Name string }
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || r.Header.Get("X-Token") != "t0k" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(map[string]any{"id": 42, "name": in.Name, "tags": []string{"a", "b"}})
	})
	mux.HandleFunc("GET /api/me", func(w http.ResponseWriter, r *http.Request) {
		sid := ""
		if c, err := r.Cookie("sid"); err == nil {
			sid = c.Value
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"sid": sid})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// suiteDocument uses every step type and option of issue 28.
func suiteDocument() Document {
	n := 0
	step := func(s Step) Step {
		n++
		s.ID = fmt.Sprintf("s%d", n)
		return s
	}
	text := func(sel, want string) Step {
		return step(Step{Type: "assertText", Target: el(sel), Expected: Ptr(want)})
	}
	title := func(want string) Step {
		return step(Step{Type: "assertTitle", Expected: Ptr(want), Match: "equals"})
	}
	steps := []Step{
		step(Step{Type: "navigate", URL: "/"}),
		step(Step{Type: "setViewport", Width: 900, Height: 700}),
		step(Step{Type: "log", Message: "Signing up ${user}"}),
		step(Step{Type: "dialog", Action: "accept", Expected: Ptr("Delete 3 items?"), Match: "equals"}),
		step(Step{Type: "click", Target: el("#delete")}),
		text("#result", "deleted"),
		step(Step{Type: "dialog", Action: "accept", Text: Ptr("${user}"), Expected: Ptr("name")}),
		step(Step{Type: "click", Target: el("#ask")}),
		text("#answer", "ada"),
		step(Step{Type: "upload", Target: &Target{Locators: []Locator{{Kind: "label", Value: "Attachment"}}}, Files: []string{"fil_report1"}}),
		text("#picked", "report.txt 5"),
		step(Step{Type: "dragTo", Target: el("#card"), ToTarget: &Target{Locators: []Locator{{Kind: "testId", Value: "done"}}}}),
		text("#done", "Done: Card"),
		step(Step{Type: "click", Target: el("#row3"), Button: "right"}),
		text("#menu", "menu for Row 3"),
		step(Step{Type: "click", Target: el("#shiftme"), Modifiers: []string{"Shift"}, Position: &Position{X: 5, Y: 5}}),
		text("#shiftme", "shift at 5"),
		step(Step{Type: "mouse", Action: "down", Target: el("#pad"), Position: &Position{X: 10, Y: 10}}),
		step(Step{Type: "mouse", Action: "move", Target: el("#pad"), Position: &Position{X: 60, Y: 20}}),
		step(Step{Type: "mouse", Action: "up"}),
		step(Step{Type: "mouse", Action: "move", Position: &Position{X: 1, Y: 1}}),
		text("#pad", "down@10 up@60"),
		step(Step{Type: "assertChecked", Target: el("#terms")}),
		step(Step{Type: "assertChecked", Target: el("#news"), Checked: Ptr(false)}),
		step(Step{Type: "assertEnabled", Target: el("#code"), Enabled: Ptr(false)}),
		step(Step{Type: "waitFor", Target: el("#later"), State: "enabled"}),
		step(Step{Type: "assertEnabled", Target: el("#later"), Soft: true}),
		step(Step{Type: "assertEditable", Target: el("#ro"), Editable: Ptr(false)}),
		step(Step{Type: "waitFor", Target: el("#ro"), State: "readonly"}),
		step(Step{Type: "assertAttribute", Target: el("#docs"), Name: "href", Expected: Ptr("/docs/")}),
		step(Step{Type: "assertAttribute", Target: el("#docs"), Name: "data-kind", Expected: Ptr("api"), Match: "equals", Not: true}),
		step(Step{Type: "assertCount", Target: el("li"), Count: Ptr(3)}),
		step(Step{Type: "assertSelected", Target: el("#country"), Expected: Ptr("Belgium")}),
		step(Step{Type: "assertSelected", Target: el("#country"), Expected: Ptr("be"), By: "value"}),
		step(Step{Type: "assertText", Target: el("h1"), Expected: Ptr("Draft"), Not: true, Soft: true}),
		step(Step{Type: "assertTitle", Expected: Ptr("^Fix"), Match: "regex"}),
		step(Step{Type: "assertUrl", Expected: Ptr("/help"), Not: true}),
		step(Step{Type: "setVariable", Name: "pageTitle", From: "title"}),
		step(Step{Type: "setVariable", Name: "href", Target: el("#docs"), From: "attribute", Attribute: "href"}),
		step(Step{Type: "setVariable", Name: "items", Target: el("li"), From: "count"}),
		step(Step{Type: "setVariable", Name: "fixed", Target: el("#ro"), From: "value"}),
		step(Step{Type: "setVariable", Name: "country", Target: el("#country"), From: "selectedLabel"}),
		step(Step{Type: "setVariable", Name: "here", From: "url"}),
		step(Step{Type: "assertVariable", Name: "pageTitle", Expected: Ptr("Fixture"), Match: "equals"}),
		step(Step{Type: "assertVariable", Name: "href", Expected: Ptr("/docs/start"), Match: "equals"}),
		step(Step{Type: "assertVariable", Name: "items", Expected: Ptr("3"), Match: "equals"}),
		step(Step{Type: "assertVariable", Name: "fixed", Expected: Ptr("fixed"), Match: "equals"}),
		step(Step{Type: "assertVariable", Name: "country", Expected: Ptr("Belgium"), Match: "equals"}),
		step(Step{Type: "assertVariable", Name: "here", Expected: Ptr("^http://127\\.0\\.0\\.1:\\d+/$"), Match: "regex"}),
		step(Step{Type: "script", Code: "await new Promise((done) => setTimeout(done, 10));\nreturn document.title + ' ' + ${user};", Assign: "waited"}),
		step(Step{Type: "assertVariable", Name: "waited", Expected: Ptr("Fixture ada"), Match: "equals"}),
		step(Step{Type: "request", Method: "POST", URL: "/api/items", Headers: map[string]string{"Content-Type": "application/json", "X-Token": "${secrets.TOKEN}"},
			Body: Ptr(`{"name": "${user}"}`), ExpectStatus: 201, Assign: "created"}),
		step(Step{Type: "assertVariable", Name: "created.status", Expected: Ptr("201"), Match: "equals"}),
		step(Step{Type: "assertVariable", Name: "created.body.name", Expected: Ptr("ada"), Match: "equals"}),
		step(Step{Type: "assertVariable", Name: "created.body.tags.1", Expected: Ptr("b"), Match: "equals"}),
		step(Step{Type: "script", Code: "return ${created.body.id} + 1 + ${created.body.tags.0};", Assign: "next"}),
		step(Step{Type: "assertVariable", Name: "next", Expected: Ptr("43a"), Match: "equals"}),
		step(Step{Type: "fill", Target: el("#copy"), Value: Ptr("${created.body.id}")}),
		step(Step{Type: "assertValue", Target: el("#copy"), Expected: Ptr("#${created.body.id}"), Match: "regex", Not: true}),
		step(Step{Type: "assertValue", Target: el("#copy"), Expected: Ptr("id ${created.body.id}"), Not: true}),
		step(Step{Type: "request", URL: "/api/me", ExpectStatus: 200, Assign: "me"}),
		step(Step{Type: "assertVariable", Name: "me.body.sid", Expected: Ptr("abc123"), Match: "equals"}),
		step(Step{Type: "request", Method: "GET", URL: "/api/me"}),
		// A tab opened by a step, taken a step later.
		step(Step{Type: "click", Target: &Target{Locators: []Locator{{Kind: "role", Value: "link", Name: "Open help"}}}}),
		text("h1", "Fixture"),
		step(Step{Type: "switchTab", To: "new"}),
		title("Help"),
		step(Step{Type: "closeTab"}),
		title("Fixture"),
		step(Step{Type: "click", Target: el("#open")}),
		step(Step{Type: "switchTab", To: "match", Title: "Help", Match: "equals"}),
		step(Step{Type: "assertUrl", Expected: Ptr("/help")}),
		step(Step{Type: "switchTab", To: "opener"}),
		title("Fixture"),
		step(Step{Type: "switchTab", To: "index", Index: Ptr(1)}),
		title("Help"),
		step(Step{Type: "closeTab"}),
		title("Fixture"),
		step(Step{Type: "navigate", URL: "/help"}),
		step(Step{Type: "goBack"}),
		title("Fixture"),
		step(Step{Type: "goForward"}),
		title("Help"),
		step(Step{Type: "reload"}),
		title("Help"),
		step(Step{Type: "dialog", Action: "dismiss"}),
		step(Step{Type: "script", Code: "alert('bye')"}),
	}
	return Document{DSL: 2, Name: "Every new step", Variables: map[string]string{"user": "ada"}, Steps: steps}
}

// TestSuiteStepsRunInPlaywright (issue 28): the export of a test using
// every new step type runs green in real Playwright against a local page,
// unchanged; with a device, the whole file uses the device's profile.
func TestSuiteStepsRunInPlaywright(t *testing.T) {
	doc := suiteDocument()
	if issues := doc.Validate(); len(issues) > 0 {
		t.Fatalf("the document does not validate: %v", issues)
	}
	srv := suiteServer(t)
	pw := newPlaywrightDir(t)
	files := filepath.Join(pw.dir, "files")
	must(t, os.Mkdir(files, 0o755))
	must(t, os.WriteFile(filepath.Join(files, "report.txt"), []byte("hello"), 0o644))
	spec := RenderPlaywrightOptions(doc, PlaywrightOptions{FileName: func(id string) (string, bool) {
		return map[string]string{"fil_report1": "report.txt"}[id], id == "fil_report1"
	}})
	pw.spec("suite", spec)
	device := Document{DSL: 2, Name: "On a phone", Steps: []Step{
		{ID: "s1", Type: "navigate", URL: "/help"},
		{ID: "s2", Type: "script", Code: "return window.innerWidth + ' ' + navigator.maxTouchPoints;", Assign: "screen"},
		{ID: "s3", Type: "assertVariable", Name: "screen", Expected: Ptr("412 1"), Match: "equals"},
	}}
	pw.spec("device", RenderPlaywrightOptions(device, PlaywrightOptions{Device: "Pixel 7"}))
	out := pw.run(srv.URL, "TOKEN=t0k")
	if !strings.Contains(out, "Signing up ada") {
		t.Errorf("the log step printed nothing:\n%s", out)
	}
}

// playwrightDir is a folder of exported specs that real Playwright Test
// (web/node_modules) runs in Debian's Chromium.
type playwrightDir struct {
	t                  *testing.T
	node, cli, browser string
	dir                string
	specs              map[string]string
}

// newPlaywrightDir skips the test when node, @playwright/test or Chromium
// is missing, except in CI (make test installs web/ first), where it fails.
func newPlaywrightDir(t *testing.T) *playwrightDir {
	t.Helper()
	missing := func(what string) {
		t.Helper()
		if os.Getenv("CI") != "" {
			t.Fatal(what)
		}
		t.Skip(what)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	modules, _ := filepath.Abs("../web/node_modules")
	cli := filepath.Join(modules, "@playwright", "test", "cli.js")
	if _, err := os.Stat(cli); err != nil {
		missing("@playwright/test is not installed: run npm ci in web/")
	}
	chromium := os.Getenv("CHROMIUM_PATH")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		missing("no Chromium at " + chromium)
	}
	dir := t.TempDir()
	must(t, os.Symlink(modules, filepath.Join(dir, "node_modules")))
	return &playwrightDir{t: t, node: node, cli: cli, browser: chromium, dir: dir, specs: map[string]string{}}
}

// spec adds an exported script as name.spec.ts.
func (p *playwrightDir) spec(name, script string) {
	p.t.Helper()
	p.specs[name] = script
	must(p.t, os.WriteFile(filepath.Join(p.dir, name+".spec.ts"), []byte(script), 0o644))
}

// run runs every spec against baseURL, with env added to the environment,
// and fails the test unless all pass; it answers Playwright's output.
func (p *playwrightDir) run(baseURL string, env ...string) string {
	p.t.Helper()
	config := `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: '.',
  timeout: 60000,
  workers: 1,
  reporter: 'line',
  use: {
    browserName: 'chromium',
    baseURL: ` + jsQuote(baseURL) + `,
    launchOptions: { executablePath: ` + jsQuote(p.browser) + `, args: ['--no-sandbox', '--disable-gpu'] },
  },
});
`
	must(p.t, os.WriteFile(filepath.Join(p.dir, "playwright.config.ts"), []byte(config), 0o644))
	cmd := exec.Command(p.node, p.cli, "test", "--config", filepath.Join(p.dir, "playwright.config.ts"))
	cmd.Dir = p.dir
	cmd.Env = append(append(os.Environ(), env...), "PLAYWRIGHT_BROWSERS_PATH="+filepath.Join(p.dir, "browsers"), "CI=1", "FORCE_COLOR=0")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	done := make(chan error, 1)
	must(p.t, cmd.Start())
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(3 * time.Minute):
		_ = cmd.Process.Kill()
		err = <-done
	}
	if want := fmt.Sprintf("%d passed", len(p.specs)); err != nil || !strings.Contains(out.String(), want) {
		var specs strings.Builder
		for name, s := range p.specs {
			fmt.Fprintf(&specs, "\n--- %s.spec.ts\n%s", name, s)
		}
		p.t.Fatalf("playwright: %v (want %s)\n%s%s", err, want, out.String(), specs.String())
	}
	return out.String()
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
