package author

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/agent/runner"
	"github.com/testautomation/ta/protocol"
)

// maxLocators bounds the unique locators a target keeps: enough fallbacks
// for self-healing without burying the best ones.
const maxLocators = 8

// candidate is one locator locators.js proposes, with its score.
type candidate struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
	Name  string `json:"name"`
	Exact bool   `json:"exact"`
	Score int    `json:"score"`
}

func (c candidate) locator() protocol.Locator {
	return protocol.Locator{Kind: c.Kind, Value: c.Value, Name: c.Name, Exact: c.Exact}
}

// description is what __taAuthor.describe answers.
type description struct {
	Tag         string            `json:"tag"`
	Text        string            `json:"text"`
	Role        string            `json:"role"`
	Name        string            `json:"name"`
	Attributes  map[string]string `json:"attributes"`
	Box         struct{ X, Y, Width, Height float64 }
	Fingerprint map[string]string `json:"fingerprint"`
}

// describeJS runs on the element in the in-page script's world.
const describeJS = `function () {
  const A = globalThis.__taAuthor;
  if (!A || !A.candidates) throw new Error('the in-page script is not installed in this frame');
  return {candidates: A.candidates(this), description: A.describe(this)};
}`

// retarget is the element an action on obj is about (__taAuthor.retarget:
// the button an icon is in), or obj.
func retarget(ctx context.Context, page *rod.Page, obj proto.RuntimeRemoteObjectID) proto.RuntimeRemoteObjectID {
	res, err := proto.RuntimeCallFunctionOn{ObjectID: obj, FunctionDeclaration: `function () {
  const A = globalThis.__taAuthor;
  return A && A.retarget ? A.retarget(this) : this;
}`}.Call(page.Context(ctx))
	if err != nil || res.ExceptionDetails != nil || res.Result.ObjectID == "" {
		return obj
	}
	return res.Result.ObjectID
}

// describeTarget builds the ranked, verified target of an element and its
// description. page is the session's page; obj is the element as a remote
// object of the isolated world of its frame; frames is the path of iframe
// locators from the top frame to that frame (outermost first), which the
// result's Target.Frame and Element.Frame repeat. Every locator in the
// result's Target.Locators matched exactly this element in the live page
// through the runner's own engine (runner.Match), so a replay finds what
// was recorded; the other candidates follow them with their match counts
// (Matches other than 1), for the picker to show. A candidate that matched
// one other element is left out: offered as a fallback, it would heal a
// step onto the wrong element. The element described is the control obj is
// part of, when it is (retarget): a click on an icon's <svg> is a click on
// its button.
func describeTarget(ctx context.Context, page *rod.Page, obj proto.RuntimeRemoteObjectID, frames []protocol.Locator) (protocol.PickedTarget, protocol.PickedElement, error) {
	if t := retarget(ctx, page, obj); t != obj {
		obj = t
		defer func() { _ = proto.RuntimeReleaseObject{ObjectID: t}.Call(page.Context(ctx)) }()
	}
	var out struct {
		Candidates  []candidate `json:"candidates"`
		Description description `json:"description"`
	}
	if err := callJSON(ctx, page, obj, describeJS, &out); err != nil {
		return protocol.PickedTarget{}, protocol.PickedElement{}, fmt.Errorf("describing the element: %w", err)
	}
	d := out.Description
	if role, name, ok := axRoleName(ctx, page, obj); ok {
		// Chromium's own role and name are the ones the runner's role
		// locator queries: a candidate from them, and the description.
		d.Role, d.Name = role, name
		if name != "" && len([]rune(name)) <= 80 {
			out.Candidates = append(out.Candidates,
				candidate{Kind: "role", Value: role, Name: name, Score: roleScore},
				candidate{Kind: "role", Value: role, Name: name, Exact: true, Score: roleScore + 5})
		}
	}
	ranked, err := verify(ctx, page, obj, dedupe(out.Candidates))
	if err != nil {
		return protocol.PickedTarget{}, protocol.PickedElement{}, err
	}
	if frames == nil {
		frames = []protocol.Locator{}
	}
	el := protocol.PickedElement{
		Tag: d.Tag, Text: d.Text, Role: d.Role, Name: d.Name, Attributes: d.Attributes,
		Box: box(ctx, page, obj), Frame: frames,
	}
	if el.Box == nil && len(frames) == 0 && d.Box.Width > 0 {
		el.Box = &protocol.Box{X: d.Box.X, Y: d.Box.Y, Width: d.Box.Width, Height: d.Box.Height}
	}
	if el.Attributes == nil {
		el.Attributes = map[string]string{}
	}
	return protocol.PickedTarget{Locators: ranked, Frame: frames, Fingerprint: d.Fingerprint}, el, nil
}

