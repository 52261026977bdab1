package protocol

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
