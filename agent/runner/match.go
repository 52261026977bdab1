package runner

import (
	"context"
	"errors"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
	"github.com/ysmood/gson"
)

// Matcher runs locators in one document exactly as a run resolves a
// target (queryJS, or the accessibility tree for role), so that the
// authoring side can verify, at capture time, the locators a recorded step
// will replay with. It keeps the accessibility tree's answer per role for
// its life (one verification of one element): on a large page each query
// takes hundreds of milliseconds, and an element's candidates often share
// a role.
type Matcher struct {
	s    bound
	doc  proto.RuntimeRemoteObjectID
	axes map[string][]*proto.AccessibilityAXNode
}

// NewMatcher searches doc, the document of a frame (a remote object in any
// world of it); c sends DevTools requests on the page's session sessionID
// (a *rod.Page does).
func NewMatcher(ctx context.Context, c proto.Client, sessionID proto.TargetSessionID, doc proto.RuntimeRemoteObjectID) *Matcher {
	return &Matcher{s: bound{c: c, id: sessionID, ctx: ctx}, doc: doc, axes: map[string][]*proto.AccessibilityAXNode{}}
}

// Match answers how many elements l matches and, when exactly one does, its
// backend node id. A malformed locator is an error.
func (m *Matcher) Match(l protocol.Locator) (int, proto.DOMBackendNodeID, error) {
	s, doc := m.s, m.doc
	if doc == "" {
		return 0, 0, errors.New("match: no document to search")
	}
	if l.Kind == "role" {
		nodes, ok := m.axes[l.Value]
		if !ok {
			var err error
			if nodes, err = axNodes(s, doc, l.Value); err != nil {
				return 0, 0, err
			}
			m.axes[l.Value] = nodes
		}
		ids := filterRole(nodes, l)
		if len(ids) != 1 {
			return len(ids), 0, nil
		}
		return 1, ids[0], nil
	}
	call := proto.RuntimeCallFunctionOn{ObjectID: doc, FunctionDeclaration: queryJS, ObjectGroup: matchGroup}
	for _, a := range []any{l.Kind, l.Value, l.Exact} {
		call.Arguments = append(call.Arguments, &proto.RuntimeCallArgument{Value: gson.New(a)})
	}
	res, err := call.Call(s)
	if err != nil {
		return 0, 0, err
	}
	if res.ExceptionDetails != nil {
		return 0, 0, exception(res.ExceptionDetails)
	}
	r := res.Result
	switch r.Type {
	case proto.RuntimeRemoteObjectTypeObject:
		if r.Subtype == proto.RuntimeRemoteObjectSubtypeNode && r.ObjectID != "" {
			node, err := proto.DOMDescribeNode{ObjectID: r.ObjectID}.Call(s)
			_ = proto.RuntimeReleaseObject{ObjectID: r.ObjectID}.Call(s)
			if err != nil {
				return 0, 0, err
			}
			return 1, node.Node.BackendNodeID, nil
		}
	case proto.RuntimeRemoteObjectTypeNumber:
		return r.Value.Int(), 0, nil
	case proto.RuntimeRemoteObjectTypeString:
		return 0, 0, errors.New(r.Value.Str())
	}
	return 0, 0, errors.New("unexpected answer from the page while looking for " + describe(l))
}

// Match runs one locator in the document doc, as Matcher.Match does.
func Match(ctx context.Context, c proto.Client, sessionID proto.TargetSessionID, doc proto.RuntimeRemoteObjectID, l protocol.Locator) (int, proto.DOMBackendNodeID, error) {
	return NewMatcher(ctx, c, sessionID, doc).Match(l)
}

// matchGroup is the object group of the handles Match makes, released as
// soon as they are described.
const matchGroup = "ta-match"

// bound is a proto.Client bound to one session and context, for callers
// that hold a connection other than the runner's own.
type bound struct {
	c   proto.Client
	id  proto.TargetSessionID
	ctx context.Context
}

func (b bound) Call(ctx context.Context, sessionID, method string, params any) ([]byte, error) {
	return b.c.Call(ctx, sessionID, method, params)
}
func (b bound) GetSessionID() proto.TargetSessionID { return b.id }
func (b bound) GetContext() context.Context         { return b.ctx }
