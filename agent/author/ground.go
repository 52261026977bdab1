package author

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/agent/runner"
	"github.com/testautomation/ta/protocol"
	"github.com/ysmood/gson"
)

// groundTimeout bounds one grounding request, opening the page included.
const groundTimeout = 30 * time.Second

// Ground implements client.Author: on a fresh page at req.URL, either the
// page's snapshot (no targets) or, for each target, how many elements its
// locators match there, with the runner's own locator engine.
func (m *Manager) Ground(ctx context.Context, req protocol.GroundRequest) (protocol.GroundResult, error) {
	ctx, cancel := context.WithTimeout(ctx, groundTimeout)
	defer cancel()
	page, done, err := m.freshPage(ctx, req.URL, groundTimeout)
	if err != nil {
		return protocol.GroundResult{}, err
	}
	defer done()
	p := page.Context(ctx)
	// Pages that draw after load get a moment to do it.
	_ = p.WaitDOMStable(300*time.Millisecond, 0.1)
	if len(req.Targets) == 0 {
		snap, err := pageSnapshot(p)
		if err != nil {
			return protocol.GroundResult{}, err
		}
		return protocol.GroundResult{Snapshot: snap}, nil
	}
	return protocol.GroundResult{Checks: check(ctx, p, req.Targets)}, nil
}

// snapshotJS lists the elements a test would name: controls, links,
// headings, labelled and test-id'd elements, with their role, accessible
// name (approximate: aria-label, labelledby, label, text, title, alt,
// placeholder), label, placeholder and test id, in same-origin frames too.
const snapshotJS = `function (max, maxText) {
  const out = [];
  const clip = (s) => { s = (s || "").replace(/\s+/g, " ").trim(); return s.length > maxText ? s.slice(0, maxText) : s; };
  const implicit = (el) => {
    const t = el.tagName.toLowerCase(), type = (el.getAttribute("type") || "").toLowerCase();
    if (t === "a" && el.hasAttribute("href")) return "link";
    if (t === "button" || (t === "input" && ["button", "submit", "reset", "image"].includes(type))) return "button";
    if (t === "input" && type === "checkbox") return "checkbox";
    if (t === "input" && type === "radio") return "radio";
    if (t === "input" && ["", "text", "email", "password", "search", "tel", "url", "number"].includes(type)) return type === "search" ? "searchbox" : "textbox";
    if (t === "textarea") return "textbox";
    if (t === "select") return el.multiple || el.size > 1 ? "listbox" : "combobox";
    if (/^h[1-6]$/.test(t)) return "heading";
    if (t === "img" && el.getAttribute("alt")) return "img";
    return "";
  };
  const labelOf = (el) => {
    if (el.labels && el.labels.length) return clip(el.labels[0].innerText);
    const by = el.getAttribute("aria-labelledby");
    if (by) return clip(by.split(/\s+/).map((id) => { const l = el.ownerDocument.getElementById(id); return l ? l.innerText : ""; }).join(" "));
    return "";
  };
  const nameOf = (el, label) => clip(el.getAttribute("aria-label") || label ||
    (["input", "textarea", "select"].includes(el.tagName.toLowerCase()) ? "" : el.innerText) ||
    el.getAttribute("title") || el.getAttribute("alt") || el.getAttribute("placeholder") || (el.tagName === "INPUT" ? el.value : ""));
  const visible = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el); return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none"; };
  const walk = (doc, frame) => {
    const els = doc.querySelectorAll("a[href],button,input,textarea,select,h1,h2,h3,h4,h5,h6,img[alt],label,[role],[data-testid],[data-test-id],[data-test],[aria-label],[title]");
    for (const el of els) {
      if (out.length >= max) return;
      if (el.tagName === "INPUT" && el.type === "hidden") continue;
      const shown = visible(el);
      if (!shown && !el.hasAttribute("data-testid") && !el.hasAttribute("role")) continue;
      const label = labelOf(el);
      const e = {tag: el.tagName.toLowerCase(), role: el.getAttribute("role") || implicit(el), name: nameOf(el, label)};
      if (label) e.label = label;
      const ph = el.getAttribute("placeholder"); if (ph) e.placeholder = clip(ph);
      const tid = el.getAttribute("data-testid") || el.getAttribute("data-test-id") || el.getAttribute("data-test"); if (tid) e.testId = clip(tid);
      const text = clip(el.innerText); if (text && text !== e.name) e.text = text;
      if (frame.length) e.frame = frame;
      if (!shown) e.hidden = true;
      if (!e.role && !e.name && !e.testId && !e.label) continue;
      out.push(e);
    }
    doc.querySelectorAll("iframe").forEach((f) => {
      let inner = null;
      try { inner = f.contentDocument; } catch (_) {}
      if (!inner) return;
      const attr = (n) => "iframe[" + n + "=" + JSON.stringify(f.getAttribute(n)) + "]";
      const sel = f.id ? "iframe#" + CSS.escape(f.id) : f.name ? attr("name") : f.getAttribute("src") ? attr("src") : "iframe";
      walk(inner, frame.concat([{kind: "css", value: sel}]));
    });
  };
  walk(document, []);
  return JSON.stringify({url: location.href, title: document.title, elements: out});
}`

