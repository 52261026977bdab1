package protocol

// Decoding of the members of block steps from generic JSON.

// flowField reads one member of an if, repeat or forEach step.
func (d *decoder) flowField(s *Step, path, k string, v any) {
	switch k {
	case "condition":
		s.Condition = d.condition(path, v)
	case "while":
		s.While = d.condition(path, v)
	case "steps", "else":
		steps := d.steps(path, v)
		if k == "steps" {
			s.Steps = steps
		} else {
			s.Else = steps
		}
	case "times", "max":
		n, ok := d.integer(path, v)
		switch {
		case !ok:
		case k == "times":
			s.Times = &n
		default:
			s.Max = &n
		}
	case "items":
		s.Items = d.items(path, v)
	case "as":
		s.As, _ = d.str(path, v)
	}
}

// steps reads a block's steps; blocks nested deeper than MaxDepth are an
// issue and are not read further (a hostile document could nest
// thousands).
func (d *decoder) steps(path string, v any) []Step {
	a, ok := d.array(path, v)
	if !ok {
		return nil
	}
	if d.depth >= MaxDepth {
		d.issues.add(path, CodeRange, "blocks may be nested at most %d deep", MaxDepth)
		return nil
	}
	d.depth++
	defer func() { d.depth-- }()
	out := make([]Step, len(a))
	for i, x := range a {
		out[i] = decodeStep(d, index(path, i), x)
	}
	return out
}

// condition reads {kind, target?, name?, expected?, match?, code?}.
func (d *decoder) condition(p string, v any) *Condition {
	m, ok := d.object(p, v)
	if !ok {
		return nil
	}
	c := &Condition{}
	for _, k := range sortedKeys(m) {
		path := p + "." + k
		switch v := m[k]; {
		case v == nil:
		case k == "target":
			c.Target = d.target(path, v)
		case k == "expected":
			if str, ok := d.str(path, v); ok {
				c.Expected = &str
			}
		case k == "kind":
			c.Kind, _ = d.str(path, v)
		case k == "name":
			c.Name, _ = d.str(path, v)
		case k == "match":
			c.Match, _ = d.str(path, v)
		case k == "code":
			c.Code, _ = d.str(path, v)
		default:
			d.unknown(p, k)
		}
	}
	return c
}

// items reads a reference string or an array of strings.
func (d *decoder) items(p string, v any) *Items {
	switch x := v.(type) {
	case string:
		return &Items{Ref: x}
	case []any:
		list := d.strings(p, x)
		if list == nil {
			list = []string{}
		}
		return &Items{List: list}
	}
	d.wrong(p, `a reference such as "${rows}" or an array of strings`, v)
	return nil
}
