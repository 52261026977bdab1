package author

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/input"
	"github.com/testautomation/ta/agent/runner"
	"github.com/testautomation/ta/protocol"
)

type discard struct{}

func (discard) Event(protocol.Event)                   {}
func (discard) Artifact(protocol.ArtifactInfo, []byte) {}

// TestRecordingReplays: what was recorded in a shadow root and in same-
// and cross-origin frames runs green in the runner's own browser, and
// every recorded locator is a working fallback.
func TestRecordingReplays(t *testing.T) {
	inner := `<!doctype html><label>Note <input id="note"></label>
<button onclick="this.textContent='hit ' + document.getElementById('note').value">Inner</button>`
	srv := site(t, map[string]string{
		"/inner.html": inner,
		"/top.html": `<!doctype html><div id="host"></div>
<script>const r = document.getElementById('host').attachShadow({mode:'open'}); r.innerHTML = '<button>Shadow</button>';
r.querySelector('button').onclick = e => e.target.textContent = 'Shadow done'</script>
<iframe id="same" src="/inner.html" style="height:80px"></iframe>
<iframe id="cross" title="Cross" src="{{other}}/inner.html" style="height:80px"></iframe>`,
	})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/top.html")
	p.MustElement("#host").MustShadowRoot().MustElement("button").MustClick()
	cross := p.MustElement("#cross").MustFrame()
	cross.MustElement("#note").MustClick()
	p.Keyboard.MustType([]input.Key("xo")...)
	cross.MustElement("button").MustClick()
	cross.MustElementR("button", "hit xo")
	same := p.MustElement("#same").MustFrame()
	same.MustElement("button").MustClick()
	same.MustElementR("button", "hit")
	steps := out.waitSteps(t, "navigate,click,fill,click,click")

	b, err := runner.Launch(context.Background(), runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	run := func(steps []protocol.Step) protocol.RunResult {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		return b.Run(ctx, protocol.Job{RunID: "r", Document: protocol.Document{DSL: protocol.DSLVersion, Name: "recorded", Steps: steps}}, discard{})
	}
	if res := run(steps); res.Status != "passed" {
		j, _ := json.MarshalIndent(steps, "", " ")
		t.Fatalf("replay %s: %s\n%s", res.Status, res.Error, j)
	}
	// Each fallback alone finds its element too.
	for i, st := range steps {
		if st.Target == nil {
			continue
		}
		for _, l := range st.Target.Locators[1:] {
			one := st
			one.Target = &protocol.Target{Locators: []protocol.Locator{l}, Frame: st.Target.Frame}
			prefix := append([]protocol.Step{}, steps[:i]...)
			if res := run(append(prefix, one)); res.Status != "passed" {
				t.Errorf("step %d (%s) with only %+v: %s", i, st.Type, l, res.Error)
			}
		}
	}
}
