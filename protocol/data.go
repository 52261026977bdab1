package protocol

import "strings"

// Data binding: a document's "data" member (see DataBinding).

// Identifier prefixes of the records a DataBinding names.
const (
	DataSetPrefix  = "tds_"
	DataPoolPrefix = "dpl_"
)

// dataBinding reads {set?, pool?, mode?}; any other member is an issue.
func (d *decoder) dataBinding(path string, v any) *DataBinding {
	m, ok := d.object(path, v)
	if !ok {
		return nil
	}
	var b DataBinding
	for _, k := range sortedKeys(m) {
		x := m[k]
		p := keyPath(path, k)
		switch {
		case x == nil:
		case k == "set":
			b.Set, _ = d.str(p, x)
		case k == "pool":
			b.Pool, _ = d.str(p, x)
		case k == "mode":
			b.Mode, _ = d.str(p, x)
		default:
			d.unknown(path, k)
		}
	}
	return &b
}

// validateData checks the shape of a binding; whether its records exist
// in the test's project is the hub's check.
func validateData(l *issueList, b *DataBinding) {
	if b == nil {
		return
	}
	checkID := func(path, id, prefix, what string) {
		if id != "" && (!strings.HasPrefix(id, prefix) || len(id) > 100 || hasControl(id)) {
			l.add(path, CodeFormat, "%s must be a %s id (%s...)", path, what, prefix)
		}
	}
	checkID("data.set", b.Set, DataSetPrefix, "test data set")
	checkID("data.pool", b.Pool, DataPoolPrefix, "data pool")
	switch {
	case b.Mode == "":
	case b.Pool == "":
		l.add("data.mode", CodeConflict, "data.mode applies to a data pool: set data.pool too, or remove data.mode")
	case b.Mode != PoolLease && b.Mode != PoolConsume:
		l.add("data.mode", CodeEnum, "data.mode must be %q or %q, not %q", PoolLease, PoolConsume, clip(b.Mode, 40))
	}
}
