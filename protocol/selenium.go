package protocol

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Selenium IDE's locator strings, option locators and key names, shared by
// the migration of DSL version 1 and the import of .side projects.

var prefixRe = regexp.MustCompile(`^([A-Za-z]+)=`)

// ParseSeleniumLocator turns a Selenium locator string into a locator:
// id=x (css #x), name=x (css [name="x"]), css=..., xpath=... (and a bare
// //... or (/...), link=Text (role link named Text), linkText=Text and
// partialLinkText=Text (text), identifier=x (css #x or [name="x"]); a
// string without a prefix is css.
func ParseSeleniumLocator(s string) (Locator, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Locator{}, errors.New("the locator is empty")
	}
	if strings.HasPrefix(s, "//") || strings.HasPrefix(s, "(/") {
		return Locator{Kind: "xpath", Value: s}, nil
	}
	m := prefixRe.FindStringSubmatch(s)
	if m == nil {
		return Locator{Kind: "css", Value: s}, nil
	}
	v := strings.TrimSpace(s[len(m[0]):])
	if v == "" {
		return Locator{}, fmt.Errorf("the %s= locator has no value", m[1])
	}
	switch strings.ToLower(m[1]) {
	case "id":
		return Locator{Kind: "css", Value: "#" + cssIdent(v)}, nil
	case "name":
		return Locator{Kind: "css", Value: `[name="` + cssString(v) + `"]`}, nil
	case "identifier":
		return Locator{Kind: "css", Value: "#" + cssIdent(v) + `, [name="` + cssString(v) + `"]`}, nil
	case "css":
		return Locator{Kind: "css", Value: v}, nil
	case "xpath":
		return Locator{Kind: "xpath", Value: v}, nil
	case "link":
		return Locator{Kind: "role", Value: "link", Name: v, Exact: true}, nil
	case "linktext":
		return Locator{Kind: "text", Value: v, Exact: true}, nil
	case "partiallinktext":
		return Locator{Kind: "text", Value: v}, nil
	}
	return Locator{}, fmt.Errorf("locator prefix %q is not supported; use id=, name=, css=, xpath=, link=, linkText= or partialLinkText=", clip(m[1], 20)+"=")
}

