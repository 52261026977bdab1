package protocol

// One conversion per Selenium IDE command.

import (
	"net/url"
	"strconv"
	"strings"
)

// act converts a command that only needs its target.
func act(typ string) commandFunc {
	return func(c *converter, cmd seCommand) []Step {
		if t := c.target(cmd); t != nil {
			return []Step{{Type: typ, Target: t}}
		}
		return nil
	}
}

func (c *converter) open(cmd seCommand) []Step {
	u := strings.TrimSpace(cmd.Target)
	if u == "" {
		u = strings.TrimSpace(cmd.Value)
	}
	if u == "" {
		c.issues.add(cmd.Path+".target", CodeRequired, "open needs a URL")
		return nil
	}
	return []Step{{Type: "navigate", URL: resolveURL(c.baseURL, u)}}
}

// resolveURL resolves a relative URL against a project's base URL as
// Selenium IDE does; without a base (or starting with a reference) it
// stays, and the run resolves it against the environment's base URL.
// References inside survive: they are swapped for plain tokens while the
// URL is resolved, so they are not percent-encoded.
func resolveURL(base, u string) string {
	if base == "" || strings.HasPrefix(u, "${") || strings.Contains(u, "tA7rEf") {
		return u
	}
	refs := References(u)
	masked := u
	for i, r := range refs {
		masked = strings.ReplaceAll(masked, "${"+r+"}", "tA7rEf"+strconv.Itoa(i)+"x")
	}
	ref, err := url.Parse(masked)
	if err != nil || ref.IsAbs() {
		return u
	}
	b, err := url.Parse(strings.TrimSpace(base))
	if err != nil || !b.IsAbs() {
		return u
	}
	out := b.ResolveReference(ref).String()
	for i, r := range refs {
		out = strings.ReplaceAll(out, "tA7rEf"+strconv.Itoa(i)+"x", "${"+r+"}")
	}
	return out
}

func (c *converter) sendKeys(cmd seCommand) []Step {
	keys, err := seleniumKeyPresses(cmd.Value)
	if err != nil {
		c.issues.add(cmd.Path+".value", CodeUnsupported, "%s", err.Error())
		return nil
	}
	t := c.target(cmd)
	if t == nil {
		return nil
	}
	steps := make([]Step, len(keys))
	for i, k := range keys {
		steps[i] = Step{Type: "press", Key: k, Target: t.clone()}
	}
	return steps
}

// selectOption: label= and value= (or a bare label) make a select step;
// index= and id=, which it cannot express, a script choosing the option.
func (c *converter) selectOption(cmd seCommand) []Step {
	v, err := seleniumOption(cmd.Value)
	if err != nil {
		return selection(true)(c, cmd)
	}
	if t := c.target(cmd); t != nil {
		return []Step{{Type: "select", Target: t, Value: Ptr(v)}}
	}
	return nil
}

func assertEl(typ string) commandFunc {
	return func(c *converter, cmd seCommand) []Step {
		if t := c.target(cmd); t != nil {
			return []Step{{Type: typ, Target: t, Expected: Ptr(cmd.Value), Match: "equals"}}
		}
		return nil
	}
}

// assertTitle: Selenium IDE 3 writes the title in target, older files in value.
func (c *converter) assertTitle(cmd seCommand) []Step {
	title := cmd.Target
	if title == "" {
		title = cmd.Value
	}
	return []Step{{Type: "assertTitle", Expected: Ptr(title), Match: "equals"}}
}

// waitFor: the command's value, when a number, is its timeout.
func waitFor(state string) commandFunc {
	return func(c *converter, cmd seCommand) []Step {
		t := c.target(cmd)
		if t == nil {
			return nil
		}
		s := Step{Type: "waitFor", Target: t, State: state}
		if v := strings.TrimSpace(cmd.Value); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > MaxTimeoutMs {
				c.issues.add(cmd.Path+".value", CodeFormat, "the timeout must be a number of milliseconds from 1 to %d", MaxTimeoutMs)
				return nil
			}
			s.TimeoutMs = n
		}
		return []Step{s}
	}
}

func (c *converter) pause(cmd seCommand) []Step {
	v := strings.TrimSpace(cmd.Target)
	field := ".target"
	if v == "" {
		v, field = strings.TrimSpace(cmd.Value), ".value"
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > MaxTimeoutMs {
		c.issues.add(cmd.Path+field, CodeFormat, "pause needs a number of milliseconds from 0 to %d", MaxTimeoutMs)
		return nil
	}
	return []Step{{Type: "wait", Ms: &n}}
}

// script: executeScript keeps the returned value in the variable its value
// names; runScript returns nothing.
func script(assign bool) commandFunc {
	return func(c *converter, cmd seCommand) []Step {
		if strings.TrimSpace(cmd.Target) == "" {
			c.issues.add(cmd.Path+".target", CodeRequired, "the script is empty")
			return nil
		}
		s := Step{Type: "script", Code: cmd.Target}
		if assign {
			s.Assign = strings.TrimSpace(cmd.Value)
		}
		return []Step{s}
	}
}

// store: Selenium writes the value in target and the variable in value.
func (c *converter) store(cmd seCommand) []Step {
	if !c.variable(cmd) {
		return nil
	}
	return []Step{{Type: "setVariable", Name: strings.TrimSpace(cmd.Value), Value: Ptr(cmd.Target)}}
}

func (c *converter) storeText(cmd seCommand) []Step {
	if !c.variable(cmd) {
		return nil
	}
	if t := c.target(cmd); t != nil {
		return []Step{{Type: "setVariable", Name: strings.TrimSpace(cmd.Value), Target: t}}
	}
	return nil
}

func (c *converter) variable(cmd seCommand) bool {
	if strings.TrimSpace(cmd.Value) == "" {
		c.issues.add(cmd.Path+".value", CodeRequired, "%s needs the name of a variable in value", cmd.Command)
		return false
	}
	return true
}

// screenshot: Selenium's target is a file name; the extension goes, the
// artifact is a PNG anyway.
func (c *converter) screenshot(cmd seCommand) []Step {
	name := strings.TrimSpace(cmd.Target)
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".png"), ".PNG")
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	return []Step{{Type: "screenshot", Name: name, FullPage: true}}
}

// selectFrame changes the frame later targets are in: relative=top leaves
// all frames, relative=parent one, index=N enters the Nth frame of the
// page, anything else is the frame element's locator.
func (c *converter) selectFrame(cmd seCommand) []Step {
	t := strings.TrimSpace(cmd.Target)
	switch {
	case t == "relative=top":
		c.frames = nil
	case t == "relative=parent":
		if len(c.frames) > 0 {
			c.frames = c.frames[:len(c.frames)-1]
		}
	case strings.HasPrefix(t, "index="):
		n, err := strconv.Atoi(strings.TrimPrefix(t, "index="))
		if err != nil || n < 0 {
			c.issues.add(cmd.Path+".target", CodeFormat, "index= needs a frame number from 0")
			return nil
		}
		c.frames = append(c.frames, Locator{Kind: "xpath", Value: "(//iframe|//frame)[" + strconv.Itoa(n+1) + "]"})
	default:
		l, err := ParseSeleniumLocator(t)
		if err != nil {
			c.issues.add(cmd.Path+".target", CodeUnsupported, "%s", err.Error())
			return nil
		}
		c.frames = append(c.frames, l)
	}
	return nil
}
