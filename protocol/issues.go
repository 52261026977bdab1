package protocol

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Issue codes.
const (
	CodeJSON        = "json"        // the input is not JSON
	CodeRequired    = "required"    // a needed field is missing or empty
	CodeUnknown     = "unknown"     // a field or step type this version does not know
	CodeType        = "type"        // a field of the wrong JSON type
	CodeEnum        = "enum"        // a value outside its list
	CodeRange       = "range"       // a number outside its bounds
	CodeTooLong     = "too_long"    // a string or list over its limit
	CodeDuplicate   = "duplicate"   // a value that must be unique is not
	CodeFormat      = "format"      // a string of the wrong shape
	CodeConflict    = "conflict"    // parameters that exclude each other
	CodeUnsupported = "unsupported" // valid elsewhere, not supported here
	CodeURLScheme   = "url_scheme"  // an address the browser may not open (see RefusedScheme)
)

// issueList collects issues.
type issueList []Issue

func (l *issueList) add(path, code, format string, args ...any) {
	*l = append(*l, Issue{Path: path, Code: code, Message: fmt.Sprintf(format, args...)})
}

// prefixed returns the issues with pre added before each path.
func prefixed(pre string, is []Issue) []Issue {
	out := make([]Issue, len(is))
	for i, x := range is {
		out[i] = x
		switch {
		case x.Path == "":
			out[i].Path = strings.TrimSuffix(pre, ".")
		case strings.HasPrefix(x.Path, "["):
			out[i].Path = strings.TrimSuffix(pre, ".") + x.Path
		default:
			out[i].Path = pre + x.Path
		}
	}
	return out
}

// merge adds to first the issues of second that do not repeat, at the
// same place or under it, a problem first already reports: a field of the
// wrong type is reported once, not again as missing.
func merge(first, second []Issue) []Issue {
	out := append([]Issue(nil), first...)
	paths := make(map[string]bool, len(first))
	for _, f := range first {
		paths[f.Path] = true
	}
next:
	for _, x := range second {
		if paths[""] || paths[x.Path] {
			continue
		}
		for i := 1; i < len(x.Path); i++ {
			if (x.Path[i] == '.' || x.Path[i] == '[') && paths[x.Path[:i]] {
				continue next
			}
		}
		out = append(out, x)
	}
	return out
}

// maxIssues bounds the issues one call returns: past it, more is noise.
const maxIssues = 500

// sortIssues orders issues by path, numbers in brackets compared as
// numbers, keeping the order of issues at the same path; past maxIssues
// one last issue says how many were left out.
func sortIssues(is []Issue) []Issue {
	if len(is) == 0 {
		return nil
	}
	sort.SliceStable(is, func(i, j int) bool { return pathLess(is[i].Path, is[j].Path) })
	if len(is) > maxIssues {
		n := len(is) - maxIssues
		is = append(is[:maxIssues:maxIssues], Issue{Path: "", Code: CodeTooLong,
			Message: fmt.Sprintf("%d more issues are not shown", n)})
	}
	return is
}

func pathLess(a, b string) bool {
	for a != "" && b != "" {
		ia, na, oka := leadingIndex(a)
		ib, nb, okb := leadingIndex(b)
		if oka && okb {
			if ia != ib {
				return ia < ib
			}
			a, b = a[na:], b[nb:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

// leadingIndex reads "[123]" at the start of s.
func leadingIndex(s string) (n, width int, ok bool) {
	if len(s) < 3 || s[0] != '[' {
		return 0, 0, false
	}
	end := strings.IndexByte(s, ']')
	if end < 2 {
		return 0, 0, false
	}
	n, err := strconv.Atoi(s[1:end])
	if err != nil {
		return 0, 0, false
	}
	return n, end + 1, true
}

// keyPath names a member of an object: base.key, or base["odd key"].
func keyPath(base, key string) string {
	if identRe.MatchString(key) {
		if base == "" {
			return key
		}
		return base + "." + key
	}
	q, _ := json.Marshal(key)
	return base + "[" + string(q) + "]"
}

func index(base string, i int) string { return base + "[" + strconv.Itoa(i) + "]" }

func itoa(n int) string { return strconv.Itoa(n) }
