package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// leaf is one value inside a JSON body, with a way to replace it.
type leaf struct {
	path  string
	value any
	key   bool // the leaf is an object's key, not a value
	set   func(root any, v any) any
}

// leaves lists every value and object key in v, depth first.
func leaves(v any) []leaf {
	var out []leaf
	var walk func(path string, v any, set func(root, v any) any)
	walk = func(path string, v any, set func(root, v any) any) {
		out = append(out, leaf{path: path, value: v, set: set})
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedAnyKeys(x) {
				p := path + "." + k
				out = append(out, leaf{path: p + "(key)", value: k, key: true, set: func(root, nv any) any {
					return replaceAt(root, path, func(cur any) any {
						m := cloneMap(cur.(map[string]any))
						m[fmt.Sprint(nv)] = m[k]
						delete(m, k)
						return m
					})
				}})
				walk(p, x[k], func(root, nv any) any {
					return replaceAt(root, path, func(cur any) any {
						m := cloneMap(cur.(map[string]any))
						m[k] = nv
						return m
					})
				})
			}
		case []any:
			for i := range x {
				walk(path+"["+strconv.Itoa(i)+"]", x[i], func(root, nv any) any {
					return replaceAt(root, path, func(cur any) any {
						a := slices.Clone(cur.([]any))
						a[i] = nv
						return a
					})
				})
			}
		}
	}
	walk("", v, func(_, nv any) any { return nv })
	return out
}

func sortedAnyKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// replaceAt returns root with the value at path (as leaves names it)
// replaced by change(old), copying only what lies on the way.
func replaceAt(root any, path string, change func(any) any) any {
	if path == "" {
		return change(root)
	}
	var head, rest string
	if path[0] == '.' {
		path = path[1:]
		end := strings.IndexAny(path, ".[")
		if end < 0 {
			end = len(path)
		}
		head, rest = path[:end], path[end:]
		m := cloneMap(root.(map[string]any))
		m[head] = replaceAt(m[head], rest, change)
		return m
	}
	end := strings.IndexByte(path, ']')
	i, _ := strconv.Atoi(path[1:end])
	a := slices.Clone(root.([]any))
	a[i] = replaceAt(a[i], path[end+1:], change)
	return a
}

// labelRE matches the paths of names: one-line labels that may hold no
// control or invisible formatting character.
var labelRE = regexp.MustCompile(`^\.(name|suite|tags\[\d+\]|modules\[\d+\]|tests\[\d+\]\.name)$`)

// isLabel reports a name in a sample body (a Selenium IDE project's own
// name is not kept: its tests' names are).
func isLabel(root any, path string) bool {
	_, side := root.(map[string]any)["tests"]
	return labelRE.MatchString(path) && !(side && path == ".name")
}

func labelRefused(status int, body []byte) string {
	if status < 300 && !bytes.Contains(body, []byte(`"valid":false`)) {
		return "a name with control characters was accepted"
	}
	return ""
}

var indexRE = regexp.MustCompile(`\[\d+\]`)

// refusedOpens are addresses a test may not send the browser to (issue 26,
// finding 1a), written as browsers still read them.
var refusedOpens = []string{"file:///etc/passwd", "  JaVa\tScript:alert(1)", "view-source:http://127.0.0.1/", "data:text/html,x"}

// urlRE matches the paths of addresses: a step's url, a base URL, a
// webhook's url.
var urlRE = regexp.MustCompile(`\.(url|baseUrl)$`)

// opensInBrowser reports a value in a sample body that is an address: a
// url or baseUrl member, or the target of a Selenium open command.
func opensInBrowser(root any, path string) bool {
	if urlRE.MatchString(path) {
		return true
	}
	parent, ok := strings.CutSuffix(path, ".target")
	if !ok {
		return false
	}
	var cmd any
	replaceAt(root, parent, func(cur any) any { cmd = cur; return cur })
	m, _ := cmd.(map[string]any)
	return m != nil && m["command"] == "open"
}

// schemeRefused wants a refusal with an issue at path: 422, or the
// validate route's 200 with valid false. (A version 1 document's open is
// named as the step it migrates to: steps[i].url, not steps[i].target.)
func schemeRefused(path string) func(int, []byte) string {
	migrated := strings.TrimSuffix(path, ".target") + ".url"
	return func(status int, body []byte) string {
		if status != http.StatusUnprocessableEntity && !(status == http.StatusOK && bytes.Contains(body, []byte(`"valid":false`))) {
			return "an address the browser may not open was accepted"
		}
		if !bytes.Contains(body, []byte(`"path":"`+path+`"`)) && !bytes.Contains(body, []byte(`"path":"`+migrated+`"`)) {
			return "the refusal has no issue at " + path
		}
		return ""
	}
}

// withNUL puts a NUL character in the middle of s.
func withNUL(s string) string { return s[:len(s)/2] + "\x00" + s[len(s)/2:] }

