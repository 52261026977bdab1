package author

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
)

// The scripted sessions are played with trusted input: CDP's
// Input.dispatchMouseEvent, dispatchKeyEvent and insertText through the
// browser's debugging port, so the page (and the recorder in it) sees
// events with isTrusted true, as from a person.

// qElement finds w in page: inside the iframe w.Frame when set, inside
// open shadow roots along "host >>> inner", waiting for it to appear.
func qElement(ctx context.Context, page *rod.Page, w qWhere) (*rod.Element, error) {
	p := page.Context(ctx)
	if w.Frame != "" {
		fe, err := p.Element(w.Frame)
		if err != nil {
			return nil, fmt.Errorf("iframe %s: %w", w.Frame, err)
		}
		if p, err = fe.Frame(); err != nil {
			return nil, fmt.Errorf("iframe %s: %w", w.Frame, err)
		}
		p = p.Context(ctx)
	}
	if !strings.Contains(w.Sel, ">>>") {
		return p.Element(w.Sel)
	}
	parts := strings.Split(w.Sel, ">>>")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return p.ElementByJS(rod.Eval(`(parts) => {
		let root = document, el = null;
		for (const s of parts) {
			if (!root) return null;
			el = root.querySelector(s);
			if (!el) return null;
			root = el.shadowRoot;
		}
		return el;
	}`, parts))
}

// qKeys turns "Control+K" into the keys to hold and the key to press.
func qKeys(combo string) (hold []input.Key, key input.Key, err error) {
	named := map[string]input.Key{"Enter": input.Enter, "Tab": input.Tab, "Escape": input.Escape,
		"Control": input.ControlLeft, "Shift": input.ShiftLeft, "Alt": input.AltLeft, "Meta": input.MetaLeft,
		"ArrowDown": input.ArrowDown, "ArrowUp": input.ArrowUp, "Backspace": input.Backspace}
	parts := strings.Split(combo, "+")
	for i, p := range parts {
		k, ok := named[p]
		if !ok && len(p) == 1 {
			k, ok = input.Key(strings.ToLower(p)[0]), true
		}
		if !ok {
			return nil, 0, fmt.Errorf("key %q of %q: not known to the scripted sessions", p, combo)
		}
		if i < len(parts)-1 {
			hold = append(hold, k)
		} else {
			key = k
		}
	}
	return hold, key, nil
}

// qDo performs one action with trusted input.
func qDo(ctx context.Context, page *rod.Page, a qAct) error {
	page = page.Context(ctx)
	if a.Do == "press" && a.Sel == "" {
		hold, key, err := qKeys(a.Text)
		if err != nil {
			return err
		}
		ka := page.KeyActions()
		if len(hold) > 0 {
			ka = ka.Press(hold...)
		}
		return ka.Type(key).Do()
	}
	el, err := qElement(ctx, page, qWhere{a.Sel, a.Frame})
	if err != nil {
		return fmt.Errorf("%s %s: %w", a.Do, a.Sel, err)
	}
	if err := el.WaitVisible(); err != nil {
		return fmt.Errorf("%s %s: %w", a.Do, a.Sel, err)
	}
	switch a.Do {
	case "click", "check":
		return el.Click(proto.InputMouseButtonLeft, 1)
	case "dblclick":
		if err := el.Click(proto.InputMouseButtonLeft, 1); err != nil {
			return err
		}
		return el.Click(proto.InputMouseButtonLeft, 2)
	case "hover":
		if err := el.Hover(); err != nil {
			return err
		}
		// A person's pointer rests a moment on a menu before moving on.
		time.Sleep(150 * time.Millisecond)
		return nil
	case "type":
		if err := el.Click(proto.InputMouseButtonLeft, 1); err != nil {
			return err
		}
		if err := el.SelectAllText(); err != nil {
			return err
		}
		return el.Input(a.Text)
	case "select":
		// Type-ahead on the focused select, as a keyboard user chooses:
		// trusted, unlike setting the option from a script.
		if err := el.Focus(); err != nil {
			return err
		}
		for _, r := range a.Text {
			if err := page.Keyboard.Type(input.Key(r)); err != nil {
				return err
			}
		}
		got, err := el.Eval(`() => this.options[this.selectedIndex].label`)
		if err != nil {
			return err
		}
		if got.Value.Str() != a.Text {
			// Type-ahead did not reach it: fall back to choosing it.
			return el.Select([]string{a.Text}, true, rod.SelectorTypeText)
		}
		return nil
	}
	return fmt.Errorf("unknown action %q", a.Do)
}

// qPlay performs a session's actions, then waits for its result.
func qPlay(ctx context.Context, page *rod.Page, s qSession) error {
	for i, a := range s.Acts {
		if err := qDo(ctx, page, a); err != nil {
			return fmt.Errorf("action %d (%s %s): %w", i+1, a.Do, a.Sel, err)
		}
		// A person takes a moment between actions; pages that render
		// after an event (routes, dialogs) settle.
		time.Sleep(60 * time.Millisecond)
	}
	return qWaitResult(ctx, page, s)
}

// qWaitResult waits up to 5 s for the session's result text.
func qWaitResult(ctx context.Context, page *rod.Page, s qSession) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	last := ""
	for ctx.Err() == nil {
		if el, err := qElement(ctx, page, s.Result); err == nil {
			if txt, err := el.Text(); err == nil {
				last = txt
				if strings.Contains(txt, s.Want) {
					return nil
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("the page shows %q at %s, want %q", last, s.Result.Sel, s.Want)
}

func protoTarget(url string) proto.TargetCreateTarget { return proto.TargetCreateTarget{URL: url} }
