// Package components is what the hub does with components beyond storing
// them: checking and pinning the calls of a document, expanding calls into
// the steps they run, detecting cycles and diffing versions.
package components

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// Source reads component versions (*store.Store is one). Version 0 is the
// latest; a component of another project is store.ErrNotFound.
type Source interface {
	ComponentVersion(ctx context.Context, projectID, componentID string, version int) (store.ComponentVersion, error)
}

// ErrUnavailable says a called component or version does not exist (any
// more), or calls form a cycle: the document cannot run.
var ErrUnavailable = errors.New("component unavailable")

// MaxDepth bounds how deeply components may call components.
const MaxDepth = 10

// Steps reads a version's steps.
func Steps(v store.ComponentVersion) ([]protocol.Step, error) {
	var steps []protocol.Step
	if err := json.Unmarshal(v.Steps, &steps); err != nil {
		return nil, fmt.Errorf("component %s v%d: %w", v.ComponentID, v.Version, err)
	}
	return steps, nil
}

// Values are the input values a call gives a version: the call's own, else
// the declared default. Inputs the version does not declare are ignored.
func Values(v store.ComponentVersion, call protocol.Step) map[string]string {
	out := make(map[string]string, len(v.Inputs))
	for _, in := range v.Inputs {
		if val, ok := call.Inputs[in.Name]; ok {
			out[in.Name] = val
		} else if in.Default != nil {
			out[in.Name] = *in.Default
		} else {
			out[in.Name] = ""
		}
	}
	return out
}

// Expand replaces every callComponent step of doc, recursively, by the
// steps of the component version it pins (the latest when it pins none),
// with the call's inputs put in. An expanded step's id is the call's id, a
// dot and the inner step's id ("s3.s1", "s3.s1.s2" for nested calls), and
// its Call is the id of the top-level call step it came from. A missing
// component or version, or a cycle, is an error wrapping ErrUnavailable.
func Expand(ctx context.Context, src Source, projectID string, doc protocol.Document) (protocol.Document, error) {
	out := doc
	steps, err := expand(ctx, src, projectID, doc.Steps, "", "", nil)
	if err != nil {
		return protocol.Document{}, err
	}
	out.Steps = steps
	return out, nil
}

func expand(ctx context.Context, src Source, projectID string, steps []protocol.Step, prefix, top string, stack []string) ([]protocol.Step, error) {
	out := make([]protocol.Step, 0, len(steps))
	for _, st := range steps {
		id := prefix + st.ID
		call := top
		if call == "" && st.Type == "callComponent" {
			call = st.ID
		}
		if st.Type != "callComponent" {
			st.ID, st.Call = id, call
			if protocol.IsBlock(st.Type) {
				// A block's steps are expanded in place, calls inside
				// it too: the run's tree keeps its shape.
				var err error
				if st.Steps, err = expand(ctx, src, projectID, st.Steps, prefix, top, stack); err != nil {
					return nil, err
				}
				if st.Else, err = expand(ctx, src, projectID, st.Else, prefix, top, stack); err != nil {
					return nil, err
				}
			}
			out = append(out, st)
			continue
		}
		for _, c := range stack {
			if c == st.Component {
				return nil, fmt.Errorf("%w: step %s: component %s calls itself", ErrUnavailable, id, st.Component)
			}
		}
		if len(stack) >= MaxDepth {
			return nil, fmt.Errorf("%w: step %s: components call each other more than %d deep", ErrUnavailable, id, MaxDepth)
		}
		v, err := src.ComponentVersion(ctx, projectID, st.Component, st.Version)
		if errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("%w: step %s calls %s, which no longer exists", ErrUnavailable, id, versionName(st.Component, st.Version))
		}
		if err != nil {
			return nil, err
		}
		inner, err := Steps(v)
		if err != nil {
			return nil, err
		}
		vals := Values(v, st)
		for i := range inner {
			inner[i] = inner[i].WithInputs(vals)
		}
		expanded, err := expand(ctx, src, projectID, inner, id+".", call, append(stack, st.Component))
		if err != nil {
			return nil, err
		}
		out = append(out, expanded...)
	}
	return out, nil
}

func versionName(id string, version int) string {
	if version == 0 {
		return "component " + id
	}
	return fmt.Sprintf("component %s v%d", id, version)
}

var inputName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// MaxInputs is how many inputs a component may declare.
const MaxInputs = 50

// CheckInputs checks input declarations: names like variables, unique,
// not "secrets"; texts bounded.
func CheckInputs(inputs []store.ComponentInput) []protocol.Issue {
	var issues []protocol.Issue
	add := func(path, code, msg string) {
		issues = append(issues, protocol.Issue{Path: path, Code: code, Message: msg})
	}
	if len(inputs) > MaxInputs {
		add("inputs", "too_many", fmt.Sprintf("a component declares at most %d inputs", MaxInputs))
		return issues
	}
	seen := map[string]bool{}
	for i, in := range inputs {
		p := fmt.Sprintf("inputs[%d]", i)
		switch {
		case in.Name == "":
			add(p+".name", "required", "an input needs a name")
		case !inputName.MatchString(in.Name) || in.Name == "secrets" || in.Name == "baseUrl":
			add(p+".name", "format", fmt.Sprintf("input name %q must be letters, digits and _, not starting with a digit (and not secrets or baseUrl)", clip(in.Name, 70)))
		case seen[in.Name]:
			add(p+".name", "duplicate", fmt.Sprintf("input %q is declared twice", in.Name))
		}
		seen[in.Name] = true
		if in.Default != nil && len(*in.Default) > 10000 {
			add(p+".default", "too_long", "a default is at most 10000 characters")
		} else if in.Default != nil && badText(*in.Default) {
			add(p+".default", "format", "a default may not contain control characters")
		}
		if len(in.Description) > 1000 {
			add(p+".description", "too_long", "a description is at most 1000 characters")
		} else if badText(in.Description) {
			add(p+".description", "format", "a description may not contain control characters")
		}
	}
	return issues
}

