package author

import (
	"os"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/testautomation/ta/protocol"
)

// TestRecordDeepShadowCheckbox: on a Lit TodoMVC (todo-app > todo-list >
// todo-item > input.toggle, three open shadow roots deep, no ids), a
// click on the second todo's checkbox is recorded as a check of that
// checkbox, with a locator that tells it from the first todo's, and the
// recording replays green.
func TestRecordDeepShadowCheckbox(t *testing.T) {
	page, err := os.ReadFile("testdata/corpus/todo-lit.html")
	if err != nil {
		t.Fatal(err)
	}
	srv := site(t, map[string]string{"/": string(page)})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	field := p.MustElement("todo-app").MustShadowRoot().MustElement(".new-todo")
	for _, todo := range []string{"Buy milk", "Walk the dog"} {
		field.MustClick()
		p.Keyboard.MustType([]input.Key(todo)...)
		p.Keyboard.MustType(input.Enter)
	}
	toggle := p.MustElementByJS(`() => document.querySelector('todo-app').shadowRoot.querySelector('todo-list').shadowRoot
		.querySelectorAll('todo-item')[1].shadowRoot.querySelector('.toggle')`)
	x, y := centerOf(t, toggle)
	clickAt(t, p, x, y, 1)
	if !toggle.MustProperty("checked").Bool() {
		t.Fatal("the click did not check the box")
	}
	steps := out.waitSteps(t, "navigate,fill,press,fill,press,check")
	if l := locs(steps[5].Target.Locators); !strings.Contains(l, "nth-of-type(2)") {
		t.Errorf("the check's locators %s do not tell the second todo apart", l)
	}
	replayGreen(t, append(steps, assertTextAt(".todo-count", "1 item left")))
}

func centerOf(t *testing.T, el *rod.Element) (float64, float64) {
	t.Helper()
	b := el.MustShape().Box()
	return b.X + b.Width/2, b.Y + b.Height/2
}
