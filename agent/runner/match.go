package runner

import (
	"context"
	"errors"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
	"github.com/ysmood/gson"
)

// Match runs one locator in a document exactly as a run resolves a target
// (queryJS, or the accessibility tree for role), so that the authoring side
// can verify, at capture time, the locators a recorded step will replay
// with. c sends DevTools requests on the page's session sessionID (a
// *rod.Page does); doc is the document of the frame to search, a remote
// object in any world of that frame. It answers how many elements match
// and, when exactly one does, its backend node id. A malformed locator is
// an error.
func Match(ctx context.Context, c proto.Client, sessionID proto.TargetSessionID, doc proto.RuntimeRemoteObjectID, l protocol.Locator) (int, proto.DOMBackendNodeID, error) {
	if doc == "" {
		return 0, 0, errors.New("match: no document to search")
	}
	s := bound{c: c, id: sessionID, ctx: ctx}
	if l.Kind == "role" {
		ids, err := findRole(s, doc, l)
		if err != nil || len(ids) != 1 {
			return len(ids), 0, err
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
