package runner

import (
	"context"
	"runtime"
	"strconv"
	"strings"

	"github.com/go-rod/rod/lib/proto"
)

// move moves the mouse to pt.
func (r *run) move(ctx context.Context, pt point) error {
	return proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseMoved, X: pt.X, Y: pt.Y}.Call(r.sess(ctx))
}

// keyDef describes a key as the DevTools protocol wants it.
type keyDef struct {
	key, code string
	keyCode   int
	text      string
	location  int
	shifted   string // the key with Shift held, for printable keys
}

// Modifier bits of Input.dispatchKeyEvent.
const (
	modAlt   = 1
	modCtrl  = 2
	modMeta  = 4
	modShift = 8
)

var modifiers = map[string]int{"Alt": modAlt, "Control": modCtrl, "Meta": modMeta, "Shift": modShift}

// keyDefs holds the US keyboard, by Playwright's key names.
var keyDefs = func() map[string]keyDef {
	m := map[string]keyDef{}
	named := []keyDef{
		{key: "Enter", code: "Enter", keyCode: 13, text: "\r"}, {key: "Tab", code: "Tab", keyCode: 9},
		{key: "Backspace", code: "Backspace", keyCode: 8}, {key: "Delete", code: "Delete", keyCode: 46},
		{key: "Escape", code: "Escape", keyCode: 27}, {key: "Insert", code: "Insert", keyCode: 45},
		{key: "ArrowLeft", code: "ArrowLeft", keyCode: 37}, {key: "ArrowUp", code: "ArrowUp", keyCode: 38},
		{key: "ArrowRight", code: "ArrowRight", keyCode: 39}, {key: "ArrowDown", code: "ArrowDown", keyCode: 40},
		{key: "Home", code: "Home", keyCode: 36}, {key: "End", code: "End", keyCode: 35},
		{key: "PageUp", code: "PageUp", keyCode: 33}, {key: "PageDown", code: "PageDown", keyCode: 34},
		{key: "CapsLock", code: "CapsLock", keyCode: 20},
		{key: "Shift", code: "ShiftLeft", keyCode: 16, location: 1}, {key: "Control", code: "ControlLeft", keyCode: 17, location: 1},
		{key: "Alt", code: "AltLeft", keyCode: 18, location: 1}, {key: "Meta", code: "MetaLeft", keyCode: 91, location: 1},
	}
	for _, d := range named {
		m[d.key] = d
	}
	m["Space"] = keyDef{key: " ", code: "Space", keyCode: 32, text: " "}
	m["Esc"] = m["Escape"]
	for i := 1; i <= 12; i++ {
		k := "F" + strconv.Itoa(i)
		m[k] = keyDef{key: k, code: k, keyCode: 111 + i}
	}
	for c := 'a'; c <= 'z'; c++ {
		lo, up := string(c), strings.ToUpper(string(c))
		code := "Key" + up
		m[lo] = keyDef{key: lo, code: code, keyCode: int(c - 'a' + 65), text: lo, shifted: up}
		m[up] = keyDef{key: up, code: code, keyCode: int(c - 'a' + 65), text: up}
	}
	digits, shiftedDigits := "0123456789", ")!@#$%^&*("
	for i := range 10 {
		d, s := digits[i:i+1], shiftedDigits[i:i+1]
		m[d] = keyDef{key: d, code: "Digit" + d, keyCode: 48 + i, text: d, shifted: s}
		m[s] = keyDef{key: s, code: "Digit" + d, keyCode: 48 + i, text: s}
	}
	punct := []struct {
		k, s, code string
		kc         int
	}{{" ", "", "Space", 32}, {"-", "_", "Minus", 189}, {"=", "+", "Equal", 187}, {"[", "{", "BracketLeft", 219},
		{"]", "}", "BracketRight", 221}, {"\\", "|", "Backslash", 220}, {";", ":", "Semicolon", 186},
		{"'", "\"", "Quote", 222}, {",", "<", "Comma", 188}, {".", ">", "Period", 190}, {"/", "?", "Slash", 191},
		{"`", "~", "Backquote", 192}}
	for _, p := range punct {
		m[p.k] = keyDef{key: p.k, code: p.code, keyCode: p.kc, text: p.k, shifted: p.s}
		if p.s != "" {
			m[p.s] = keyDef{key: p.s, code: p.code, keyCode: p.kc, text: p.s}
		}
	}
	return m
}()