// cssIdent escapes s as a CSS identifier (CSS.escape), keeping ${...}
// references intact so they still interpolate.
func cssIdent(s string) string {
	segs, _ := splitRefs(s, false)
	var b strings.Builder
	for si, g := range segs {
		if g.IsRef {
			b.WriteString("${" + g.Ref + "}")
			continue
		}
		rs := []rune(g.Text)
		for i, r := range rs {
			first := si == 0 && i == 0
			second := si == 0 && i == 1
			switch {
			case r == 0:
				b.WriteRune('\uFFFD')
			case r < 0x20 || r == 0x7f,
				first && r >= '0' && r <= '9',
				second && r >= '0' && r <= '9' && rs[0] == '-':
				b.WriteString(`\` + strconv.FormatInt(int64(r), 16) + " ")
			case first && r == '-' && len(rs) == 1 && len(segs) == 1:
				b.WriteString(`\-`)
			case r >= 0x80 || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
				b.WriteRune(r)
			default:
				b.WriteString(`\` + string(r))
			}
		}
	}
	return b.String()
}

// cssString escapes s for a double-quoted CSS string.
func cssString(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r == 0:
			b.WriteRune('\uFFFD')
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\` + strconv.FormatInt(int64(r), 16) + " ")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// seleniumKeys maps Selenium IDE's ${KEY_...} names to Playwright keys.
var seleniumKeys = map[string]string{
	"KEY_ENTER": "Enter", "KEY_RETURN": "Enter", "KEY_TAB": "Tab",
	"KEY_BACKSPACE": "Backspace", "KEY_BACK_SPACE": "Backspace",
	"KEY_DELETE": "Delete", "KEY_DEL": "Delete", "KEY_ESC": "Escape", "KEY_ESCAPE": "Escape",
	"KEY_UP": "ArrowUp", "KEY_DOWN": "ArrowDown", "KEY_LEFT": "ArrowLeft", "KEY_RIGHT": "ArrowRight",
	"KEY_HOME": "Home", "KEY_END": "End", "KEY_PAGE_UP": "PageUp", "KEY_PGUP": "PageUp",
	"KEY_PAGE_DOWN": "PageDown", "KEY_PGDN": "PageDown", "KEY_SPACE": "Space", "KEY_INSERT": "Insert",
	"KEY_SHIFT": "Shift", "KEY_CONTROL": "Control", "KEY_CTRL": "Control", "KEY_ALT": "Alt",
	"KEY_META": "Meta", "KEY_COMMAND": "Meta", "KEY_SEMICOLON": ";", "KEY_EQUALS": "=",
	"KEY_F1": "F1", "KEY_F2": "F2", "KEY_F3": "F3", "KEY_F4": "F4", "KEY_F5": "F5", "KEY_F6": "F6",
	"KEY_F7": "F7", "KEY_F8": "F8", "KEY_F9": "F9", "KEY_F10": "F10", "KEY_F11": "F11", "KEY_F12": "F12",
	// selenium-webdriver's Key names, and Selenium IDE 3's short ones;
	// the numeric keypad types what its keys type.
	"KEY_BKSP": "Backspace", "KEY_INS": "Insert", "KEY_ARROW_UP": "ArrowUp", "KEY_ARROW_DOWN": "ArrowDown",
	"KEY_ARROW_LEFT": "ArrowLeft", "KEY_ARROW_RIGHT": "ArrowRight", "KEY_MULTIPLY": "*", "KEY_ADD": "+",
	"KEY_SEPARATOR": ",", "KEY_SUBTRACT": "-", "KEY_DECIMAL": ".", "KEY_DIVIDE": "/",
	"KEY_NUMPAD0": "0", "KEY_NUMPAD1": "1", "KEY_NUMPAD2": "2", "KEY_NUMPAD3": "3", "KEY_NUMPAD4": "4",
	"KEY_NUMPAD5": "5", "KEY_NUMPAD6": "6", "KEY_NUMPAD7": "7", "KEY_NUMPAD8": "8", "KEY_NUMPAD9": "9",
	"KEY_N0": "0", "KEY_N1": "1", "KEY_N2": "2", "KEY_N3": "3", "KEY_N4": "4",
	"KEY_N5": "5", "KEY_N6": "6", "KEY_N7": "7", "KEY_N8": "8", "KEY_N9": "9",
}

// maxSendKeysText bounds the text a sendKeys command may type key by key.
const maxSendKeysText = 100

// seleniumKeyPresses turns a sendKeys value such as "abc${KEY_ENTER}" into
// the keys to press one after another: "a", "b", "c", "Enter".
func seleniumKeyPresses(v string) ([]string, error) {
	if v == "" {
		return nil, errors.New("sendKeys needs keys to send")
	}
	var keys []string
	text := 0
	for v != "" {
		if strings.HasPrefix(v, "${") {
			end := strings.IndexByte(v, '}')
			if end < 0 {
				return nil, errors.New("unterminated ${ in the keys")
			}
			name := v[2:end]
			k, ok := seleniumKeys[strings.ToUpper(name)]
			if !ok {
				return nil, fmt.Errorf("key ${%s} is not supported", clip(name, 30))
			}
			keys = append(keys, k)
			v = v[end+1:]
			continue
		}
		r, size := utf8.DecodeRuneInString(v)
		keys = append(keys, string(r))
		v = v[size:]
		if text++; text > maxSendKeysText {
			return nil, fmt.Errorf("sendKeys types at most %d characters key by key; use type for text", maxSendKeysText)
		}
	}
	return keys, nil
}

// seleniumOption reads a select command's option locator: label=x and
// value=x both become x (a select step matches a value or a label); a
// bare string is a label.
func seleniumOption(v string) (string, error) {
	m := prefixRe.FindStringSubmatch(v)
	if m == nil {
		return v, nil
	}
	switch strings.ToLower(m[1]) {
	case "label", "value":
		return v[len(m[0]):], nil
	case "index", "id":
		return "", fmt.Errorf("option locator %s= is not supported; use label= or value=", m[1])
	}
	return v, nil
}
