package protocol

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Parse reads a test document of any supported DSL version (1 or 2; not a
// .side project, see ImportSide), migrates it to the current version,
// normalises it and validates it. from is the version the input had: 1 or
// 2, or 0 when it could not be read. issues is empty when the document is
// valid. Unknown fields are issues, never silently dropped.
//
// Normalising trims name, suite and tags, fills dsl, and gives each step
// without an id the id "s<position>" (1-based), or the next free number
// when an existing id already holds that one.
func Parse(data []byte) (doc Document, from int, issues []Issue) {
	root, bad := readJSON(data)
	if bad != nil {
		return Document{}, 0, []Issue{*bad}
	}
	m, ok := root.(map[string]any)
	if !ok {
		return Document{}, 0, []Issue{{Path: "", Code: CodeType,
			Message: "a test document must be a JSON object, not " + jsonType(root)}}
	}
	from, bad = detectVersion(m)
	if bad != nil {
		return Document{}, 0, []Issue{*bad}
	}
	d := &decoder{}
	if from == 1 {
		doc = decodeV1(d, m)
	} else {
		doc = decodeV2(d, m)
	}
	doc.normalise()
	return doc, from, sortIssues(merge(d.issues, doc.validate()))
}

// detectVersion tells version 1 ("version": 1) from version 2 ("dsl": 2).
// A document with neither is version 1 when its steps have commands and
// no types, else version 2.
func detectVersion(m map[string]any) (int, *Issue) {
	if v, has := m["dsl"]; has {
		n, ok := versionNumber(v)
		switch {
		case !ok:
			return 0, &Issue{Path: "dsl", Code: CodeType, Message: "dsl must be the number 2, not " + jsonType(v)}
		case n == 1 || n == 2:
			return n, nil
		}
		return 0, &Issue{Path: "dsl", Code: CodeUnsupported,
			Message: "DSL version " + clip(fmt.Sprint(v), 20) + " is not supported: this version reads 1 and 2"}
	}
	if v, has := m["version"]; has {
		if n, ok := versionNumber(v); ok && n == 1 {
			return 1, nil
		}
		if _, tests := m["tests"]; tests {
			return 0, &Issue{Path: "version", Code: CodeUnsupported,
				Message: "this is a Selenium IDE project (.side); import it as such"}
		}
		return 0, &Issue{Path: "version", Code: CodeUnsupported,
			Message: "unsupported document version: version 1 documents have \"version\": 1, current ones \"dsl\": 2"}
	}
	if steps, ok := m["steps"].([]any); ok {
		commands, types := false, false
		for _, s := range steps {
			if o, ok := s.(map[string]any); ok {
				_, c := o["command"]
				_, t := o["type"]
				commands, types = commands || c, types || t
			}
		}
		if commands && !types {
			return 1, nil
		}
	}
	return 2, nil
}

// versionNumber reads a small whole number such as 2 or 2.0.
func versionNumber(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	if err != nil || f != math.Trunc(f) || f < 0 || f > 1e6 {
		return -1, true
	}
	return int(f), true
}

// decodeHeader reads a top-level field both versions share.
func decodeHeader(d *decoder, doc *Document, k string, v any) bool {
	switch k {
	case "name":
		doc.Name, _ = d.str(k, v)
	case "suite":
		doc.Suite, _ = d.str(k, v)
	case "tags":
		doc.Tags = d.strings(k, v)
	case "description":
		doc.Description, _ = d.str(k, v)
	case "variables":
		doc.Variables = d.stringMap(k, v)
	case "data":
		doc.Data = d.dataBinding(k, v)
	default:
		return false
	}
	return true
}

func decodeV2(d *decoder, m map[string]any) Document {
	var doc Document
	for _, k := range sortedKeys(m) {
		v := m[k]
		switch {
		case k == "dsl" || v == nil || decodeHeader(d, &doc, k, v):
		case k == "steps":
			if a, ok := d.array(k, v); ok {
				doc.Steps = make([]Step, len(a))
				for i, x := range a {
					doc.Steps[i] = decodeStep(d, index(k, i), x)
				}
			}
		default:
			d.unknown("", k)
		}
	}
	return doc
}

// normalise trims, fills dsl, drops empty collections (so a document and
// its JSON round trip compare equal) and assigns missing step ids.
func (doc *Document) normalise() {
	doc.DSL = DSLVersion
	doc.Name = strings.TrimSpace(doc.Name)
	doc.Suite = strings.TrimSpace(doc.Suite)
	for i := range doc.Tags {
		doc.Tags[i] = strings.TrimSpace(doc.Tags[i])
	}
	if len(doc.Tags) == 0 {
		doc.Tags = nil
	}
	if len(doc.Variables) == 0 {
		doc.Variables = nil
	}
	if b := doc.Data; b != nil {
		b.Set, b.Pool, b.Mode = strings.TrimSpace(b.Set), strings.TrimSpace(b.Pool), strings.TrimSpace(b.Mode)
		if b.Pool != "" && b.Mode == "" {
			b.Mode = PoolLease
		}
		if *b == (DataBinding{}) {
			doc.Data = nil
		}
	}
	if doc.Steps == nil {
		doc.Steps = []Step{}
	}
	used := map[string]bool{}
	WalkSteps(doc.Steps, func(_ string, _ int, s *Step) bool {
		s.normalise()
		used[s.ID] = true
		return true
	})
	// Missing ids are s<n>, n counting steps through the tree in order
	// (a flat document's step 3 is s3), skipping ids in use.
	n, at := 0, 0
	WalkSteps(doc.Steps, func(_ string, _ int, s *Step) bool {
		at++
		if s.ID != "" {
			return true
		}
		n = max(n, at)
		for used["s"+strconv.Itoa(n)] {
			n++
		}
		s.ID = "s" + strconv.Itoa(n)
		used[s.ID] = true
		return true
	})
}

func (s *Step) normalise() {
	if len(s.Inputs) == 0 {
		s.Inputs = nil
	}
	if len(s.Steps) == 0 {
		s.Steps = nil
	}
	if len(s.Else) == 0 {
		s.Else = nil
	}
	for _, c := range []*Condition{s.Condition, s.While} {
		if c != nil && c.Target != nil {
			c.Target.normalise()
		}
	}
	if s.Target != nil {
		s.Target.normalise()
	}
}

func (t *Target) normalise() {
	if len(t.Frame) == 0 {
		t.Frame = nil
	}
	if len(t.Fingerprint) == 0 {
		t.Fingerprint = nil
	}
	if len(t.Locators) == 0 {
		t.Locators = nil
	}
}
