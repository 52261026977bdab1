package protocol

// Selenium IDE commands that act on an element in ways no step does
// (submit, addSelection, removeSelection) become a script on the page
// that finds the element itself; and typed text with ${KEY_...} in it.

import (
	"fmt"
	"strings"
)

// fill is type: the text replaces the field's content. Keys in it
// (text${KEY_ENTER}) are pressed after the text before the first key.
func (c *converter) fill(cmd seCommand) []Step {
	text, keys, hasKeys := strings.Cut(cmd.Value, "${KEY_")
	var presses []string
	if hasKeys {
		var err error
		if presses, err = seleniumKeyPresses("${KEY_" + keys); err != nil {
			c.issues.add(cmd.Path+".value", CodeUnsupported, "%s", err.Error())
			return nil
		}
	}
	t := c.target(cmd)
	if t == nil {
		return nil
	}
	steps := []Step{{Type: "fill", Target: t, Value: Ptr(text)}}
	for _, k := range presses {
		steps = append(steps, Step{Type: "press", Key: k, Target: t.clone()})
	}
	return steps
}

// jsElement returns a JavaScript expression for the command's element, or
// "" with an issue: the script runs in the top page, so the element must
// be there and found by CSS or XPath, without ${...} in it.
func (c *converter) jsElement(cmd seCommand) string {
	if len(c.frames) > 0 {
		c.issues.add(cmd.Path+".command", CodeUnsupported, "%s inside a frame is not supported", clip(cmd.Command, 40))
		return ""
	}
	l, err := ParseSeleniumLocator(cmd.Target)
	if err != nil {
		c.issues.add(cmd.Path+".target", CodeUnsupported, "%s", err.Error())
		return ""
	}
	if strings.Contains(l.Value, "${") {
		c.issues.add(cmd.Path+".target", CodeUnsupported, "%s needs a locator without ${...}", clip(cmd.Command, 40))
		return ""
	}
	var find string
	switch l.Kind {
	case "css":
		find = "document.querySelector(" + jsQuote(l.Value) + ")"
	case "xpath":
		find = "document.evaluate(" + jsQuote(l.Value) + ", document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue"
	default:
		c.issues.add(cmd.Path+".target", CodeUnsupported, "%s needs an id=, name=, css= or xpath= locator", clip(cmd.Command, 40))
		return ""
	}
	return fmt.Sprintf("const el = %s;\nif (!el) throw new Error(%s);\n", find, jsQuote("no element matches "+cmd.Target))
}

// submit submits the element's form, as WebElement.submit does.
func (c *converter) submit(cmd seCommand) []Step {
	el := c.jsElement(cmd)
	if el == "" {
		return nil
	}
	return []Step{{Type: "script", Code: el + "const form = el.tagName === 'FORM' ? el : el.form;\n" +
		"if (!form) throw new Error('the element is not in a form');\nform.submit();"}}
}

// selection is addSelection and removeSelection on a multiple select:
// the option (label=, value=, index=, id=, or a label) is selected or
// not, with the events a user's choice sends.
func selection(selected bool) commandFunc {
	return func(c *converter, cmd seCommand) []Step {
		v := cmd.Value
		pred := "o.label.trim() === " + jsQuote(strings.TrimSpace(v))
		if m := prefixRe.FindStringSubmatch(v); m != nil {
			rest := v[len(m[0]):]
			switch strings.ToLower(m[1]) {
			case "label":
				pred = "o.label.trim() === " + jsQuote(strings.TrimSpace(rest))
			case "value":
				pred = "o.value === " + jsQuote(rest)
			case "id":
				pred = "o.id === " + jsQuote(rest)
			case "index":
				pred = "String(o.index) === " + jsQuote(strings.TrimSpace(rest))
			}
		}
		if strings.Contains(v, "${") {
			c.issues.add(cmd.Path+".value", CodeUnsupported, "%s needs an option without ${...}", clip(cmd.Command, 40))
			return nil
		}
		el := c.jsElement(cmd)
		if el == "" {
			return nil
		}
		return []Step{{Type: "script", Code: el +
			"const o = Array.from(el.options || []).find((o) => " + pred + ");\n" +
			"if (!o) throw new Error(" + jsQuote("no option "+v) + ");\n" +
			fmt.Sprintf("o.selected = %t;\n", selected) +
			"el.dispatchEvent(new Event('input', { bubbles: true }));\n" +
			"el.dispatchEvent(new Event('change', { bubbles: true }));"}}
	}
}
