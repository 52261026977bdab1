package author

import (
	"context"
	"errors"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// describeTarget builds the ranked, verified target of an element and its
// description. page is the session's page; obj is the element as a remote
// object of the isolated world of its frame; frames is the path of iframe
// locators from the top frame to that frame (outermost first), which the
// result's Target.Frame and Element.Frame repeat. Every locator in the
// result matched exactly this element in the live page (Matches 1); other
// candidates are reported with their match counts after the unique ones.
//
// Stub until target.go is written: see doc.go.
func describeTarget(ctx context.Context, page *rod.Page, obj proto.RuntimeRemoteObjectID, frames []protocol.Locator) (protocol.PickedTarget, protocol.PickedElement, error) {
	return protocol.PickedTarget{}, protocol.PickedElement{}, errors.New("describeTarget: not built yet")
}

// frameLocator is the best unique locator of an iframe element (obj, a
// remote object in its parent frame's isolated world) in its parent's
// document.
func frameLocator(ctx context.Context, page *rod.Page, obj proto.RuntimeRemoteObjectID) (protocol.Locator, error) {
	return protocol.Locator{}, errors.New("frameLocator: not built yet")
}
