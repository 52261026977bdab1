package author

import (
	"strings"
	"testing"

	"github.com/testautomation/ta/protocol"
)

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
	replayGreen(t, append(steps, assertOut("opened iPhone")))
}
