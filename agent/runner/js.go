package runner

// The functions the runner evaluates in pages. Each runs with this = an
// element (or a document, for queryJS). Functions answering with
// outcomeOf's convention return null on success, "!reason" when waiting
// cannot help and "reason" when it can.

// queryJS finds the elements a locator matches in a document (and its open
// shadow roots): the element when exactly one matches, else their count,
// or a string when the locator is malformed; with all, every element it
// matches (a trace's snapshot marks them, trace_snapshot.js).
const queryJS = `function (kind, value, exact, all) {
  const doc = this;
  const norm = s => (s || '').replace(/\s+/g, ' ').trim();
  const want = norm(value), lower = want.toLowerCase();
  const match = s => { s = norm(s); return exact ? s === want : s.toLowerCase().includes(lower); };
  const deep = sel => {
    const out = [];
    const visit = root => {
      for (const el of root.querySelectorAll(sel)) out.push(el);
      for (const el of root.querySelectorAll('*')) if (el.shadowRoot) visit(el.shadowRoot);
    };
    visit(doc);
    return out;
  };
  const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'TITLE', 'META', 'LINK']);
  const controls = 'input,textarea,select,button,meter,output,progress';
  const labelText = l => {
    let s = '';
    for (const c of l.childNodes) {
      if (c.nodeType === 3) s += c.data;
      else if (c.nodeType === 1 && !skip.has(c.tagName) && !c.matches(controls)) s += labelText(c);
    }
    return s;
  };
  const labels = el => {
    const out = [];
    // el.labels scans the document on each call: only when a label may exist.
    const root = el.getRootNode();
    if (el.labels && (el.closest('label') || (el.id && root.querySelector && root.querySelector('label[for="' + CSS.escape(el.id) + '"]'))))
      for (const l of el.labels) out.push(labelText(l));
    const ids = el.getAttribute('aria-labelledby');
    if (ids) {
      const root = el.getRootNode();
      out.push(ids.split(/\s+/).map(id => {
        const t = root.getElementById ? root.getElementById(id) : doc.getElementById(id);
        return t ? t.textContent : '';
      }).join(' '));
    }
    const al = el.getAttribute('aria-label');
    if (al) out.push(al);
    return out;
  };
  // textOf is an element's text without the source of its scripts and
  // styles (textContent has them: <body> would match a script's string).
  const textOf = el => {
    let s = '';
    const walk = n => {
      for (const c of n.childNodes) {
        if (c.nodeType === 3) s += c.data;
        else if (c.nodeType === 1 && !skip.has(c.tagName)) walk(c);
      }
    };
    walk(el);
    return s;
  };
  const byText = () => {
    const hits = new Set();
    for (const el of deep('*')) {
      if (skip.has(el.tagName)) continue;
      const t = el.tagName === 'INPUT' && ['button', 'submit', 'reset'].includes(el.type) ? el.value : textOf(el);
      if (match(t)) hits.add(el);
    }
    return [...hits].filter(el => ![...el.children].some(c => hits.has(c)));
  };
  const attr = name => deep('[' + name + ']').filter(el => match(el.getAttribute(name)));
  let found;
  try {
    switch (kind) {
    case 'css': found = deep(value); break;
    case 'testId': found = deep('[data-testid="' + CSS.escape(value) + '"]'); break;
    case 'placeholder': found = attr('placeholder'); break;
    case 'alt': found = attr('alt'); break;
    case 'title': found = attr('title'); break;
    case 'label': found = deep(controls + ',[aria-label],[aria-labelledby]').filter(el => labels(el).some(match)); break;
    case 'text': found = byText(); break;
    case 'xpath': {
      const r = doc.evaluate(value, doc, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
      const set = new Set();
      for (let i = 0; i < r.snapshotLength; i++) {
        let n = r.snapshotItem(i);
        if (n.nodeType !== 1) n = n.parentElement;
        if (n) set.add(n);
      }
      found = [...set];
      break;
    }
    default: return 'unknown locator kind ' + kind;
    }
  } catch (e) {
    return 'invalid ' + kind + ' ' + JSON.stringify(value) + ': ' + e.message;
  }
  if (all) return found;
  return found.length === 1 ? found[0] : found.length;
}`

