package protocol

// Selenium IDE's dialogs and windows, which it handles after the fact or
// by handle, and which our steps arm beforehand or name by their place.

import (
	"slices"
	"strconv"
	"strings"
)

// seTab is a window of the test, as far as the import can tell.
type seTab struct {
	opener int  // the tab whose step opened it; -1 for the test's own
	seen   bool // selected once: a later switch to it is no longer "new"
	closed bool
}

// dialogNext arms the answer for a dialog the next step opens: Selenium
// IDE 3's answerOnNextPrompt, chooseOkOnNextConfirmation and the like
// already come before the command that opens it.
func dialogNext(action string, answer bool) commandFunc {
	return func(c *converter, cmd seCommand) []Step {
		s := Step{Type: "dialog", Action: action}
		if answer {
			s.Text = Ptr(cmd.Target)
		}
		return []Step{s}
	}
}

// dialogAnswer is acceptAlert, dismissPrompt, answerPrompt...: the answer
// to the dialog the last step opened, armed before that step.
func dialogAnswer(action string, answer bool) commandFunc {
	return func(c *converter, cmd seCommand) []Step {
		if d := c.dialogOf(cmd); d != nil {
			d.Action, d.Text = action, nil
			if answer {
				d.Text = Ptr(cmd.Target)
			}
		}
		return nil
	}
}

// dialogAssert is assertAlert, assertConfirmation, assertPrompt (and
// their verify forms): the dialog's message, checked by the dialog step.
func dialogAssert(c *converter, cmd seCommand) []Step {
	if d := c.dialogOf(cmd); d != nil {
		d.Expected, d.Match = Ptr(cmd.Target), "equals"
	}
	return nil
}

// dialogOf returns the dialog step armed for the last step that may have
// opened a dialog, inserting one (accepting, as Selenium's alert has only
// OK) just before that step when there is none yet. The command's words
// go to the dialog step.
func (c *converter) dialogOf(cmd seCommand) *Step {
	if c.dialog < 0 {
		if c.opener < 0 {
			c.issues.add(cmd.Path+".command", CodeUnsupported, "%s needs an earlier command that opens the dialog", clip(cmd.Command, 40))
			return nil
		}
		at := c.opener
		c.steps = slices.Insert(c.steps, at, Step{Type: "dialog", Action: "accept"})
		c.from = slices.Insert(c.from, at, c.at)
		c.dialog, c.opener = at, at+1
		if c.armed >= at {
			c.armed++
		}
	}
	d := &c.steps[c.dialog]
	if w := strings.TrimSpace(cmd.Comment); w != "" {
		d.Description = strings.TrimSpace(d.Description + "\n" + w)
	}
	return d
}

// opened notes a window the command opened (Selenium IDE records
// opensWindow on the click, and the variable for its handle).
func (c *converter) opened(handle string) {
	c.tabs = append(c.tabs, seTab{opener: c.tab})
	if handle = strings.TrimSpace(handle); handle != "" {
		c.handles[handle] = len(c.tabs) - 1
	}
}

// storeWindowHandle remembers the selected window under the name.
func (c *converter) storeWindowHandle(cmd seCommand) []Step {
	name := strings.TrimSpace(cmd.Target)
	if name == "" {
		c.issues.add(cmd.Path+".target", CodeRequired, "storeWindowHandle needs a variable name")
		return nil
	}
	if c.tab < 0 {
		c.issues.add(cmd.Path+".command", CodeUnsupported, "the window selected by title cannot be stored; select it by handle")
		return nil
	}
	c.handles[name] = c.tab
	return nil
}

// selectWindow becomes a switchTab: handle=${name} names a window opened
// by a click or stored by storeWindowHandle, win_ser_local and win_ser_N
// (Selenium IDE 3) the windows in opening order, title=... a title.
func (c *converter) selectWindow(cmd seCommand) []Step {
	t := strings.TrimSpace(cmd.Target)
	idx := -1
	switch {
	case strings.HasPrefix(t, "handle=${") && strings.HasSuffix(t, "}"):
		name := strings.TrimSpace(t[len("handle=${") : len(t)-1])
		i, ok := c.handles[name]
		if !ok {
			c.issues.add(cmd.Path+".target", CodeUnsupported, "window handle ${%s} was not stored before: store it with storeWindowHandle, or record the click that opens the window", clip(name, 40))
			return nil
		}
		idx = i
	case t == "win_ser_local":
		idx = 0
	case strings.HasPrefix(t, "win_ser_"):
		n, err := strconv.Atoi(strings.TrimPrefix(t, "win_ser_"))
		if err != nil || n < 0 || n > 1000 {
			c.issues.add(cmd.Path+".target", CodeFormat, "win_ser_ needs a window number")
			return nil
		}
		idx = n
	case strings.HasPrefix(t, "title="):
		c.tab = -1
		return []Step{{Type: "switchTab", To: "match", Title: strings.TrimPrefix(t, "title="), Match: "equals"}}
	default:
		c.issues.add(cmd.Path+".target", CodeUnsupported, "window locator %q is not supported; use handle=${name}, title= or win_ser_N", clip(t, 40))
		return nil
	}
	for len(c.tabs) <= idx { // win_ser_N of windows opened without our knowing
		c.tabs = append(c.tabs, seTab{opener: 0})
	}
	if c.tabs[idx].closed {
		c.issues.add(cmd.Path+".target", CodeUnsupported, "that window was closed before")
		return nil
	}
	if idx == c.tab {
		return nil // already there: Selenium IDE selects the window it is in
	}
	s := Step{Type: "switchTab"}
	tab := &c.tabs[idx]
	switch {
	case !tab.seen && idx == len(c.tabs)-1:
		s.To = "new"
	case c.tab >= 0 && c.tabs[c.tab].opener == idx:
		s.To = "opener"
	default:
		s.To, s.Index = "index", Ptr(idx)
	}
	tab.seen, c.tab = true, idx
	return []Step{s}
}

// closeWindow is close: closeTab returns to the opener, which is where a
// Selenium IDE test goes next (selecting it by handle is then a no-op).
func (c *converter) closeWindow(cmd seCommand) []Step {
	if c.tab >= 0 {
		c.tabs[c.tab].closed = true
		c.tab = c.tabs[c.tab].opener
	}
	if c.tab < 0 {
		c.tab = 0
	}
	return []Step{{Type: "closeTab"}}
}
