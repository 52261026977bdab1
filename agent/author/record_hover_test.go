package author

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/agent/runner"
	"github.com/testautomation/ta/protocol"
)

// replayGreen runs recorded steps in the runner's own browser, as a saved
// test runs, and fails the test unless they pass.
func replayGreen(t *testing.T, steps []protocol.Step) {
	t.Helper()
	b, err := runner.Launch(context.Background(), runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	doc := protocol.Document{DSL: protocol.DSLVersion, Name: "recorded", Steps: steps}
	if issues := doc.Validate(); len(issues) > 0 {
		t.Fatalf("the recording is no valid document: %+v", issues)
	}
	res := b.Run(ctx, protocol.Job{RunID: "r", Document: doc}, discard{})
	if res.Status != protocol.RunPassed {
		j, _ := json.MarshalIndent(steps, "", " ")
		t.Fatalf("replay %s: %s %s\n%s", res.Status, res.Error, qFailure(res), j)
	}
}

// TestRecordNestedHoverMenu: in a CSS menu two levels deep
// (.menu:hover > .submenu), a click on an item of the inner submenu is
// recorded after a hover on each menu item whose hover revealed it,
// outermost first, not on the submenu item the pointer was over; and the
// recording replays green.
func TestRecordNestedHoverMenu(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html><style>
ul { list-style: none; margin: 0; padding: 0 } .menu { position: relative; display: inline-block; width: 120px }
.submenu { display: none; position: absolute; top: 100%; left: 0; background: #fff; border: 1px solid #999; width: 120px }
.submenu .submenu { top: 0; left: 100% }
.menu:hover > .submenu { display: block }
</style>
<ul><li class="menu"><a href="#p">Products</a><ul class="submenu">
  <li class="menu"><a href="#l">Laptops</a></li>
  <li class="menu"><a href="#ph">Phones</a><ul class="submenu"><li class="menu"><a href="#i" class="leaf">iPhone</a></li></ul></li>
</ul></li></ul>
<p id="out" style="margin-top:120px">none</p>
<script>for (const a of document.querySelectorAll('a')) a.onclick = e => { e.preventDefault();
  if (a.classList.contains('leaf')) document.getElementById('out').textContent = 'opened ' + a.textContent; }</script>`})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	p.MustElement("a[href='#p']").MustHover()
	p.MustElement("a[href='#ph']").MustWaitVisible().MustHover()
	p.MustElement("a[href='#i']").MustWaitVisible().MustClick()
	p.MustElementR("#out", "opened iPhone")
	steps := out.waitSteps(t, "navigate,hover,hover,click")
	if h := locs(steps[1].Target.Locators); !strings.Contains(h, "Products") {
		t.Errorf("first hover on %s, want the Products item", h)
	}
	if h := locs(steps[2].Target.Locators); !strings.Contains(h, "Phones") || strings.Contains(h, "Products") {
		t.Errorf("second hover on %s, want the Phones item", h)
	}
	replayGreen(t, append(steps, protocol.Step{ID: "check", Type: "assertText",
		Target: &protocol.Target{Locators: []protocol.Locator{{Kind: "css", Value: "#out"}}}, Expected: protocol.Ptr("opened iPhone")}))
}