// checkJS tests actionability as Playwright defines it, as far as o asks:
// attached, visible, enabled, editable, scrolled into view (with o.hold it
// answers "\u0000scroll" instead of scrolling), stable (the
// same box in two consecutive animation frames) and receiving pointer
// events at its centre (or o.at). It returns the centre and the element's box in
// its frame's viewport, with the viewport's size and the device pixel
// ratio ([x, y, left, top, width, height, viewport width, viewport height,
// dpr], CSS pixels), or why the element is not actionable yet. With o.at
// the point is that offset from the box's top left corner instead.
const checkJS = `async function (o) {
  const el = this;
  if (!el.isConnected) return 'the element is no longer attached to the page';
  const doc = el.ownerDocument, win = doc.defaultView;
  const box = () => el.getBoundingClientRect();
  if (o.visible) {
    const r = box();
    if (!(r.width > 0 && r.height > 0 && win.getComputedStyle(el).visibility === 'visible' && (!el.checkVisibility || el.checkVisibility())))
      return 'the element is not visible';
  }
  if (o.enabled && (el.matches(':disabled') || el.closest('[aria-disabled="true"]'))) return 'the element is not enabled';
  if (o.editable && (el.readOnly || el.getAttribute('aria-readonly') === 'true')) return 'the element is not editable (read-only)';
  if (o.scroll) {
    const r = box();
    if (r.top < 0 || r.left < 0 || r.bottom > win.innerHeight || r.right > win.innerWidth) {
      if (o.hold) return '\u0000scroll';
      el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
    }
  }
  if (o.stable) {
    const a = box();
    await new Promise(done => { win.requestAnimationFrame(() => done()); win.setTimeout(done, 100); });
    const b = box();
    if (a.x !== b.x || a.y !== b.y || a.width !== b.width || a.height !== b.height)
      return 'the element is not stable: it is still moving';
  }
  const r = box();
  const x = o.at ? r.left + o.at.x : r.left + r.width / 2, y = o.at ? r.top + o.at.y : r.top + r.height / 2;
  if (o.hit) {
    let hit = doc.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    let n = hit;
    while (n && n !== el) n = n.parentNode || n.host;
    if (!n) {
      if (!hit) return 'the element is outside the visible part of the page';
      const cls = typeof hit.className === 'string' && hit.className ? ' class="' + hit.className + '"' : '';
      return 'the element does not receive pointer events: <' + hit.tagName.toLowerCase() +
        (hit.id ? ' id="' + hit.id + '"' : '') + cls + '> would receive the click';
    }
  }
  const vv = win.visualViewport;
  const vw = vv ? vv.width : doc.documentElement.clientWidth, vh = vv ? vv.height : doc.documentElement.clientHeight;
  return [x, y, r.left, r.top, r.width, r.height, vw, vh, win.devicePixelRatio * (vv ? vv.scale : 1)];
}`

// visibleJS reports whether the element is visible.
const visibleJS = `function () {
  const el = this;
  if (!el.isConnected) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && el.ownerDocument.defaultView.getComputedStyle(el).visibility === 'visible' &&
    (!el.checkVisibility || el.checkVisibility());
}`

// fillPrepJS focuses a fillable element and selects its content, so the
// text typed next replaces it. It answers "type", "set" for inputs whose
// value is set directly (date, color, range ...), or "!reason".
const fillPrepJS = `function () {
  const el = this;
  const setTypes = ['color', 'date', 'time', 'datetime-local', 'month', 'range', 'week'];
  const noTypes = ['checkbox', 'radio', 'file', 'submit', 'button', 'reset', 'image', 'hidden'];
  if (el.tagName === 'INPUT') {
    const type = (el.type || 'text').toLowerCase();
    if (noTypes.includes(type)) return '!cannot fill an input of type "' + type + '"';
    if (setTypes.includes(type)) return 'set';
  } else if (el.tagName !== 'TEXTAREA' && !el.isContentEditable) {
    return '!the element is not an <input>, <textarea> or [contenteditable] element';
  }
  el.focus();
  if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') {
    el.select();
  } else {
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    const sel = el.ownerDocument.defaultView.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }
  return 'type';
}`

// fillSetJS sets the value of an input that takes no typing.
const fillSetJS = `function (v) {
  const el = this;
  el.focus();
  el.value = v;
  if (el.value !== v) return '!the value "' + v + '" is not valid for an input of type "' + el.type + '"';
  el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return null;
}`

// selectJS chooses the option whose value, else label, is v.
const selectJS = `function (v) {
  const el = this;
  if (el.tagName !== 'SELECT') return '!the element is not a <select>';
  const opts = [...el.options];
  const t = v.trim();
  const opt = opts.find(o => o.value === v) || opts.find(o => o.label.trim() === t || o.textContent.trim() === t);
  if (!opt) return 'the select has no option with value or label "' + v + '"';
  if (opt.disabled) return 'the option "' + v + '" is disabled';
  for (const o of opts) o.selected = o === opt;
  el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return null;
}`

// checkedJS reads the checked state of a checkbox, radio button or ARIA
// checkbox (true or false), or answers "!reason".
const checkedJS = `function () {
  const el = this;
  if (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')) return el.checked;
  const role = el.getAttribute('role');
  if (['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(role))
    return el.getAttribute('aria-checked') === 'true';
  if (el.tagName === 'LABEL' && el.control && (el.control.type === 'checkbox' || el.control.type === 'radio'))
    return el.control.checked;
  return '!the element is not a checkbox or a radio button';
}`

// isRadioJS reports whether the element is a radio button.
const isRadioJS = `function () {
  return (this.tagName === 'INPUT' && this.type === 'radio') || this.getAttribute('role') === 'radio' ||
    (this.tagName === 'LABEL' && !!this.control && this.control.type === 'radio');
}`

// textJS returns the element's innerText.
const textJS = `function () { return this.innerText ?? this.textContent ?? ''; }`

// valueJS returns the value of an input, textarea or select, or null.
const valueJS = `function () {
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(this.tagName) ? String(this.value) : null;
}`

// focusJS focuses the element.
const focusJS = `function () { this.focus(); return null; }`

// loadJS waits for the document's load event; it answers the URL.
const loadJS = `new Promise(done => {
  if (document.readyState === 'complete') done(location.href);
  else addEventListener('load', () => done(location.href), {once: true});
})`
