package protocol

import "encoding/json"

// Decoding of steps, targets and locators from generic JSON.

// decodeStep reads one step. Members a step type does not take are issues;
// the others are read by the JSON type every step type gives them.
func decodeStep(d *decoder, p string, v any) Step {
	var s Step
	m, ok := d.object(p, v)
	if !ok {
		return s
	}
	if t, has := m["type"]; has && t != nil {
		s.Type, _ = d.str(p+".type", t)
	}
	st, known := stepType(s.Type)
	types := stepFieldTypes()
	for _, k := range sortedKeys(m) {
		v := m[k]
		path := keyPath(p, k)
		_, param := st.Param(k)
		switch {
		case k == "type" || v == nil:
		case types[k] == "":
			d.unknown(p, k)
		case known && !param && k != "id":
			d.issues.add(path, CodeUnknown, "%s is not a parameter of %s steps", k, s.Type)
		case d.typedField(&s, path, k, v):
		default:
			d.stepField(&s, path, k, v)
		}
	}
	return s
}

// stepField reads one member of a step into its field.
func (d *decoder) stepField(s *Step, path, k string, v any) {
	switch k {
	case "target":
		s.Target = d.target(path, v)
	case "value":
		if str, ok := d.str(path, v); ok {
			s.Value = &str
		}
	case "expected":
		if str, ok := d.str(path, v); ok {
			s.Expected = &str
		}
	case "fullPage":
		s.FullPage, _ = d.boolean(path, v)
	case "inputs":
		s.Inputs = d.stringMap(path, v)
	case "ms", "version", "timeoutMs":
		n, ok := d.integer(path, v)
		switch {
		case !ok:
		case k == "ms":
			s.Ms = &n
		case n < 1:
			// Zero means "unset" in the typed step, so an explicit one is caught here.
			d.issues.add(path, CodeRange, "%s must be at least 1", k)
		case k == "version":
			s.Version = n
		default:
			s.TimeoutMs = n
		}
	default:
		str, _ := d.str(path, v)
		setStepString(s, k, str)
	}
}

// typedField reads the members whose JSON type depends on the step's type
// or that only the steps real suites need take; it reports whether it read k.
func (d *decoder) typedField(s *Step, path, k string, v any) bool {
	switch k {
	case "to":
		if s.Type == "dragTo" {
			s.ToTarget = d.target(path, v)
		} else {
			s.To, _ = d.str(path, v)
		}
	case "expected":
		if s.Type != "assertCount" {
			return false
		}
		if n, ok := d.integer(path, v); ok {
			s.Count = &n
		}
	case "text", "body":
		if str, ok := d.str(path, v); ok {
			if k == "text" {
				s.Text = &str
			} else {
				s.Body = &str
			}
		}
	case "index", "width", "height", "expectStatus":
		n, ok := d.integer(path, v)
		switch {
		case !ok:
		case k == "index":
			s.Index = &n
		case n == 0:
			// Zero means "unset" in the typed step, so an explicit one is caught here.
			d.issues.add(path, CodeRange, "%s may not be 0", k)
		case k == "width":
			s.Width = n
		case k == "height":
			s.Height = n
		default:
			s.ExpectStatus = n
		}
	case "files":
		s.Files = d.strings(path, v)
	case "modifiers":
		s.Modifiers = d.strings(path, v)
	case "position":
		s.Position = d.position(path, v)
	case "condition", "while", "steps", "else", "times", "max", "items", "as":
		d.flowField(s, path, k, v)
	case "headers":
		s.Headers = d.stringMap(path, v)
	case "checked", "enabled", "editable", "not", "soft":
		b, ok := d.boolean(path, v)
		if !ok {
			return true
		}
		switch k {
		case "checked":
			s.Checked = &b
		case "enabled":
			s.Enabled = &b
		case "editable":
			s.Editable = &b
		case "not":
			s.Not = b
		default:
			s.Soft = b
		}
	case "action", "title", "button", "message", "by", "from", "attribute", "method":
		str, _ := d.str(path, v)
		setMoreString(s, k, str)
	default:
		return false
	}
	return true
}

func setMoreString(s *Step, k, v string) {
	switch k {
	case "action":
		s.Action = v
	case "title":
		s.Title = v
	case "button":
		s.Button = v
	case "message":
		s.Message = v
	case "by":
		s.By = v
	case "from":
		s.From = v
	case "attribute":
		s.Attribute = v
	case "method":
		s.Method = v
	}
}

// position reads {x, y}; both are required numbers.
func (d *decoder) position(p string, v any) *Position {
	m, ok := d.object(p, v)
	if !ok {
		return nil
	}
	pos := &Position{}
	for _, k := range []string{"x", "y"} {
		num, ok := m[k].(json.Number)
		if !ok {
			if m[k] == nil {
				d.issues.add(p+"."+k, CodeRequired, "%s is required in a position", k)
			} else {
				d.wrong(p+"."+k, "a number", m[k])
			}
			continue
		}
		f, err := num.Float64()
		if err != nil || f < -maxViewport*10 || f > maxViewport*10 {
			d.issues.add(p+"."+k, CodeRange, "%s is out of range", k)
			continue
		}
		if k == "x" {
			pos.X = f
		} else {
			pos.Y = f
		}
	}
	for _, k := range sortedKeys(m) {
		if k != "x" && k != "y" {
			d.unknown(p, k)
		}
	}
	return pos
}

func setStepString(s *Step, k, v string) {
	switch k {
	case "id":
		s.ID = v
	case "description":
		s.Description = v
	case "url":
		s.URL = v
	case "key":
		s.Key = v
	case "match":
		s.Match = v
	case "state":
		s.State = v
	case "name":
		s.Name = v
	case "code":
		s.Code = v
	case "assign":
		s.Assign = v
	case "component":
		s.Component = v
	}
}

func (d *decoder) target(p string, v any) *Target {
	m, ok := d.object(p, v)
	if !ok {
		return nil
	}
	t := &Target{}
	for _, k := range sortedKeys(m) {
		switch v := m[k]; {
		case v == nil:
		case k == "locators":
			t.Locators = d.locators(p+".locators", v)
		case k == "frame":
			t.Frame = d.locators(p+".frame", v)
		case k == "fingerprint":
			t.Fingerprint = d.stringMap(p+".fingerprint", v)
		default:
			d.unknown(p, k)
		}
	}
	return t
}

func (d *decoder) locators(p string, v any) []Locator {
	a, ok := d.array(p, v)
	if !ok {
		return nil
	}
	out := make([]Locator, len(a))
	for i, x := range a {
		lp := index(p, i)
		m, ok := d.object(lp, x)
		if !ok {
			continue
		}
		for _, k := range sortedKeys(m) {
			path := lp + "." + k
			switch v := m[k]; {
			case v == nil:
			case k == "kind":
				out[i].Kind, _ = d.str(path, v)
			case k == "value":
				out[i].Value, _ = d.str(path, v)
			case k == "name":
				out[i].Name, _ = d.str(path, v)
			case k == "exact":
				out[i].Exact, _ = d.boolean(path, v)
			default:
				d.unknown(lp, k)
			}
		}
	}
	return out
}