// wrongType is a value of another JSON type than v.
func wrongType(v any) any {
	switch v.(type) {
	case string:
		return obj{"x": 1}
	case map[string]any:
		return []any{"x"}
	case []any:
		return obj{"x": []any{}}
	case bool:
		return "true"
	case nil:
		return []any{}
	}
	return "1"
}

func deep(open, close string, n int) string {
	return strings.Repeat(open, n) + "1" + strings.Repeat(close, n)
}

// hostileRequest is one request of the campaign.
type hostileRequest struct {
	what   string // for failure messages
	path   string
	body   []byte
	header string // x-project-id; "" sends none
	want   func(status int, body []byte) string
}

func mustJSON(t *testing.T, v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// bodyRequests makes hostile bodies from a route's samples: a NUL in each
// string and key in turn, each value of the wrong type, 100 KB strings,
// deep nesting, a body over the limit, and bodies of the wrong shape.
func bodyRequests(t *testing.T, path string, samples []any, project string) []hostileRequest {
	var out []hostileRequest
	add := func(what string, body []byte, want func(int, []byte) string) {
		out = append(out, hostileRequest{what: what, path: path, body: body, header: project, want: want})
	}
	// A NUL in a field the route ignores may be accepted; one it keeps
	// must be refused (PostgreSQL cannot store it), never echoed back.
	refused := func(status int, body []byte) string {
		// (The validate route answers 200 with issues, which may quote it.)
		if status < 300 && bytes.Contains(body, []byte(`\u0000`)) && !bytes.Contains(body, []byte(`"valid":false`)) {
			return "a NUL character was accepted"
		}
		return ""
	}
	reads := len(samples) > 0 && samples[0] != noBody
	generic := []string{`[]`, `"x"`, `null`, `5`, `{"a":"\u0000"}`, `{`, `{"name":"x"} {"name":"y"}`, "\xff\xfe",
		deep("[", "]", 10000), deep(`{"a":`, "}", 10000), deep("[", "]", 100000)}
	for _, b := range generic {
		add("body "+clipFor(b), []byte(b), nil)
	}
	if !reads {
		add("body with a NUL everywhere", []byte(`{"name":"\u0000","email":"\u0000","id":"\u0000","role":"\u0000"}`), nil)
		return out
	}
	for si, sample := range samples {
		var root any
		_ = json.Unmarshal(mustJSON(t, sample), &root)
		add(fmt.Sprintf("sample %d", si), mustJSON(t, root), nil)
		// A NUL goes into every string and key. The other changes go into
		// the first value of each kind (steps[*].url once, not per step):
		// the bytes of the doubled document, not the count, cost time.
		kinds := map[string]bool{}
		for _, l := range leaves(root) {
			at := fmt.Sprintf("sample %d at %q", si, l.path)
			s, isString := l.value.(string)
			if isString {
				add(at+" with a NUL", mustJSON(t, l.set(root, withNUL(s))), refused)
			}
			if isString && !l.key && opensInBrowser(root, l.path) {
				for _, u := range refusedOpens {
					add(at+" opening "+clipFor(u), mustJSON(t, l.set(root, u)), schemeRefused(strings.TrimPrefix(l.path, ".")))
				}
			}
			kind := indexRE.ReplaceAllString(l.path, "[]")
			if l.key || l.path == "" || kinds[kind] {
				continue
			}
			kinds[kind] = true
			add(at+" of the wrong type", mustJSON(t, l.set(root, wrongType(l.value))), nil)
			if isString {
				var want func(int, []byte) string
				if isLabel(root, l.path) {
					want = labelRefused
				}
				add(at+" with control characters", mustJSON(t, l.set(root, s+"\x01\x1b\u202e\u200b")), want)
				add(at+" of 100 KB", mustJSON(t, l.set(root, strings.Repeat("é", 50<<10))), nil)
			}
			if strings.Count(l.path, ".") == 1 && !strings.Contains(l.path, "[") { // a top-level member
				nested := bytes.Replace(mustJSON(t, l.set(root, "\x00deep\x00")), []byte(`"\u0000deep\u0000"`), []byte(deep("[", "]", 10000)), 1)
				add(at+" nested 10,000 deep", nested, nil)
			}
		}
	}
	limit := maxBody
	if path == "/api/test-data" || path == "/api/data-pools" {
		limit = maxDataBody // tables take larger bodies
	}
	big := append([]byte(`{"name":"`), bytes.Repeat([]byte("x"), limit+1)...)
	big = append(big, `"}`...)
	add("body over the limit", big, func(status int, _ []byte) string {
		if status != http.StatusRequestEntityTooLarge {
			return "want 413"
		}
		return ""
	})
	return out
}

func clipFor(s string) string {
	if len(s) > 24 {
		return fmt.Sprintf("%q... (%d bytes)", s[:24], len(s))
	}
	return fmt.Sprintf("%q", s)
}
