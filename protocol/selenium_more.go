package protocol

// Conversions of Selenium IDE's assertions, stores, mouse and page
// commands that need the richer steps (see DESIGN.md "Steps that real
// suites need").

import (
	"encoding/json"
	"strconv"
	"strings"
)

// verify makes a conversion soft: Selenium's verify* records the failure
// and goes on, as soft: true does.
func verify(fn commandFunc) commandFunc {
	return func(c *converter, cmd seCommand) []Step {
		steps := fn(c, cmd)
		for i := range steps {
			if strings.HasPrefix(steps[i].Type, "assert") {
				steps[i].Soft = true
			}
		}
		return steps
	}
}

// assertNot is assertNotText, assertNotSelectedValue: the value is not
// equal (the value of a select is its selected option's).
func assertNot(typ string) commandFunc {
	return func(c *converter, cmd seCommand) []Step {
		if t := c.target(cmd); t != nil {
			return []Step{{Type: typ, Target: t, Expected: Ptr(cmd.Value), Match: "equals", Not: true}}
		}
		return nil
	}
}

// assertState is assertChecked/NotChecked and assertEditable/NotEditable.
func assertState(typ string, want bool) commandFunc {
	return func(c *converter, cmd seCommand) []Step {
		t := c.target(cmd)
		if t == nil {
			return nil
		}
		s := Step{Type: typ, Target: t}
		if !want { // absent means true
			switch typ {
			case "assertChecked":
				s.Checked = Ptr(false)
			case "assertEditable":
				s.Editable = Ptr(false)
			}
		}
		return []Step{s}
	}
}

func assertSelected(by string) commandFunc {
	return func(c *converter, cmd seCommand) []Step {
		if t := c.target(cmd); t != nil {
			return []Step{{Type: "assertSelected", Target: t, Expected: Ptr(cmd.Value), By: by}}
		}
		return nil
	}
}

// assertVariable is assert and verify: the variable in target, the value.
func (c *converter) assertVariable(cmd seCommand) []Step {
	name := strings.TrimSpace(cmd.Target)
	if name == "" {
		c.issues.add(cmd.Path+".target", CodeRequired, "%s needs a variable name", clip(cmd.Command, 40))
		return nil
	}
	return []Step{{Type: "assertVariable", Name: name, Expected: Ptr(cmd.Value), Match: "equals"}}
}

// present: Selenium waits for the element to be in the page, visible or
// not, as waitFor attached does.
func (c *converter) present(cmd seCommand) []Step {
	if t := c.target(cmd); t != nil {
		return []Step{{Type: "waitFor", Target: t, State: "attached"}}
	}
	return nil
}

// notPresent: no element matches, now.
func (c *converter) notPresent(cmd seCommand) []Step {
	if t := c.target(cmd); t != nil {
		return []Step{{Type: "assertCount", Target: t, Count: Ptr(0)}}
	}
	return nil
}

// position reads Selenium's "x,y" coordinates (whole pixels from the
// element's top left corner); empty means none.
func (c *converter) position(cmd seCommand) (*Position, bool) {
	v := strings.TrimSpace(cmd.Value)
	if v == "" {
		return nil, true
	}
	xs, ys, ok := strings.Cut(v, ",")
	x, errX := strconv.ParseFloat(strings.TrimSpace(xs), 64)
	y, errY := strconv.ParseFloat(strings.TrimSpace(ys), 64)
	if !ok || errX != nil || errY != nil || x < -10000 || x > 10000 || y < -10000 || y > 10000 {
		c.issues.add(cmd.Path+".value", CodeFormat, "coordinates must be two numbers, x,y")
		return nil, false
	}
	return &Position{X: x, Y: y}, true
}

// actAt is clickAt and doubleClickAt: the click at the coordinates.
func actAt(typ string) commandFunc {
	return func(c *converter, cmd seCommand) []Step {
		pos, ok := c.position(cmd)
		if !ok {
			return nil
		}
		if t := c.target(cmd); t != nil {
			return []Step{{Type: typ, Target: t, Position: pos}}
		}
		return nil
	}
}

// mouse is mouseDown, mouseUp, mouseMove and their At forms.
func mouse(action string, at bool) commandFunc {
	return func(c *converter, cmd seCommand) []Step {
		var pos *Position
		if at {
			var ok bool
			if pos, ok = c.position(cmd); !ok {
				return nil
			}
		}
		if t := c.target(cmd); t != nil {
			return []Step{{Type: "mouse", Action: action, Target: t, Position: pos}}
		}
		return nil
	}
}