// parseKey splits "Control+Shift+A" into modifiers and the key.
func parseKey(combo string) (mods []string, def keyDef, err error) {
	key := combo
	if len(combo) > 1 {
		if i := strings.LastIndex(combo[:len(combo)-1], "+"); i >= 0 {
			key = combo[i+1:]
			mods = strings.Split(combo[:i], "+")
		}
	}
	for i, m := range mods {
		if m == "ControlOrMeta" {
			mods[i] = "Control"
			if runtime.GOOS == "darwin" {
				mods[i] = "Meta"
			}
		} else if _, ok := modifiers[m]; !ok {
			return nil, def, permanent("unknown modifier %q in key %q: use Shift, Control, Alt, Meta or ControlOrMeta", m, combo)
		}
	}
	def, ok := keyDefs[key]
	if !ok {
		if r := []rune(key); len(r) == 1 {
			return mods, keyDef{key: key, text: key}, nil
		}
		return nil, def, permanent("unknown key %q in %q: use a key name as Playwright writes it (Enter, Tab, ArrowDown, a, Control+A)", key, combo)
	}
	return mods, def, nil
}

// macCommands are the editing commands macOS needs for shortcuts that
// other systems handle on their own.
var macCommands = map[string]string{"a": "selectAll", "c": "copy", "x": "cut", "v": "paste", "z": "undo"}

// press presses and releases a key combination on the focused element.
func (r *run) press(ctx context.Context, combo string) error {
	mods, def, err := parseKey(combo)
	if err != nil {
		return err
	}
	s := r.sess(ctx)
	bits := 0
	send := func(typ proto.InputDispatchKeyEventType, d keyDef, text string, cmds []string) error {
		loc := d.location
		return proto.InputDispatchKeyEvent{Type: typ, Modifiers: bits, Key: d.key, Code: d.code,
			WindowsVirtualKeyCode: d.keyCode, NativeVirtualKeyCode: d.keyCode, Text: text, UnmodifiedText: text,
			Location: &loc, Commands: cmds}.Call(s)
	}
	for _, m := range mods {
		bits |= modifiers[m]
		if err := send(proto.InputDispatchKeyEventTypeRawKeyDown, keyDefs[m], "", nil); err != nil {
			return err
		}
	}
	if bits&modShift != 0 && def.shifted != "" {
		def = keyDefs[def.shifted]
	}
	text := def.text
	var cmds []string
	if bits&(modCtrl|modAlt|modMeta) != 0 {
		text = ""
		if c, ok := macCommands[strings.ToLower(def.key)]; ok && runtime.GOOS == "darwin" && bits == modMeta {
			cmds = []string{c}
		}
	}
	typ := proto.InputDispatchKeyEventTypeKeyDown
	if text == "" {
		typ = proto.InputDispatchKeyEventTypeRawKeyDown
	}
	if err := send(typ, def, text, cmds); err != nil {
		return err
	}
	if err := send(proto.InputDispatchKeyEventTypeKeyUp, def, "", nil); err != nil {
		return err
	}
	for i := len(mods) - 1; i >= 0; i-- {
		bits &^= modifiers[mods[i]]
		if err := send(proto.InputDispatchKeyEventTypeKeyUp, keyDefs[mods[i]], "", nil); err != nil {
			return err
		}
	}
	return nil
}

// insertText types text into the focused element as one input event.
func (r *run) insertText(ctx context.Context, text string) error {
	return proto.InputInsertText{Text: text}.Call(r.sess(ctx))
}
