package author

import (
	"encoding/json"
	"fmt"
)

// The five mutations of the quality section, each a change a
// release of the application under test commonly makes to an element the
// test uses, applied to that one element (or its nearest container) and
// nothing else:
//
//	id       its id changes (label[for], aria-controls and the other
//	         references follow, as a framework's generated ids do);
//	         without an id, its nearest ancestor's
//	reclass  its classes and its parent's change hash (css-module names
//	         after a rebuild: btn_x7f3a → btn_m9t2v)
//	wrap     it is wrapped in a new element (a layout component added)
//	reorder  its container's children are reversed (rows sorted the
//	         other way, a field moved up)
//	text     its own text (or, without text, its accessible text: aria-label,
//	         placeholder, alt, its label) gets " (updated)" appended
var mutationKinds = []string{"id", "reclass", "wrap", "reorder", "text"}

// mutation is armed on the corpus site: every HTML page it serves carries
// mutateJS, which applies Kind once, to the first element Sel finds in the
// document of Frame (the top document when empty), when it appears.
type mutation struct {
	Kind  string `json:"kind"`
	Sel   string `json:"sel"`
	Frame bool   `json:"framed"`
}

func (m *mutation) script() string {
	cfg, _ := json.Marshal(m)
	return fmt.Sprintf("(%s)(%s);", mutateJS, cfg)
}

const mutateJS = `function (M) {
  // The element hit: any input event on the mutated element sets
  // window.__taHit in the top document (from an iframe, by a message),
  // so a replay can tell it acted on that element and not another.
  // sessionStorage keeps it across a navigation the action caused.
  const mark = () => { window.__taHit = true; try { sessionStorage.setItem('__taHit', '1'); } catch (e) {} };
  if (window.top === window) addEventListener('message', e => { if (e.data === 'ta-hit') mark(); });
  if ((window.top !== window) !== M.framed) return;
  const hit = () => { if (window.top === window) mark(); else parent.postMessage('ta-hit', '*'); };
  const find = () => {
    let root = document, el = null;
    for (const part of M.sel.split('>>>')) {
      if (!root) return null;
      el = root.querySelector(part.trim());
      if (!el) return null;
      root = el.shadowRoot;
    }
    return el;
  };
  const upd = s => s + ' (updated)';
  const apply = el => {
    switch (M.kind) {
    case 'id': {
      // Generated ids change everywhere at once: every reference to the
      // old id (label for, aria-controls, aria-labelledby, ...) follows,
      // as a framework's useId does.
      let e = el;
      for (let i = 0; e && !e.id && i < 4; i++) e = e.parentElement;
      if (!e || !e.id) { el.id = 'gen-r7'; return; }
      const old = e.id, now = old + '-r7';
      const root = e.getRootNode().querySelectorAll ? e.getRootNode() : document;
      for (const a of ['for', 'aria-controls', 'aria-labelledby', 'aria-describedby', 'aria-owns'])
        for (const r of root.querySelectorAll('[' + a + ']'))
          r.setAttribute(a, r.getAttribute(a).split(/\s+/).map(x => x === old ? now : x).join(' '));
      e.id = now;
      return;
    }
    case 'reclass':
      for (const e of [el, el.parentElement]) {
        if (!e || !e.classList || !e.classList.length) continue;
        e.className = [...e.classList].map(c => /_[a-z0-9]{5}$/.test(c) ? c.replace(/_[a-z0-9]{5}$/, '_m9t2v') : c + '-v2').join(' ');
      }
      return;
    case 'wrap': {
      const inline = getComputedStyle(el).display.startsWith('inline');
      const w = document.createElement(inline ? 'span' : 'div');
      w.className = 'wrapper';
      el.parentNode.insertBefore(w, el);
      w.appendChild(el);
      return;
    }
    case 'reorder': {
      let e = el;
      const kids = p => [...p.children].filter(c => c.tagName !== 'SCRIPT' && c.tagName !== 'STYLE');
      while (e.parentElement && kids(e.parentElement).length < 2) e = e.parentElement;
      const p = e.parentElement;
      if (!p) return;
      for (const c of kids(p).reverse()) p.appendChild(c);
      return;
    }
    case 'text': {
      let done = false;
      for (const n of el.childNodes) if (n.nodeType === 3 && n.data.trim()) { n.data = upd(n.data.trimEnd()); done = true; }
      if (done) return;
      for (const a of ['aria-label', 'placeholder', 'alt', 'title'])
        if (el.hasAttribute(a)) { el.setAttribute(a, upd(el.getAttribute(a))); return; }
      const lab = el.labels && el.labels[0];
      if (lab) for (const n of lab.childNodes) if (n.nodeType === 3 && n.data.trim()) { n.data = upd(n.data.trimEnd()) + ' '; return; }
      const img = el.querySelector('img[alt]');
      if (img) img.alt = upd(img.alt);
      return;
    }
    }
  };
  let fired = false;
  const tick = () => {
    if (fired) return;
    const el = find();
    if (!el) return;
    fired = true;
    for (const ev of ['click', 'dblclick', 'mousedown', 'mouseover', 'focus', 'input', 'change', 'keydown'])
      el.addEventListener(ev, hit, true);
    apply(el);
  };
  tick();
  if (!fired) {
    // Open shadow roots are observed too (a document's observer does not
    // see into them): an element rendered inside a component is mutated
    // before a replay's next input reaches it, not up to a tick later.
    const opts = {subtree: true, childList: true, attributes: true};
    const seen = new WeakSet();
    const watch = root => {
      for (const el of root.querySelectorAll('*')) {
        if (!el.shadowRoot || seen.has(el.shadowRoot)) continue;
        seen.add(el.shadowRoot);
        mo.observe(el.shadowRoot, opts);
        watch(el.shadowRoot);
      }
    };
    const mo = new MutationObserver(() => { tick(); if (fired) mo.disconnect(); else watch(document); });
    mo.observe(document, opts);
    watch(document);
    const iv = setInterval(() => { tick(); if (fired) clearInterval(iv); else watch(document); }, 20);
  }
}`
