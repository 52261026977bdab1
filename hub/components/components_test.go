package components

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// versions is a Source over literal versions: the logic under test is
// Expand's, not the database's (hub/api tests cover the store).
type versions map[string][]store.ComponentVersion

func (v versions) ComponentVersion(_ context.Context, _, id string, n int) (store.ComponentVersion, error) {
	list := v[id]
	if len(list) == 0 {
		return store.ComponentVersion{}, store.ErrNotFound
	}
	if n == 0 {
		return list[len(list)-1], nil
	}
	if n > len(list) {
		return store.ComponentVersion{}, store.ErrNotFound
	}
	return list[n-1], nil
}

func cv(id string, n int, inputs []store.ComponentInput, steps ...protocol.Step) store.ComponentVersion {
	b, _ := json.Marshal(steps)
	return store.ComponentVersion{ComponentID: id, Name: id, Version: n, Steps: b, Inputs: inputs}
}

func TestExpandSubstitutesInputsEverywhere(t *testing.T) {
	def := "guest"
	src := versions{
		"cmp_inner": {cv("cmp_inner", 1, []store.ComponentInput{{Name: "name"}},
			protocol.Step{ID: "a", Type: "script", Code: `return "${name}".length + ${x}`},
			protocol.Step{ID: "b", Type: "assertText", Expected: protocol.Ptr("Hi ${name}"),
				Target: &protocol.Target{Locators: []protocol.Locator{{Kind: "role", Value: "heading", Name: "${name}"}}}})},
		"cmp_outer": {cv("cmp_outer", 1, []store.ComponentInput{{Name: "who", Default: &def}},
			protocol.Step{ID: "c", Type: "callComponent", Component: "cmp_inner", Version: 1, Inputs: map[string]string{"name": "Dr ${who}"}})},
	}
	doc := protocol.Document{Steps: []protocol.Step{
		{ID: "s1", Type: "callComponent", Component: "cmp_outer", Version: 1, Inputs: map[string]string{"who": "${user}"}},
		{ID: "s2", Type: "wait", Ms: protocol.Ptr(1)},
	}}
	out, err := Expand(context.Background(), src, "prj", doc)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range out.Steps {
		ids = append(ids, s.ID+"@"+s.Call)
	}
	if got := strings.Join(ids, " "); got != "s1.c.a@s1 s1.c.b@s1 s2@" {
		t.Fatalf("expanded %s", got)
	}
	// In code the input is an expression of the same value; the test
	// variable it holds is still read at run time.
	if code := out.Steps[0].Code; code != `return "("Dr " + ${user})".length + ${x}` {
		t.Errorf("code %s", code)
	}
	if b := out.Steps[1]; *b.Expected != "Hi Dr ${user}" || b.Target.Locators[0].Name != "Dr ${user}" {
		t.Errorf("assert %+v %+v", *b.Expected, b.Target.Locators[0])
	}
	// The component's own steps are untouched.
	again, _ := Steps(src["cmp_inner"][0])
	if again[1].Target.Locators[0].Name != "${name}" {
		t.Error("Expand changed the stored version")
	}
}

func TestExpandUnavailable(t *testing.T) {
	src := versions{"cmp_loop": {cv("cmp_loop", 1, nil, protocol.Step{ID: "x", Type: "callComponent", Component: "cmp_loop"})}}
	for _, doc := range []protocol.Document{
		{Steps: []protocol.Step{{ID: "s1", Type: "callComponent", Component: "cmp_gone", Version: 2}}},
		{Steps: []protocol.Step{{ID: "s1", Type: "callComponent", Component: "cmp_loop", Version: 1}}},
	} {
		_, err := Expand(context.Background(), src, "prj", doc)
		if !errors.Is(err, ErrUnavailable) {
			t.Errorf("%v: err %v", doc.Steps[0].Component, err)
		}
	}
}

func TestDiff(t *testing.T) {
	st := func(id, title string) protocol.Step {
		return protocol.Step{ID: id, Type: "assertTitle", Expected: protocol.Ptr(title)}
	}
	nav := protocol.Step{ID: "n", Type: "navigate", URL: "/x"}
	d := Diff([]protocol.Step{st("a", "A"), st("b", "B"), nav}, []protocol.Step{st("a", "A"), st("b", "B2"), st("c", "C")})
	var ops []string
	for _, c := range d {
		ops = append(ops, c.Op)
	}
	if got := strings.Join(ops, ","); got != "same,change,remove,add" {
		t.Errorf("ops %s", got)
	}
	if Changed(Diff([]protocol.Step{nav}, []protocol.Step{nav})) {
		t.Error("equal lists differ")
	}
}