// ResolveCalls checks every callComponent step of steps against the
// project's components and pins calls without a version to the latest
// (changing steps in place). Issues: an unknown component, a version that
// does not exist, a required input not given, an input the component does
// not declare. self is the component whose steps these are ("" for a
// test): a call that leads back to it is a cycle.
func ResolveCalls(ctx context.Context, src Source, projectID string, steps []protocol.Step, self string) ([]protocol.Issue, error) {
	var issues []protocol.Issue
	add := func(path, code, msg string) {
		issues = append(issues, protocol.Issue{Path: path, Code: code, Message: msg})
	}
	// Calls inside blocks are resolved too (protocol.WalkSteps): a call
	// left unchecked there could name another project's component.
	var failed error
	protocol.WalkSteps(steps, func(p string, _ int, st *protocol.Step) bool {
		if failed != nil || st.Type != "callComponent" {
			return failed == nil
		}
		failed = resolveCall(ctx, src, projectID, self, p, st, add)
		return failed == nil
	})
	if failed != nil {
		return nil, failed
	}
	return issues, nil
}

// resolveCall checks and pins one call at path p (see ResolveCalls).
func resolveCall(ctx context.Context, src Source, projectID, self, p string, st *protocol.Step, add func(path, code, msg string)) error {
	if self != "" && st.Component == self {
		add(p+".component", "cycle", "a component cannot call itself")
		return nil
	}
	v, err := src.ComponentVersion(ctx, projectID, st.Component, st.Version)
	if errors.Is(err, store.ErrNotFound) {
		if st.Version != 0 {
			if _, err := src.ComponentVersion(ctx, projectID, st.Component, 0); err == nil {
				add(p+".version", "unknown", fmt.Sprintf("component %s has no version %d", st.Component, st.Version))
				return nil
			}
		}
		add(p+".component", "unknown", fmt.Sprintf("there is no component %s in this project", clip(st.Component, 70)))
		return nil
	}
	if err != nil {
		return err
	}
	st.Version = v.Version
	declared := map[string]bool{}
	for _, in := range v.Inputs {
		declared[in.Name] = true
		if _, given := st.Inputs[in.Name]; !given && in.Default == nil {
			add(p+".inputs."+in.Name, "required", fmt.Sprintf("component %s needs input %s", v.Name, in.Name))
		}
	}
	names := make([]string, 0, len(st.Inputs))
	for k := range st.Inputs {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if !declared[k] {
			add(p+".inputs."+k, "unknown", fmt.Sprintf("component %s v%d has no input %s", v.Name, v.Version, clip(k, 70)))
		}
	}
	if self != "" {
		if path, err := reaches(ctx, src, projectID, v, self, nil); err != nil {
			return err
		} else if path != "" {
			add(p+".component", "cycle", fmt.Sprintf("calling %s makes a cycle: %s", v.Name, path))
		}
	}
	return nil
}

// reaches tells whether version v calls target, directly or through other
// components, and names the chain when it does.
func reaches(ctx context.Context, src Source, projectID string, v store.ComponentVersion, target string, seen []string) (string, error) {
	if len(seen) > MaxDepth {
		return "", nil
	}
	steps, err := Steps(v)
	if err != nil {
		return "", err
	}
	for _, st := range protocol.AllSteps(steps) {
		if st.Type != "callComponent" {
			continue
		}
		if st.Component == target {
			return v.Name + " calls this component", nil
		}
		if contains(seen, st.Component) {
			continue
		}
		next, err := src.ComponentVersion(ctx, projectID, st.Component, st.Version)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return "", err
		}
		path, err := reaches(ctx, src, projectID, next, target, append(seen, v.ComponentID))
		if err != nil || path != "" {
			if path != "" {
				path = v.Name + " calls " + path
			}
			return path, err
		}
	}
	return "", nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// badText reports text that is not valid UTF-8 or holds control or
// invisible characters other than line breaks and tabs.
func badText(s string) bool {
	return !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool {
		return r != '\n' && r != '\t' && r != '\r' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r))
	}) >= 0
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// Playwright looks up a project's component versions for the Playwright
// export: a version that cannot be read stays an unresolved call there.
func Playwright(ctx context.Context, src Source, projectID string) protocol.ComponentLookup {
	return func(id string, version int) (protocol.PlaywrightComponent, bool) {
		v, err := src.ComponentVersion(ctx, projectID, id, version)
		if err != nil {
			return protocol.PlaywrightComponent{}, false
		}
		steps, err := Steps(v)
		if err != nil {
			return protocol.PlaywrightComponent{}, false
		}
		out := protocol.PlaywrightComponent{Name: v.Name, Version: v.Version, Steps: steps}
		for _, in := range v.Inputs {
			out.Inputs = append(out.Inputs, protocol.PlaywrightInput{Name: in.Name, Default: in.Default})
		}
		return out, true
	}
}
