package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// navigate opens a URL and waits for the page's load event. A URL that is
// not absolute is resolved against the baseUrl variable, if any.
func navigate(s *stepRun, ctx context.Context, st protocol.Step) error {
	if protocol.RefusedScheme(st.URL) != "" {
		return permanent("%s", refused("navigate to", st.URL, protocol.OpenRule))
	}
	target, err := s.r.absolute(st.URL)
	if err != nil {
		return err
	}
	s.used["url"] = target
	if why := protocol.CheckOpenURL(target); why != "" { // the base URL can be anything
		return permanent("%s", refused("navigate to", target, why))
	}
	nav, err := proto.PageNavigate{URL: target}.Call(s.r.sess(ctx))
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("timed out after %s navigating to %s", s.timeout, target)
		}
		return fmt.Errorf("navigating to %s: %w", target, plainCDP(err))
	}
	if nav.ErrorText != "" {
		return permanent("navigating to %s failed: %s", target, nav.ErrorText)
	}
	return s.poll(ctx, "for the page to load", func(ctx context.Context) error {
		_, err := evalValue(ctx, s.r.tab.sess, loadJS)
		return err
	})
}

// absolute returns u as an absolute URL.
func (r *run) absolute(u string) (string, error) {
	if strings.TrimSpace(u) == "" {
		return "", permanent("the navigate step has no url")
	}
	if p, err := url.Parse(u); err == nil {
		switch strings.ToLower(p.Scheme) {
		case "http", "https":
			if p.Host != "" {
				return u, nil
			}
		case "about": // about:blank; CheckOpenURL refuses the others
			return u, nil
		}
	}
	base, ok := r.lookup("baseUrl")
	if !ok || base == "" {
		return "", permanent("the url %q is not absolute after interpolation: write a full address such as https://example.com/login, or give the environment a baseUrl variable", u)
	}
	if protocol.RefusedScheme(base) != "" {
		return "", permanent("%s", refused("navigate to", u+" under the baseUrl "+base, protocol.OpenRule))
	}
	b, err := url.Parse(base)
	if err != nil || b.Scheme == "" || b.Host == "" {
		return "", permanent("the url %q is relative and the baseUrl variable %q is not an absolute URL", u, base)
	}
	rel, err := url.Parse(u)
	if err != nil {
		return "", permanent("the url %q is not valid: %v", u, err)
	}
	if !strings.HasSuffix(b.Path, "/") {
		b.Path += "/" // so "login" lands beside the base path, not instead of its last segment
	}
	return b.ResolveReference(rel).String(), nil
}

func wait(s *stepRun, ctx context.Context, st protocol.Step) error {
	if st.Ms == nil || *st.Ms < 0 {
		return permanent("the wait step needs ms (0 or more)")
	}
	if !sleep(ctx, time.Duration(*st.Ms)*time.Millisecond) {
		return ctx.Err()
	}
	return nil
}

// screenshotStep saves the page (the viewport, or the whole page with
// fullPage) or one element, named after the step's name or id.
func screenshotStep(s *stepRun, ctx context.Context, st protocol.Step) error {
	var data []byte
	var err error
	if st.Target != nil && len(st.Target.Locators) > 0 {
		el, _, aerr := s.actionable(ctx, st.Target, shotChecks)
		if aerr != nil {
			return aerr
		}
		data, err = s.r.captureElement(ctx, el)
	} else {
		data, err = s.r.capture(ctx, st.FullPage)
	}
	if err != nil {
		return fmt.Errorf("taking the screenshot: %w", err)
	}
	name := st.Name
	if name == "" {
		name = st.ID
	}
	if len(name) > 4 && strings.EqualFold(name[len(name)-4:], ".png") {
		name = name[:len(name)-4]
	}
	if name = sanitizeName(s.r.mask.String(name)); name == "" {
		name = "screenshot"
	}
	s.shot = s.r.out.artifact(s.index, name, ".png", "image/png", data)
	return nil
}

var identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// setVariable sets a variable from its value, or from what from names
// (see setFrom): the target's text when it has a target and no from.
func setVariable(s *stepRun, ctx context.Context, st protocol.Step) error {
	if !identRe.MatchString(st.Name) {
		return permanent("invalid variable name %q: use letters, digits and _, not starting with a digit", st.Name)
	}
	if st.Value != nil {
		s.r.setVar(st.Name, *st.Value, false)
		s.use("result", *st.Value)
		return nil
	}
	from := st.From
	if from == "" && st.Target != nil {
		from = "text"
	}
	if from == "" {
		return permanent("setVariable needs a value, a target or from")
	}
	return s.poll(ctx, "for the element", func(ctx context.Context) error {
		v, err := s.setFrom(ctx, st, from)
		if err != nil {
			return err
		}
		// A count is a number, as Selenium IDE's storeElementCount keeps
		// it: a script or condition gets 4, not "4" (${n} === 4 holds).
		s.r.setVar(st.Name, v, from == "count")
		s.use("result", v)
		return nil
	})
}

// script runs the step's code as the body of a function in the page's
// main frame. References in the code arrive as the vars argument
// (protocol.ScriptSource), never pasted into the source. With assign the
// result is stored: a string as it is, undefined and null as "", anything
// else as JSON.
func script(s *stepRun, ctx context.Context, st protocol.Step) error {
	if st.Assign != "" && !identRe.MatchString(st.Assign) {
		return permanent("invalid variable name %q in assign", st.Assign)
	}
	res, err := s.runScript(ctx, st.Code)
	if err != nil {
		return err
	}
	v := scriptString(res)
	if st.Assign != "" {
		str := res.Type == proto.RuntimeRemoteObjectTypeString || res.Type == proto.RuntimeRemoteObjectTypeUndefined || v == ""
		s.r.setVar(st.Assign, v, !str && json.Valid([]byte(v)))
	}
	if res.Type != proto.RuntimeRemoteObjectTypeUndefined {
		s.use("result", v) // Try shows it as "Value"
	}
	return nil
}

// runScript runs code as the body of an async function in the page, its
// references passed as vars (protocol.ScriptSource), and answers what it
// returned.
func (s *stepRun) runScript(ctx context.Context, code string) (*proto.RuntimeRemoteObject, error) {
	fn, refs := protocol.ScriptSource(code)
	// The code is the body of an async function, so it may await; the
	// promise it returns is awaited (callOn), as the editor's Try does.
	fn = "async " + fn
	vars := map[string]any{}
	secrets := map[string]string{}
	var fields []string // bases of dotted references
	for _, ref := range refs {
		v, err := s.r.value(ref) // a missing field fails here, as in any other step
		if err != nil {
			return nil, err
		}
		if name, isSecret := strings.CutPrefix(ref, protocol.SecretPrefix); isSecret {
			secrets[name] = v
		} else if base, _, dotted := strings.Cut(ref, "."); dotted {
			fields = append(fields, base)
		} else if s.r.typed(ref) {
			vars[ref] = json.RawMessage(v) // an array a script returned stays an array
		} else {
			vars[ref] = v
		}
	}
	// ${resp.body.id} is vars.resp.body.id in the code: the variable
	// arrives parsed, so its fields keep their JSON types (and a plain
	// ${resp} in the same script reads the parsed value too).
	for _, base := range fields {
		raw, _ := s.r.plain(base)
		vars[base] = json.RawMessage(raw)
	}
	if len(secrets) > 0 {
		vars["secrets"] = secrets
	}
	win, err := evalObject(ctx, s.r.tab.sess, "window")
	if err != nil {
		return nil, err
	}
	heard := s.hearConsole(ctx)
	res, err := callOn(ctx, s.r.tab.sess, win.ObjectID, fn, true, vars)
	heard()
	if err != nil {
		if _, ok := err.(*jsError); ok {
			return nil, permanent("the script threw: %v", err)
		}
		return nil, err
	}
	return res, nil
}

// scriptString turns a script's result into a variable's value.
func scriptString(res *proto.RuntimeRemoteObject) string {
	switch {
	case res.Type == proto.RuntimeRemoteObjectTypeUndefined || res.Value.Nil() && res.UnserializableValue == "":
		return ""
	case res.UnserializableValue != "":
		return string(res.UnserializableValue)
	case res.Type == proto.RuntimeRemoteObjectTypeString:
		return res.Value.Str()
	}
	b, err := json.Marshal(res.Value.Val())
	if err != nil {
		return res.Value.String()
	}
	return string(b)
}

func callComponent(s *stepRun, ctx context.Context, st protocol.Step) error {
	return permanent("components are not supported by this agent yet")
}
