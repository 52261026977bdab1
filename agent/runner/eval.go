package runner

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
)

// jsError is an exception thrown by JavaScript the runner evaluated.
type jsError struct{ msg string }

func (e *jsError) Error() string { return e.msg }

func exception(d *proto.RuntimeExceptionDetails) error {
	msg := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		msg = d.Exception.Description
	} else if d.Exception != nil && d.Exception.Value.Str() != "" {
		msg = d.Exception.Value.Str()
	}
	msg, _, _ = strings.Cut(msg, "\n") // drop the stack
	return &jsError{msg}
}

// evalValue evaluates expr in the page's main frame, awaiting a promise,
// and returns its JSON value.
func evalValue(ctx context.Context, s session, expr string) (gson.JSON, error) {
	res, err := proto.RuntimeEvaluate{Expression: expr, ReturnByValue: true, AwaitPromise: true}.Call(s.with(ctx))
	if err != nil {
		return gson.JSON{}, err
	}
	if res.ExceptionDetails != nil {
		return gson.JSON{}, exception(res.ExceptionDetails)
	}
	return res.Result.Value, nil
}

// evalObject evaluates expr in the page's main frame and returns a handle
// to the result.
func evalObject(ctx context.Context, s session, expr string) (*proto.RuntimeRemoteObject, error) {
	res, err := proto.RuntimeEvaluate{Expression: expr}.Call(s.with(ctx))
	if err != nil {
		return nil, err
	}
	if res.ExceptionDetails != nil {
		return nil, exception(res.ExceptionDetails)
	}
	return res.Result, nil
}

// callOn calls the function fn with this = obj and args passed as JSON
// values, awaiting a promise; byValue returns the result as JSON rather
// than as a handle.
func callOn(ctx context.Context, s session, obj proto.RuntimeRemoteObjectID, fn string, byValue bool, args ...any) (*proto.RuntimeRemoteObject, error) {
	if obj == "" {
		return nil, errors.New("no JavaScript object to call on")
	}
	call := proto.RuntimeCallFunctionOn{ObjectID: obj, FunctionDeclaration: fn, ReturnByValue: byValue, AwaitPromise: true}
	for _, a := range args {
		call.Arguments = append(call.Arguments, &proto.RuntimeCallArgument{Value: gson.New(a)})
	}
	res, err := call.Call(s.with(ctx))
	if err != nil {
		return nil, err
	}
	if res.ExceptionDetails != nil {
		return nil, exception(res.ExceptionDetails)
	}
	return res.Result, nil
}

// callValue is callOn returning the JSON value.
func callValue(ctx context.Context, s session, obj proto.RuntimeRemoteObjectID, fn string, args ...any) (gson.JSON, error) {
	res, err := callOn(ctx, s, obj, fn, true, args...)
	if err != nil {
		return gson.JSON{}, err
	}
	return res.Value, nil
}

// jsCall renders fn called with this = document of the main frame and the
// given arguments, for Runtime.evaluate.
func jsCall(fn string, args ...any) string {
	var b strings.Builder
	b.WriteString("(")
	b.WriteString(fn)
	b.WriteString(").call(document")
	for _, a := range args {
		j, _ := json.Marshal(a)
		b.WriteString(", ")
		b.Write(j)
	}
	b.WriteString(")")
	return b.String()
}

// outcome reads the convention of the runner's page functions: null or
// true is success, "!reason" a permanent failure, any other string a
// reason to keep waiting.
func outcomeOf(v gson.JSON) error {
	if s, ok := v.Val().(string); ok {
		if r, bad := strings.CutPrefix(s, "!"); bad {
			return permanent("%s", r)
		}
		return errors.New(s)
	}
	return nil
}
