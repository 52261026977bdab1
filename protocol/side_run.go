package protocol

// Selenium IDE's run command (docs/flow.md ".side import"): run <test>
// plays another test of the project in the same session, with the same
// variables. The called test becomes a component named after it, whose
// steps are the test's, and run a callComponent step: a component's steps
// run in the calling test's run, with its variables.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// SideImport is what ImportSideProject makes of a project.
type SideImport struct {
	Docs []Document
	// Components are the tests that others run, once each; the calls in
	// Docs and in the components' own steps name them by ID.
	Components []SideComponent
	Skipped    []Skipped
	Issues     []Issue
}

// SideComponent is a test of the project that another test runs.
type SideComponent struct {
	// ID is what the calls name: cmp_side<n>, n the test's index, until
	// the hub gives the component its real id (see RenameComponents).
	ID    string
	Name  string // the test's name
	Steps []Step // the test's steps
}

func sidePlaceholder(k int) string { return "cmp_side" + strconv.Itoa(k) }

// RenameComponents gives the components the ids in ids (placeholder to
// real id), in the calls of the documents and of the components too.
func (imp *SideImport) RenameComponents(ids map[string]string) {
	rename := func(steps []Step) {
		WalkSteps(steps, func(_ string, _ int, s *Step) bool {
			if id, ok := ids[s.Component]; ok && s.Type == "callComponent" {
				s.Component = id
			}
			return true
		})
	}
	for i := range imp.Docs {
		rename(imp.Docs[i].Steps)
	}
	for i := range imp.Components {
		rename(imp.Components[i].Steps)
		if id, ok := ids[imp.Components[i].ID]; ok {
			imp.Components[i].ID = id
		}
	}
}

// seRun calls the component the run's test becomes.
func seRun(c *converter, cmd seCommand) []Step {
	if c.runTest == nil {
		c.issues.add(cmd.Path+".command", CodeUnsupported, "run plays another test of a Selenium IDE project: import the project's .side file")
		return nil
	}
	id, err := c.runTest(strings.TrimSpace(cmd.Target))
	if err != nil {
		c.issues.add(cmd.Path+".target", CodeUnsupported, "%s", err.Error())
		return nil
	}
	return []Step{{Type: "callComponent", Component: id, Version: 1}}
}

// sideRuns knows the project's tests by name, and which tests each runs.
type sideRuns struct {
	byName  map[string]int
	runs    [][]int // per test, the tests its run commands name
	playing []bool  // per test, whether it has a command to play
}

func newSideRuns(tests []any) *sideRuns {
	r := &sideRuns{byName: map[string]int{}, runs: make([][]int, len(tests)), playing: make([]bool, len(tests))}
	for k, t := range tests {
		tm, _ := t.(map[string]any)
		if name, ok := tm["name"].(string); ok {
			if _, seen := r.byName[strings.TrimSpace(name)]; !seen {
				r.byName[strings.TrimSpace(name)] = k
			}
		}
	}
	for k, t := range tests {
		tm, _ := t.(map[string]any)
		cmds, _ := tm["commands"].([]any)
		for _, x := range cmds {
			cm, _ := x.(map[string]any)
			name, _ := cm["command"].(string)
			name = strings.TrimSpace(name)
			if name != "" && !strings.HasPrefix(name, "//") {
				r.playing[k] = true
			}
			target, _ := cm["target"].(string)
			if to, ok := r.byName[strings.TrimSpace(target)]; ok && strings.EqualFold(name, "run") {
				r.runs[k] = append(r.runs[k], to)
			}
		}
	}
	return r
}

// reaches tells whether test from runs test to, directly or through
// others.
func (r *sideRuns) reaches(from, to int) bool {
	seen := make([]bool, len(r.runs))
	stack := []int{from}
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if k == to {
			return true
		}
		if seen[k] {
			continue
		}
		seen[k] = true
		stack = append(stack, r.runs[k]...)
	}
	return false
}

// resolver is runTest for test k: the called test's placeholder id, or
// why it cannot be called.
func (r *sideRuns) resolver(k int) func(string) (string, error) {
	return func(name string) (string, error) {
		to, ok := r.byName[name]
		switch {
		case name == "":
			return "", fmt.Errorf("run needs the name of a test of the project in target")
		case !ok:
			return "", fmt.Errorf("there is no test named %q in the project", clip(name, 60))
		case r.reaches(to, k):
			return "", fmt.Errorf("test %q runs this test again: calls cannot go round in a circle here", clip(name, 60))
		case !r.playing[to]:
			return "", fmt.Errorf("test %q has no commands to run", clip(name, 60))
		}
		return sidePlaceholder(to), nil
	}
}

// components are the tests the documents' calls name, once each, in the
// project's order.
func (r *sideRuns) components(docs []Document) []SideComponent {
	called := map[string]bool{}
	for _, d := range docs {
		WalkSteps(d.Steps, func(_ string, _ int, s *Step) bool {
			if s.Type == "callComponent" {
				called[s.Component] = true
			}
			return true
		})
	}
	var out []SideComponent
	for k, d := range docs {
		if id := sidePlaceholder(k); called[id] {
			// A copy that shares nothing (CloneSteps shares values behind
			// pointers): the component's steps change apart from the test's.
			var steps []Step
			b, _ := json.Marshal(d.Steps)
			_ = json.Unmarshal(b, &steps)
			out = append(out, SideComponent{ID: id, Name: d.Name, Steps: steps})
		}
	}
	return out
}
