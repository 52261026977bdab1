package author

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// qToolbarClick clicks the recorder's overlay toolbar button labelled
// label with trusted input, as a tester does. The toolbar lives in a
// closed shadow root: DevTools' DOM tree, pierced, still shows it.
func qToolbarClick(ctx context.Context, page *rod.Page, label string) error {
	page = page.Context(ctx)
	for ctx.Err() == nil {
		doc, err := proto.DOMGetDocument{Depth: protoInt(-1), Pierce: true}.Call(page)
		if err != nil {
			return err
		}
		if n := qFindButton(doc.Root, label); n != nil {
			box, err := proto.DOMGetBoxModel{BackendNodeID: n.BackendNodeID}.Call(page)
			if err != nil {
				return err
			}
			q := box.Model.Content
			x, y := (q[0]+q[4])/2, (q[1]+q[5])/2
			if err := page.Mouse.MoveTo(proto.Point{X: x, Y: y}); err != nil {
				return err
			}
			return page.Mouse.Click(proto.InputMouseButtonLeft, 1)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("no toolbar button %q in the recorded page", label)
}

func protoInt(n int) *int { return &n }

// qFindButton finds a <button> whose text is label, inside shadow roots
// too.
func qFindButton(n *proto.DOMNode, label string) *proto.DOMNode {
	if n == nil {
		return nil
	}
	if strings.EqualFold(n.NodeName, "button") {
		for _, c := range n.Children {
			if c.NodeType == 3 && strings.TrimSpace(c.NodeValue) == label {
				return n
			}
		}
	}
	for _, list := range [][]*proto.DOMNode{n.ShadowRoots, n.Children} {
		for _, c := range list {
			if f := qFindButton(c, label); f != nil {
				return f
			}
		}
	}
	return qFindButton(n.ContentDocument, label)
}
