package runner

import (
	"encoding/json"

	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
)

// The serializer is compiled once per document, not once per step
// (docs/trace.md "Cost"): sending its 12 KB and compiling them took most
// of the trace's time on a page. The first snapshot in a page's main
// world installs it alongside (a function handle in the trace's object
// group: nothing the page can see or reach); the following ones call it
// by that handle. The handle is the world's: the tracer follows each
// page's main world by its DevTools events (Runtime is on in a traced
// run), so a step after a navigation sends the source again and installs
// anew, and never calls a handle of a document that is gone.

var traceContext = []byte(`{"method":"Runtime.executionContext`)

// snapshotFn is the serializer installed in a page's main world.
type snapshotFn struct {
	world string                      // the world's uniqueId
	obj   proto.RuntimeRemoteObjectID // "" while the install's answer has not been read
}

// snapshotGroup holds the installed serializers: released with their page.
const snapshotGroup = "ta-trace"

// installJS makes the serializer a function of three arguments (target,
// locator, size bound), queryJS bound in.
var installJS = "(function () { const s = (" + snapshotJS + "), q = (" + queryJS +
	"); return function (t, l, m) { return s(t, l, m, q); }; })()"

// callInstalled calls the installed serializer (this).
const callInstalled = "function (t, l, m) { return this(t, l, m); }"

// worldEvent follows the main world of session's page (whose top frame is
// frame): created, destroyed, or all cleared by a navigation.
func (tr *tracer) worldEvent(session, frame, method string, params json.RawMessage) {
	var p struct {
		Context struct {
			UniqueID string `json:"uniqueId"`
			AuxData  struct {
				IsDefault bool   `json:"isDefault"`
				FrameID   string `json:"frameId"`
			} `json:"auxData"`
		} `json:"context"`
		UniqueID string `json:"executionContextUniqueId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	switch method {
	case "Runtime.executionContextCreated":
		if c := p.Context; c.AuxData.IsDefault && c.AuxData.FrameID == frame {
			tr.worlds[session] = c.UniqueID
		}
	case "Runtime.executionContextDestroyed":
		if tr.worlds[session] == p.UniqueID {
			delete(tr.worlds, session)
		}
	case "Runtime.executionContextsCleared":
		delete(tr.worlds, session)
	}
}

// snapshotVia says how to serialize session's page now: by the installed
// function (its handle), or by the source, then installing it in world
// when world is not "" (the main world is known and has none yet).
func (tr *tracer) snapshotVia(session string) (obj proto.RuntimeRemoteObjectID, world string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	world = tr.worlds[session]
	fn, ok := tr.fns[session]
	switch {
	case world == "":
		return "", ""
	case ok && fn.world == world:
		return fn.obj, "" // "": being installed, the source once more
	}
	tr.fns[session] = snapshotFn{world: world}
	return "", world
}

// installed records the handle an install answered with (raw) in world.
func (tr *tracer) installed(session, world string, raw []byte) {
	var a struct {
		Result struct {
			Result struct {
				ObjectID proto.RuntimeRemoteObjectID `json:"objectId"`
			} `json:"result"`
		} `json:"result"`
	}
	if json.Unmarshal(raw, &a) != nil || a.Result.Result.ObjectID == "" {
		return
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if fn, ok := tr.fns[session]; ok && fn.world == world {
		tr.fns[session] = snapshotFn{world: world, obj: a.Result.Result.ObjectID}
	}
}

// installRequest installs the serializer in world.
func installRequest(world string) wireRequest {
	return wireRequest{"Runtime.evaluate", proto.RuntimeEvaluate{Expression: installJS, UniqueContextID: world,
		ObjectGroup: snapshotGroup, Silent: true}}
}

// installedRequest serializes the page by the installed function obj,
// with the step's element (target, "" for none) and locator.
func installedRequest(obj, target proto.RuntimeRemoteObjectID, loc *snapshotLoc, max int) wireRequest {
	el := &proto.RuntimeCallArgument{Value: gson.New(nil)}
	if target != "" {
		el = &proto.RuntimeCallArgument{ObjectID: target}
	}
	return wireRequest{"Runtime.callFunctionOn", proto.RuntimeCallFunctionOn{ObjectID: obj, FunctionDeclaration: callInstalled,
		ReturnByValue: true, Arguments: []*proto.RuntimeCallArgument{el, {Value: gson.New(loc)}, {Value: gson.New(max)}}}}
}
