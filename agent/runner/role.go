package runner

import (
	"context"
	"strings"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// axRoles maps ARIA role names to the names Chromium's accessibility tree
// uses where they differ.
var axRoles = map[string]string{"img": "image", "presentation": "none"}

// queryRole finds elements by ARIA role and accessible name through
// Chromium's accessibility tree (Accessibility.queryAXTree), so the role
// and name are the ones assistive technology sees. The name matches as
// Playwright's getByRole does: exact (whitespace normalised) with
// locator.Exact, else a case-insensitive substring; when a substring
// matches several elements and exactly one of them has the whole name, that
// one is taken.
func (r *run) queryRole(ctx context.Context, fr frame, l protocol.Locator) (elem, int, error) {
	s := r.sess(ctx)
	doc := fr.doc
	if doc == "" {
		obj, err := evalObject(ctx, r.tab.sess, "document")
		if err != nil {
			return elem{}, 0, err
		}
		doc = obj.ObjectID
	}
	ids, err := findRole(s, doc, l)
	if err != nil {
		return elem{}, 0, err
	}
	if len(ids) != 1 {
		return elem{}, len(ids), nil
	}
	obj, err := proto.DOMResolveNode{BackendNodeID: ids[0]}.Call(s)
	if err != nil {
		return elem{}, 0, err
	}
	return elem{obj: obj.Object.ObjectID, framed: fr.nested}, 1, nil
}

// findRole lists the backend nodes the role locator l matches in the
// document doc (see queryRole). c is bound to the page's session.
func findRole(c proto.Client, doc proto.RuntimeRemoteObjectID, l protocol.Locator) ([]proto.DOMBackendNodeID, error) {
	nodes, err := axNodes(c, doc, l.Value)
	if err != nil {
		return nil, err
	}
	return filterRole(nodes, l), nil
}

// axNodes are the nodes of role in doc's accessibility tree.
func axNodes(c proto.Client, doc proto.RuntimeRemoteObjectID, role string) ([]*proto.AccessibilityAXNode, error) {
	role = strings.ToLower(strings.TrimSpace(role))
	if m, ok := axRoles[role]; ok {
		role = m
	}
	res, err := proto.AccessibilityQueryAXTree{ObjectID: doc, Role: role}.Call(c)
	if err != nil {
		return nil, err
	}
	return res.Nodes, nil
}

// filterRole keeps the nodes whose name matches l's (see queryRole).
func filterRole(nodes []*proto.AccessibilityAXNode, l protocol.Locator) []proto.DOMBackendNodeID {
	want := normSpace(l.Name)
	var ids, whole []proto.DOMBackendNodeID
	seen := map[proto.DOMBackendNodeID]bool{}
	for _, n := range nodes {
		id := n.BackendDOMNodeID
		if n.Ignored || id == 0 || seen[id] {
			continue
		}
		seen[id] = true
		if want != "" {
			name := ""
			if n.Name != nil {
				name = normSpace(n.Name.Value.Str())
			}
			if l.Exact && name != want || !l.Exact && !strings.Contains(strings.ToLower(name), strings.ToLower(want)) {
				continue
			}
			if strings.EqualFold(name, want) {
				whole = append(whole, id)
			}
		}
		ids = append(ids, id)
	}
	if len(ids) > 1 && len(whole) == 1 {
		ids = whole
	}
	return ids
}

// normSpace collapses runs of white space and trims.
func normSpace(s string) string { return strings.Join(strings.Fields(s), " ") }
