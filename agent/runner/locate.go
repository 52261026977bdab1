package runner

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// frame is a document to search: the main frame's (doc "") or an iframe's.
type frame struct {
	doc    proto.RuntimeRemoteObjectID
	nested bool
}

// elem is a handle to an element a locator found.
type elem struct {
	obj    proto.RuntimeRemoteObjectID
	framed bool // inside an iframe: its page coordinates come from DOM.getContentQuads
}

// notFound says that no locator of a target matched exactly one element;
// polling goes on, since the page may still be rendering.
type notFound struct {
	counts []int    // per locator: the matches, -1 when malformed
	msgs   []string // per locator: what it found
}

func (e *notFound) Error() string { return strings.Join(e.msgs, "; ") }

// absent reports that no locator matched any element.
func (e *notFound) absent() bool {
	for _, n := range e.counts {
		if n != 0 && n != -1 {
			return false
		}
	}
	return true
}

// describe words a locator for messages: css "#email", role button "Sign in".
func describe(l protocol.Locator) string {
	s := l.Kind + " " + strconv.Quote(l.Value)
	if l.Kind == "role" {
		s = "role " + l.Value
		if l.Name != "" {
			s += " " + strconv.Quote(l.Name)
		}
	}
	if l.Exact {
		s += " (exact)"
	}
	return s
}

func matched(l protocol.Locator, n int) string {
	if n == 0 {
		return "no element matches " + describe(l)
	}
	return fmt.Sprintf("%s matches %d elements", describe(l), n)
}

// resolve finds the target's element: inside its frames, the first locator
// that matches exactly one element. A later locator doing so heals the
// step (s.healed). Malformed locators count as matching nothing; when all
// are malformed the step fails at once.
func (s *stepRun) resolve(ctx context.Context, t *protocol.Target) (elem, error) {
	if t == nil || len(t.Locators) == 0 {
		return elem{}, permanent("the step has no target to act on")
	}
	fr, err := s.r.enterFrames(ctx, t.Frame)
	if err != nil {
		return elem{}, err
	}
	nf := &notFound{}
	for i, l := range t.Locators {
		el, n, err := s.r.query(ctx, fr, l)
		if err != nil {
			if !isPermanent(err) {
				return elem{}, err
			}
			nf.counts, nf.msgs = append(nf.counts, -1), append(nf.msgs, err.Error())
			continue
		}
		if n == 1 {
			s.healed = i
			if i > 0 {
				s.healNote = nf.msgs[0]
			}
			s.found(el)
			return el, nil
		}
		nf.counts, nf.msgs = append(nf.counts, n), append(nf.msgs, matched(l, n))
	}
	for _, n := range nf.counts {
		if n != -1 {
			return elem{}, nf
		}
	}
	return elem{}, permanent("%s", nf.Error())
}

// enterFrames follows the frame locators, outermost first, to the document
// of the innermost iframe.
func (r *run) enterFrames(ctx context.Context, frames []protocol.Locator) (frame, error) {
	fr := frame{}
	for _, fl := range frames {
		el, n, err := r.query(ctx, fr, fl)
		if err != nil {
			return fr, err
		}
		if n != 1 {
			return fr, fmt.Errorf("frame: %s", matched(fl, n))
		}
		node, err := proto.DOMDescribeNode{ObjectID: el.obj}.Call(r.sess(ctx))
		if err != nil {
			return fr, err
		}
		if name := strings.ToLower(node.Node.NodeName); name != "iframe" && name != "frame" {
			return fr, permanent("frame: %s matches a <%s>, not an iframe", describe(fl), name)
		}
		if node.Node.ContentDocument == nil {
			return fr, fmt.Errorf("frame: the iframe %s has not loaded yet", describe(fl))
		}
		doc, err := proto.DOMResolveNode{BackendNodeID: node.Node.ContentDocument.BackendNodeID}.Call(r.sess(ctx))
		if err != nil {
			return fr, err
		}
		fr = frame{doc: doc.Object.ObjectID, nested: true}
	}
	return fr, nil
}

// query runs one locator in a frame: the element when exactly one
// matches, else the count. A malformed locator is a permanent error.
func (r *run) query(ctx context.Context, fr frame, l protocol.Locator) (elem, int, error) {
	if l.Kind == "role" {
		return r.queryRole(ctx, fr, l)
	}
	var res *proto.RuntimeRemoteObject
	var err error
	if fr.doc == "" {
		res, err = evalObject(ctx, r.tab.sess, jsCall(queryJS, l.Kind, l.Value, l.Exact))
	} else {
		res, err = callOn(ctx, r.tab.sess, fr.doc, queryJS, false, l.Kind, l.Value, l.Exact)
	}
	if err != nil {
		return elem{}, 0, err
	}
	switch res.Type {
	case proto.RuntimeRemoteObjectTypeObject:
		if res.Subtype == proto.RuntimeRemoteObjectSubtypeNode && res.ObjectID != "" {
			return elem{obj: res.ObjectID, framed: fr.nested}, 1, nil
		}
	case proto.RuntimeRemoteObjectTypeNumber:
		return elem{}, res.Value.Int(), nil
	case proto.RuntimeRemoteObjectTypeString:
		return elem{}, 0, permanent("%s", res.Value.Str())
	}
	return elem{}, 0, errors.New("unexpected answer from the page while looking for " + describe(l))
}