// mouseOut moves the mouse off the element, to the page's top left
// corner: a point outside the element is not the element's to check, and
// where the element is is known only at run time. The step says so.
func (c *converter) mouseOut(cmd seCommand) []Step {
	if c.target(cmd) == nil {
		return nil
	}
	return []Step{{Type: "mouse", Action: "move", Position: &Position{X: 0, Y: 0},
		Description: "mouseOut " + clip(cmd.Target, 100) + ": off the element, to the page's top left corner"}}
}

// dragAndDrop: the value is the drop target's locator, in the same frame.
func (c *converter) dragAndDrop(cmd seCommand) []Step {
	t := c.target(cmd)
	if t == nil {
		return nil
	}
	to := c.target(seCommand{Path: cmd.Path, Target: cmd.Value})
	if to == nil {
		return nil
	}
	return []Step{{Type: "dragTo", Target: t, ToTarget: to}}
}

func (c *converter) echo(cmd seCommand) []Step {
	return []Step{{Type: "log", Message: cmd.Target}}
}

// setWindowSize: "1280x800" sizes the page.
func (c *converter) setWindowSize(cmd seCommand) []Step {
	ws, hs, ok := strings.Cut(strings.ToLower(strings.TrimSpace(cmd.Target)), "x")
	w, errW := strconv.Atoi(strings.TrimSpace(ws))
	h, errH := strconv.Atoi(strings.TrimSpace(hs))
	if !ok || errW != nil || errH != nil || w < 1 || h < 1 || w > 10000 || h > 10000 {
		c.issues.add(cmd.Path+".target", CodeFormat, "setWindowSize needs a size such as 1280x800, each from 1 to 10000")
		return nil
	}
	return []Step{{Type: "setViewport", Width: w, Height: h}}
}

// storeFrom is storeValue, storeElementCount: the variable in value.
func storeFrom(from string) commandFunc {
	return func(c *converter, cmd seCommand) []Step {
		if !c.variable(cmd) {
			return nil
		}
		if t := c.target(cmd); t != nil {
			return []Step{{Type: "setVariable", Name: strings.TrimSpace(cmd.Value), From: from, Target: t}}
		}
		return nil
	}
}

// storeAttribute: the target is locator@attribute.
func (c *converter) storeAttribute(cmd seCommand) []Step {
	if !c.variable(cmd) {
		return nil
	}
	at := strings.LastIndexByte(cmd.Target, '@')
	if at < 0 || strings.TrimSpace(cmd.Target[at+1:]) == "" {
		c.issues.add(cmd.Path+".target", CodeFormat, "storeAttribute needs locator@attribute, such as id=logo@src")
		return nil
	}
	attr := strings.TrimSpace(cmd.Target[at+1:])
	loc := cmd
	loc.Target, loc.Targets = cmd.Target[:at], nil
	if t := c.target(loc); t != nil {
		return []Step{{Type: "setVariable", Name: strings.TrimSpace(cmd.Value), From: "attribute", Attribute: attr, Target: t}}
	}
	return nil
}

// storeTitle: the title lands in the variable the target names.
func (c *converter) storeTitle(cmd seCommand) []Step {
	name := strings.TrimSpace(cmd.Target)
	if name == "" {
		name = strings.TrimSpace(cmd.Value)
	}
	if name == "" {
		c.issues.add(cmd.Path+".target", CodeRequired, "storeTitle needs a variable name")
		return nil
	}
	return []Step{{Type: "setVariable", Name: name, From: "title"}}
}

// storeJson keeps the JSON text; the agent reads ${name.path} from it.
func (c *converter) storeJSON(cmd seCommand) []Step {
	if !c.variable(cmd) {
		return nil
	}
	if !json.Valid([]byte(cmd.Target)) {
		c.issues.add(cmd.Path+".target", CodeFormat, "storeJson needs JSON text")
		return nil
	}
	return []Step{{Type: "setVariable", Name: strings.TrimSpace(cmd.Value), Value: Ptr(strings.TrimSpace(cmd.Target))}}
}

// asyncScript is executeAsyncScript: Selenium IDE 4 scripts return a
// Promise, older ones call the callback passed as their last argument;
// the step waits for either.
func (c *converter) asyncScript(cmd seCommand) []Step {
	if strings.TrimSpace(cmd.Target) == "" {
		c.issues.add(cmd.Path+".target", CodeRequired, "the script is empty")
		return nil
	}
	code := "return new Promise((callback, fail) => {\n" +
		"  Promise.resolve((async function () {\n" + cmd.Target + "\n  }).call(this, callback))\n" +
		"    .then((v) => { if (v !== undefined) callback(v) }, fail)\n})"
	return []Step{{Type: "script", Code: code, Assign: strings.TrimSpace(cmd.Value)}}
}
