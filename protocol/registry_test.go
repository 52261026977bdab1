package protocol

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestRegistryTypes(t *testing.T) {
	want := []string{"navigate", "click", "dblclick", "hover", "fill", "press", "select", "check", "uncheck",
		"assertVisible", "assertHidden", "assertText", "assertValue", "assertUrl", "assertTitle", "wait",
		"waitFor", "screenshot", "setVariable", "script", "callComponent",
		"dialog", "switchTab", "closeTab", "upload", "dragTo", "mouse", "goBack", "goForward", "reload",
		"setViewport", "log", "assertChecked", "assertEnabled", "assertEditable", "assertAttribute",
		"assertCount", "assertSelected", "assertVariable", "request", "if", "repeat", "forEach"}
	var got []string
	for _, st := range Registry() {
		got = append(got, st.Type)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("types = %v, want %v", got, want)
	}
}

func TestRegistryParams(t *testing.T) {
	required := map[string][]string{
		"navigate": {"url"}, "click": {"target"}, "dblclick": {"target"}, "hover": {"target"},
		"fill": {"target", "value"}, "press": {"key"}, "select": {"target", "value"},
		"check": {"target"}, "uncheck": {"target"}, "assertVisible": {"target"}, "assertHidden": {"target"},
		"assertText": {"target", "expected"}, "assertValue": {"target", "expected"},
		"assertUrl": {"expected"}, "assertTitle": {"expected"}, "wait": {"ms"}, "waitFor": {"target"},
		"screenshot": nil, "setVariable": {"name"}, "script": {"code"}, "callComponent": {"component"},
		"dialog": {"action"}, "switchTab": {"to"}, "closeTab": nil, "upload": {"target", "files"},
		"dragTo": {"target", "to"}, "mouse": {"action"}, "goBack": nil, "goForward": nil, "reload": nil,
		"setViewport": {"width", "height"}, "log": {"message"}, "assertChecked": {"target"},
		"assertEnabled": {"target"}, "assertEditable": {"target"}, "assertAttribute": {"target", "name", "expected"},
		"assertCount": {"target", "expected"}, "assertSelected": {"target", "expected"},
		"assertVariable": {"name", "expected"}, "request": {"url"},
		"if": {"condition"}, "repeat": nil, "forEach": {"items"},
	}
	types := map[string]bool{ParamString: true, ParamNumber: true, ParamBoolean: true, ParamTarget: true, ParamEnum: true,
		ParamMap: true, ParamList: true, ParamPosition: true, ParamCondition: true, ParamSteps: true, ParamItems: true}
	for _, st := range Registry() {
		t.Run(st.Type, func(t *testing.T) {
			if st.Description == "" {
				t.Error("no description")
			}
			var req []string
			names := map[string]bool{}
			for _, p := range st.Params {
				if p.Description == "" || !types[p.Type] {
					t.Errorf("param %s: description %q, type %q", p.Name, p.Description, p.Type)
				}
				if names[p.Name] {
					t.Errorf("param %s twice", p.Name)
				}
				names[p.Name] = true
				if p.Required {
					req = append(req, p.Name)
				}
				if (p.Type == ParamEnum) != (len(p.Values) > 0) && p.Type != ParamList {
					t.Errorf("param %s: type %s with values %v", p.Name, p.Type, p.Values)
				}
				if p.Name != "description" && p.Name != "timeoutMs" && !slices.Contains(stepParams, p.Name) {
					t.Errorf("param %s has no Step field", p.Name)
				}
			}
			if !slices.Equal(req, required[st.Type]) {
				t.Errorf("required = %v, want %v", req, required[st.Type])
			}
			for _, common := range []string{"description", "timeoutMs"} {
				if !names[common] {
					t.Errorf("no %s", common)
				}
			}
		})
	}
}

// Every enum and default agrees, and the registry serialises as the API serves it.
func TestRegistryDetails(t *testing.T) {
	st, _ := LookupStepType("assertText")
	m, _ := st.Param("match")
	if !slices.Equal(m.Values, []string{"equals", "contains", "regex"}) || m.Default != "contains" {
		t.Errorf("match = %+v", m)
	}
	st, _ = LookupStepType("waitFor")
	s, _ := st.Param("state")
	if !slices.Equal(s.Values, []string{"visible", "hidden", "attached", "detached", "enabled", "disabled", "editable", "readonly"}) || s.Default != "visible" {
		t.Errorf("state = %+v", s)
	}
	st, _ = LookupStepType("click")
	to, _ := st.Param("timeoutMs")
	if to.Default != DefaultTimeoutMs || *to.Min != 1 || *to.Max != MaxTimeoutMs {
		t.Errorf("timeoutMs = %+v", to)
	}
	data, err := json.Marshal(Registry())
	if err != nil || !json.Valid(data) {
		t.Fatal(err)
	}
	// A caller changing its copy does not change the next one.
	r := Registry()
	r[0].Params[0].Name = "changed"
	if Registry()[0].Params[0].Name == "changed" {
		t.Error("Registry shares its slices")
	}
}

func TestLocatorKinds(t *testing.T) {
	want := []string{"testId", "role", "placeholder", "label", "alt", "text", "title", "css", "xpath"}
	if got := LocatorKinds(); !slices.Equal(got, want) {
		t.Errorf("LocatorKinds() = %v, want %v", got, want)
	}
	if locatorRank("testId") != 0 || locatorRank("xpath") != 8 || locatorRank("nope") != 9 {
		t.Error("locatorRank")
	}
}

func TestStepTimeout(t *testing.T) {
	for _, tc := range []struct {
		s    Step
		want int
	}{
		{Step{Type: "click"}, DefaultTimeoutMs},
		{Step{Type: "navigate"}, NavigateTimeoutMs},
		{Step{Type: "click", TimeoutMs: 5}, 5},
	} {
		if got := tc.s.Timeout(); got != tc.want {
			t.Errorf("%+v: Timeout() = %d, want %d", tc.s, got, tc.want)
		}
	}
}