func pageSnapshot(p *rod.Page) (*protocol.PageSnapshot, error) {
	win, err := proto.RuntimeEvaluate{Expression: "window"}.Call(p)
	if err != nil {
		return nil, fmt.Errorf("cannot reach the page: %w", err)
	}
	res, err := proto.RuntimeCallFunctionOn{ObjectID: win.Result.ObjectID, FunctionDeclaration: snapshotJS, ReturnByValue: true,
		Arguments: []*proto.RuntimeCallArgument{{Value: gson.New(protocol.MaxSnapshotElements)}, {Value: gson.New(protocol.MaxSnapshotText)}}}.Call(p)
	if err != nil {
		return nil, fmt.Errorf("cannot read the page: %w", err)
	}
	if res.ExceptionDetails != nil {
		return nil, errors.New("cannot read the page: " + thrown(res.ExceptionDetails))
	}
	var snap protocol.PageSnapshot
	if err := json.Unmarshal([]byte(res.Result.Value.Str()), &snap); err != nil {
		return nil, fmt.Errorf("cannot read the page's snapshot: %w", err)
	}
	if snap.Elements == nil {
		snap.Elements = []protocol.PageElement{}
	}
	return &snap, nil
}

// check runs each target's locators, best first, in the top document (or
// the frame its css frame path names); found means one matched exactly one
// element, as a run would take it.
func check(ctx context.Context, p *rod.Page, targets []protocol.GroundTarget) []protocol.TargetCheck {
	out := make([]protocol.TargetCheck, 0, len(targets))
	docs := map[string]proto.RuntimeRemoteObjectID{}
	for i, t := range targets {
		if i == protocol.MaxGroundTargets {
			break
		}
		c := protocol.TargetCheck{StepID: t.StepID}
		doc, err := frameDocument(p, t.Target.Frame, docs)
		if err != nil {
			c.Error = err.Error()
			out = append(out, c)
			continue
		}
		m := runner.NewMatcher(ctx, p, p.SessionID, doc)
		for _, l := range t.Target.Locators {
			n, _, err := m.Match(l)
			if err != nil {
				continue
			}
			if n == 1 {
				c.Found, c.Matches = true, 1
				break
			}
			if c.Matches == 0 {
				c.Matches = n
			}
		}
		if !c.Found && c.Matches == 0 {
			c.Error = "no element on this page matches"
		} else if !c.Found {
			c.Error = fmt.Sprintf("%d elements match: the locator is ambiguous", c.Matches)
		}
		out = append(out, c)
	}
	return out
}

// frameDocument is the document of the frame a css frame path names (the
// page's own for an empty path), remembered per path.
func frameDocument(p *rod.Page, frame []protocol.Locator, docs map[string]proto.RuntimeRemoteObjectID) (proto.RuntimeRemoteObjectID, error) {
	key, _ := json.Marshal(frame)
	if d, ok := docs[string(key)]; ok {
		return d, nil
	}
	sels := make([]string, 0, len(frame))
	for _, f := range frame {
		if f.Kind != "css" {
			return "", errors.New("only css frame paths are checked")
		}
		sels = append(sels, f.Value)
	}
	res, err := proto.RuntimeEvaluate{Expression: fmt.Sprintf(`(() => {
  let doc = document;
  for (const sel of %s) {
    const f = doc.querySelector(sel);
    if (!f || !f.contentDocument) return null;
    doc = f.contentDocument;
  }
  return doc;
})()`, mustJSON(sels))}.Call(p)
	if err != nil {
		return "", err
	}
	if res.Result.ObjectID == "" {
		return "", errors.New("the frame is not on this page")
	}
	docs[string(key)] = res.Result.ObjectID
	return res.Result.ObjectID, nil
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