// frameLocator is the best unique locator of an iframe element (obj, a
// remote object in its parent frame's isolated world) in its parent's
// document, verified as describeTarget verifies; the runner enters frames
// with it. Only kinds that say which iframe it is are used (test id, title,
// css by id, name, src or path, xpath).
func frameLocator(ctx context.Context, page *rod.Page, obj proto.RuntimeRemoteObjectID) (protocol.Locator, error) {
	var cs []candidate
	if err := callJSON(ctx, page, obj, `function () {
  const A = globalThis.__taAuthor;
  if (!A || !A.candidates) throw new Error('the in-page script is not installed in this frame');
  return A.candidates(this);
}`, &cs); err != nil {
		return protocol.Locator{}, fmt.Errorf("describing the iframe: %w", err)
	}
	kept := cs[:0]
	for _, c := range cs {
		switch c.Kind {
		case "testId", "title", "css", "xpath":
			kept = append(kept, c)
		}
	}
	ranked, err := verify(ctx, page, obj, kept)
	if err != nil {
		return protocol.Locator{}, err
	}
	if len(ranked) == 0 || ranked[0].Matches != 1 {
		return protocol.Locator{}, errors.New("no locator tells this iframe apart from the others in its page")
	}
	return ranked[0].Locator, nil
}

// verify runs every candidate with the runner's engine in the element's
// document: the ones that match exactly obj come first by score (a looser
// variant making an exact one redundant; at most maxLocators), then those
// matching several or none with their counts.
func verify(ctx context.Context, page *rod.Page, obj proto.RuntimeRemoteObjectID, cs []candidate) ([]protocol.RankedLocator, error) {
	p := page.Context(ctx)
	node, err := proto.DOMDescribeNode{ObjectID: obj}.Call(p)
	if err != nil {
		return nil, fmt.Errorf("the element is gone from the page: %w", err)
	}
	self := node.Node.BackendNodeID
	docRes, err := proto.RuntimeCallFunctionOn{ObjectID: obj, FunctionDeclaration: `function () { return this.ownerDocument; }`}.Call(p)
	if err != nil {
		return nil, err
	}
	if docRes.ExceptionDetails != nil || docRes.Result.ObjectID == "" {
		return nil, errors.New("the element has no document")
	}
	doc := docRes.Result.ObjectID
	defer func() { _ = proto.RuntimeReleaseObject{ObjectID: doc}.Call(p) }()

	// A hidden page (the tab a click just left for the tab it opened) does
	// not render, and Accessibility.queryAXTree waits for it: its role
	// candidates are not verified (a recording keeps those the page
	// counted unique when the action happened, see asItWas).
	hidden := false
	if res, err := (proto.RuntimeCallFunctionOn{ObjectID: doc, FunctionDeclaration: `function () { return this.visibilityState === 'hidden'; }`,
		ReturnByValue: true}).Call(p); err == nil && res.ExceptionDetails == nil {
		hidden = res.Result.Value.Bool()
	}

	sort.SliceStable(cs, func(i, j int) bool { return cs[i].Score < cs[j].Score })
	m := runner.NewMatcher(ctx, page, page.SessionID, doc)
	var unique, others []protocol.RankedLocator
	looseUnique := map[string]bool{}
	for _, c := range cs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if strings.TrimSpace(c.Value) == "" {
			continue // not a valid locator (a link without text, say): the step would be refused
		}
		if hidden && c.Kind == "role" {
			continue
		}
		key := c.Kind + "\x00" + c.Value + "\x00" + c.Name
		if c.Exact && looseUnique[key] {
			continue // the looser form already finds exactly this element
		}
		n, id, err := m.Match(c.locator())
		if err != nil {
			continue // malformed in the runner's eyes: never offer it
		}
		rl := protocol.RankedLocator{Locator: c.locator(), Score: c.Score, Matches: n}
		switch {
		case n == 1 && id == self:
			if !c.Exact {
				looseUnique[key] = true
			}
			unique = append(unique, rl)
		case n == 1:
			// One element, but another one: not a locator of this element.
		default:
			others = append(others, rl)
		}
	}
	// Past maxLocators, the last (structural) one stays as the last resort:
	// it survives text and attribute changes the others do not.
	if len(unique) > maxLocators {
		unique = append(unique[:maxLocators-1], unique[len(unique)-1])
	}
	return append(unique, others...), nil
}

