package protocol

import "slices"

// Migration of DSL version 1 documents.

// decodeV1 reads a version 1 document and migrates it to version 2.
func decodeV1(d *decoder, m map[string]any) Document {
	var doc Document
	var cmds []seCommand
	for _, k := range sortedKeys(m) {
		v := m[k]
		switch {
		case k == "version" || k == "dsl" || v == nil || decodeHeader(d, &doc, k, v):
		case k == "steps":
			if a, ok := d.array(k, v); ok {
				for i, x := range a {
					if cmd, ok := d.seCommand(index(k, i), x, true); ok {
						cmds = append(cmds, cmd)
					}
				}
			}
		default:
			d.unknown("", k)
		}
	}
	c := newConverter("")
	for i, cmd := range cmds {
		c.at = i
		c.command(cmd)
	}
	c.finish()
	doc.Description = c.describe(doc.Description)
	// Control flow pairs into blocks (selenium_flow.go); what does not
	// pair, and a block command that cannot be converted, is an issue at
	// its command.
	nodes, unpaired := c.tree()
	for _, u := range unpaired {
		c.issues.add(cmds[u.at].Path+".command", CodeFormat, "%s", u.msg)
	}
	for _, j := range sortedInts(c.dropped) {
		c.issues.add(cmds[j].Path+".command", CodeUnsupported, "%s", c.dropped[j])
	}
	doc.Steps = nodeSteps(nodes)
	d.issues = merge(d.issues, c.issues)
	return doc
}

// seCommand reads a command object. strict (version 1, our own format)
// reports unknown fields; a .side file has many fields we do not need.
func (d *decoder) seCommand(p string, v any, strict bool) (seCommand, bool) {
	cmd := seCommand{Path: p}
	m, ok := d.object(p, v)
	if !ok {
		return cmd, false
	}
	for _, k := range sortedKeys(m) {
		v, path := m[k], p+"."+k
		switch {
		case v == nil:
		case k == "command":
			cmd.Command, _ = d.str(path, v)
		case k == "target":
			cmd.Target, _ = d.str(path, v)
		case k == "value":
			cmd.Value, _ = d.str(path, v)
		case k == "comment":
			cmd.Comment, _ = d.str(path, v)
		case k == "targets":
			cmd.Targets = d.targets(path, v)
		case k == "id" && strict:
			cmd.ID, _ = d.str(path, v)
		case k == "opensWindow" && !strict:
			cmd.OpensWindow, _ = v.(bool)
		case k == "windowHandleName" && !strict:
			cmd.WindowHandleName, _ = v.(string)
		case strict:
			d.unknown(p, k)
		}
	}
	return cmd, true
}

// targets reads Selenium IDE's alternatives: [["css=#x", "css:finder"], ...]
// (a plain string per alternative is accepted too).
func (d *decoder) targets(p string, v any) []string {
	a, ok := d.array(p, v)
	if !ok {
		return nil
	}
	var out []string
	for _, x := range a {
		switch x := x.(type) {
		case string:
			out = append(out, x)
		case []any:
			if len(x) > 0 {
				if s, ok := x[0].(string); ok {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

func sortedInts(m map[int]string) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