// roleScore is the score of a role locator with a name (Playwright's).
const roleScore = 100

// chromeOnlyRoles are roles of Chromium's accessibility tree that are no
// ARIA role a locator could name.
var chromeOnlyRoles = map[string]bool{"": true, "generic": true, "none": true, "StaticText": true, "InlineTextBox": true,
	"LabelText": true, "RootWebArea": true, "LineBreak": true, "Iframe": true, "IframePresentational": true}

// axRoleName is the element's role and accessible name as Chromium's
// accessibility tree has them, with ARIA's spelling of the role (img, not
// image); ok is false when the element has no role a locator can use.
func axRoleName(ctx context.Context, page *rod.Page, obj proto.RuntimeRemoteObjectID) (role, name string, ok bool) {
	res, err := proto.AccessibilityGetPartialAXTree{ObjectID: obj}.Call(page.Context(ctx))
	if err != nil || len(res.Nodes) == 0 {
		return "", "", false
	}
	n := res.Nodes[0]
	if n.Ignored || n.Role == nil {
		return "", "", false
	}
	role = n.Role.Value.Str()
	if chromeOnlyRoles[role] {
		return "", "", false
	}
	if role == "image" {
		role = "img"
	}
	if n.Name != nil {
		name = strings.Join(strings.Fields(n.Name.Value.Str()), " ")
	}
	return role, name, true
}

// dedupe drops repeated candidates, keeping the first (best-scored after
// sorting) of each.
func dedupe(cs []candidate) []candidate {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].Score < cs[j].Score })
	seen := map[candidate]bool{}
	out := cs[:0]
	for _, c := range cs {
		k := c
		k.Score = 0
		if !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	return out
}

// callJSON calls fn on obj and decodes its value into v.
func callJSON(ctx context.Context, page *rod.Page, obj proto.RuntimeRemoteObjectID, fn string, v any) error {
	res, err := proto.RuntimeCallFunctionOn{ObjectID: obj, FunctionDeclaration: fn, ReturnByValue: true}.Call(page.Context(ctx))
	if err != nil {
		return err
	}
	if res.ExceptionDetails != nil {
		msg := res.ExceptionDetails.Text
		if e := res.ExceptionDetails.Exception; e != nil && e.Description != "" {
			msg = e.Description
		}
		return errors.New(msg)
	}
	b, err := json.Marshal(res.Result.Value)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// box is the element's box in the top frame's viewport (CSS pixels, iframes
// included), with the viewport's size and device pixel ratio; nil when the
// element is not rendered.
func box(ctx context.Context, page *rod.Page, obj proto.RuntimeRemoteObjectID) *protocol.Box {
	p := page.Context(ctx)
	q, err := proto.DOMGetContentQuads{ObjectID: obj}.Call(p)
	if err != nil || len(q.Quads) == 0 || len(q.Quads[0]) < 8 {
		return nil
	}
	quad := q.Quads[0]
	minX, minY, maxX, maxY := quad[0], quad[1], quad[0], quad[1]
	for i := 0; i+1 < len(quad); i += 2 {
		minX, maxX = min(minX, quad[i]), max(maxX, quad[i])
		minY, maxY = min(minY, quad[i+1]), max(maxY, quad[i+1])
	}
	b := &protocol.Box{X: minX, Y: minY, Width: maxX - minX, Height: maxY - minY}
	res, err := proto.RuntimeEvaluate{Expression: `[innerWidth, innerHeight, devicePixelRatio]`, ReturnByValue: true}.Call(p)
	if err == nil && res.ExceptionDetails == nil {
		var v []float64
		if raw, err := json.Marshal(res.Result.Value); err == nil && json.Unmarshal(raw, &v) == nil && len(v) == 3 {
			b.ViewportWidth, b.ViewportHeight, b.DPR = v[0], v[1], v[2]
		}
	}
	return b
}
