// locators.js: locator candidates for an element, its description, and the
// picker's highlight (see doc.go). Candidates follow the ideas of
// Playwright's selector generator and its scores (lower is better); they
// are counted here only approximately: target.go verifies every one with
// the runner's own engine. Only the locator kinds the runner replays are
// made (testId, role, placeholder, label, alt, text, title, css, xpath), so
// scoping to an ancestor is written as css or xpath.
(() => {
  const A = (globalThis.__taAuthor ||= {});

  const S = {
    testId: 1, otherTestId: 2, role: 100, placeholder: 120, label: 140, alt: 160, text: 180, title: 200, tagText: 300,
    exact: 5, frame: 10, id: 500, roleOnly: 510, attr: 520, tag: 530, nth: 10000, path: 10000000,
  };
  const maxText = 80;
  const overlayTag = 'ta-author-overlay';

  const norm = s => (s || '').replace(/\s+/g, ' ').trim();
  const lower = s => norm(s).toLowerCase();
  const tagOf = el => el.localName;
  const esc = s => CSS.escape(s);
  const attrSel = (name, v) => '[' + name + '="' + String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"]';

  // The document and its open shadow roots, as the runner searches them;
  // kept for the length of one call from Go or one hover (withRoots).
  let cached = null;
  const withRoots = f => (...args) => {
    const outer = cached === null;
    if (outer) cached = new Map();
    try { return f(...args); } finally { if (outer) cached = null; }
  };
  const roots = doc => {
    if (cached && cached.has(doc)) return cached.get(doc);
    const out = [];
    const visit = root => {
      out.push(root);
      for (const el of root.querySelectorAll('*')) if (el.shadowRoot) visit(el.shadowRoot);
    };
    visit(doc);
    if (cached) cached.set(doc, out);
    return out;
  };
  // The authoring UI (this highlight, recorder.js's toolbar) is no part of the page.
  const ours = el => tagOf(el).startsWith('ta-author-');
  const deep = (doc, sel) => {
    const out = [];
    for (const r of roots(doc)) for (const el of r.querySelectorAll(sel)) if (!ours(el)) out.push(el);
    return out;
  };
  const countCss = (doc, sel) => { try { return deep(doc, sel).length; } catch (e) { return 0; } };
  const countXPath = (doc, xp) => {
    try { return doc.evaluate(xp, doc, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null).snapshotLength; } catch (e) { return 0; }
  };

  // Ids and classes a framework generated change from build to build or
  // from render to render: never use them.
  const frameworkId = /^(ember|ext-gen|extjs|yui_|gwt-|mui-|radix-|headlessui-|react-select-|react-aria|rc-|rc_|ng-|cdk-|mat-|j_id|jsx-|css-|sc-|tippy-|popover-|downshift-|__)/i;
  const generated = s => {
    if (!s) return true;
    if (s.length > 40) return true;
    if (/^:.*:$/.test(s) || /^«.*»$/.test(s)) return true; // React useId
    if (frameworkId.test(s) && /\d/.test(s)) return true;
    if (/\d{4,}/.test(s)) return true;
    if (/[0-9a-f]{8}-?[0-9a-f]{4}/i.test(s)) return true; // uuid-like
    if (/^[0-9a-f]{6,}$/i.test(s) && /\d/.test(s) && /[a-f]/i.test(s)) return true; // hex
    // Many switches between letters and digits: a hash.
    let runs = 0;
    for (let i = 1; i < s.length; i++) if (/\d/.test(s[i]) !== /\d/.test(s[i - 1])) runs++;
    return runs >= 4;
  };
  const stateClass = /^(active|hover|focus|focused|selected|open|opened|closed|disabled|enabled|visible|hidden|show|shown|checked|current|loading|loaded|ng-.*|is-.*|has-.*)$/i;
  // A hash in a class: a CSS-modules suffix with a digit (Button_root__a1b2c),
  // or a short token of mixed case (kXyZab, styled-components).
  const hashed = c => {
    const last = c.split(/_+/).pop();
    if (c.includes('_') && last.length >= 5 && /\d/.test(last)) return true;
    return c.split(/[-_]/).some(seg => seg.length <= 8 && (seg.match(/[a-z][A-Z]/g) || []).length >= 2);
  };
  const stableClass = c => !generated(c) && !stateClass.test(c) && !/[:[\]/]/.test(c) && !hashed(c) && !/^(css|sc|jsx|emotion|styled|svelte)-/.test(c);

  const testIdAttrs = ['data-testid', 'data-test-id', 'data-test', 'data-qa', 'data-cy'];

  // Implicit ARIA roles, as far as the locators need them.
  const implicitRole = el => {
    const t = tagOf(el), type = (el.getAttribute('type') || '').toLowerCase();
    switch (t) {
    case 'a': case 'area': return el.hasAttribute('href') ? 'link' : '';
    case 'button': return 'button';
    case 'input':
      if (['button', 'submit', 'reset', 'image'].includes(type)) return 'button';
      if (type === 'checkbox') return 'checkbox';
      if (type === 'radio') return 'radio';
      if (type === 'range') return 'slider';
      if (type === 'number') return 'spinbutton';
      if (type === 'search') return el.hasAttribute('list') ? 'combobox' : 'searchbox';
      if (['', 'text', 'email', 'tel', 'url'].includes(type)) return el.hasAttribute('list') ? 'combobox' : 'textbox';
      return '';
    case 'textarea': return 'textbox';
    case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    case 'option': return 'option';
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
    case 'img': return el.getAttribute('alt') === '' ? 'presentation' : 'img';
    case 'li': return 'listitem';
    case 'ul': case 'ol': return 'list';
    case 'tr': return 'row';
    case 'td': return el.closest('table[role=grid],table[role=treegrid]') ? 'gridcell' : 'cell';
    case 'th': return 'columnheader';
    case 'table': return 'table';
    case 'nav': return 'navigation';
    case 'main': return 'main';
    case 'dialog': return 'dialog';
    case 'progress': return 'progressbar';
    case 'summary': return 'button';
    }
    return '';
  };
  const roleOf = el => norm(el.getAttribute('role')).split(' ')[0] || implicitRole(el);
  const nameFromContent = new Set(['button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'row', 'rowheader', 'switch', 'tab', 'tooltip', 'treeitem']);

  const byId = (el, id) => {
    const root = el.getRootNode();
    return root.getElementById ? root.getElementById(id) : el.ownerDocument.getElementById(id);
  };
  // Text as accessible names count it: alt of images, no scripts.
  const contentText = el => {
    let s = '';
    for (const c of el.childNodes) {
      if (c.nodeType === 3) s += c.data;
      else if (c.nodeType === 1) {
        if (['script', 'style', 'template', 'noscript'].includes(tagOf(c))) continue;
        if (tagOf(c) === 'img') s += ' ' + (c.getAttribute('alt') || '') + ' ';
        else if (c.getAttribute('aria-label')) s += ' ' + c.getAttribute('aria-label') + ' ';
        else s += ' ' + contentText(c) + ' ';
      }
    }
    return s;
  };
  // el.labels, without its cost: Chromium scans the document for each
  // call, which on a page of thousands of buttons takes seconds.
  const labelsOf = el => {
    if (!el.labels) return [];
    const root = el.getRootNode();
    if (!el.closest('label') && !(el.id && root.querySelector && root.querySelector('label[for="' + CSS.escape(el.id) + '"]'))) return [];
    return [...el.labels];
  };
  // The label texts of a form control, as the runner's label locator reads them.
  const labelTexts = el => {
    const out = [];
    const labelText = l => {
      let s = '';
      for (const c of l.childNodes) {
        if (c.nodeType === 3) s += c.data;
        else if (c.nodeType === 1 && !c.matches('input,textarea,select,button,meter,output,progress,script,style')) s += labelText(c);
      }
      return s;
    };
    for (const l of labelsOf(el)) out.push(norm(labelText(l)));
    const ids = el.getAttribute('aria-labelledby');
    if (ids) out.push(norm(ids.split(/\s+/).map(id => { const t = byId(el, id); return t ? t.textContent : ''; }).join(' ')));
    const al = el.getAttribute('aria-label');
    if (al) out.push(norm(al));
    return out.filter(Boolean);
  };
  // The accessible name, approximately as Chromium computes it.
  const nameOf = el => {
    const ids = el.getAttribute('aria-labelledby');
    if (ids) {
      const s = norm(ids.split(/\s+/).map(id => { const t = byId(el, id); return t ? contentText(t) : ''; }).join(' '));
      if (s) return s;
    }
    const al = norm(el.getAttribute('aria-label'));
    if (al) return al;
    const t = tagOf(el), type = (el.getAttribute('type') || '').toLowerCase();
    if (t === 'input' && ['button', 'submit', 'reset'].includes(type))
      return norm(el.value) || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
    if (t === 'input' && type === 'image') return norm(el.getAttribute('alt')) || 'Submit';
    const ls = labelsOf(el);
    if (ls.length) {
      const s = norm(ls.map(contentText).join(' '));
      if (s) return s;
    }
    if (t === 'img' || t === 'area') { const a = norm(el.getAttribute('alt')); if (a) return a; }
    if (nameFromContent.has(roleOf(el))) { const s = norm(contentText(el)); if (s) return s; }
    const ti = norm(el.getAttribute('title'));
    if (ti) return ti;
    if (['input', 'textarea'].includes(t)) return norm(el.getAttribute('placeholder'));
    return '';
  };

  // What the runner's text locator reads of an element.
  const ownText = el => tagOf(el) === 'input' && ['button', 'submit', 'reset'].includes(el.type) ? el.value : el.textContent;
  // Whether the runner's text locator for t would stop at el rather than a child.
  const innermost = (el, t) => ![...el.children].some(c => lower(c.textContent).includes(t.toLowerCase()));

  const xq = s => !s.includes('"') ? '"' + s + '"' : !s.includes("'") ? "'" + s + "'" :
    'concat(' + s.split('"').map(p => '"' + p + '"').join(", '\"', ") + ')';

  // The best unique css selector of an ancestor to anchor a path at.
  const anchorOf = (doc, el) => {
    if (el.id && !generated(el.id)) { const s = '#' + esc(el.id); if (countCss(doc, s) === 1) return s; }
    for (const a of testIdAttrs) {
      const v = el.getAttribute(a);
      if (v) { const s = attrSel(a, v); if (countCss(doc, s) === 1) return s; }
    }
    for (const a of ['name', 'aria-label', 'role']) {
      const v = el.getAttribute(a);
      if (v && v.length <= maxText) { const s = tagOf(el) + attrSel(a, v); if (countCss(doc, s) === 1) return s; }
    }
    return '';
  };
  // Compound selectors naming a shadow host by what tells it apart.
  const hostAnchors = host => {
    const out = [], t = esc(tagOf(host));
    if (host.id && !generated(host.id)) out.push(t + '#' + esc(host.id));
    for (const a of host.getAttributeNames()) {
      const v = host.getAttribute(a);
      if (['id', 'class', 'style'].includes(a) || !v || v.length > maxText || generated(v.replace(/[^A-Za-z0-9]/g, ''))) continue;
      out.push(t + attrSel(a, v));
    }
    const cls = [...host.classList].filter(stableClass);
    if (cls.length) out.push(t + '.' + esc(cls[0]));
    // Last, its place among its kind: custom elements repeated in a list
    // (a todo-item per todo) often carry nothing else.
    const p = host.parentElement || host.parentNode;
    if (p && p.children) {
      const same = [...p.children].filter(c => c.localName === host.localName);
      if (same.length > 1) out.push(t + ':nth-of-type(' + (same.indexOf(host) + 1) + ')');
    }
    return out;
  };
  // One step of a css path: the tag, with :nth-of-type when siblings share it.
  const stepOf = el => {
    const t = esc(tagOf(el)), p = el.parentElement;
    if (!p) return t;
    const same = [...p.children].filter(c => c.localName === el.localName);
    return same.length > 1 ? t + ':nth-of-type(' + (same.indexOf(el) + 1) + ')' : t;
  };

  // The element an action on el is about, as Playwright's selector
  // generator has it: the control or link el is part of (the <svg> of an
  // icon button is the button), else el.
  const interactive = 'button,select,input,textarea,a[href],[role=button],[role=checkbox],[role=radio],[role=link],' +
    '[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=tab],[role=option],[role=switch],[role=combobox]';
  A.retarget = el => (el && el.nodeType === 1 && el.closest(interactive)) || el;

  A.candidates = withRoots(el => {
    if (!el || el.nodeType !== 1) return [];
    const doc = el.ownerDocument;
    const out = [];
    const seen = new Set();
    const add = (kind, value, score, extra) => {
      if (!value) return;
      const c = Object.assign({kind, value, score}, extra || {});
      const key = JSON.stringify([c.kind, c.value, c.name || '', !!c.exact]);
      if (seen.has(key)) return;
      seen.add(key);
      out.push(c);
    };
    const tag = tagOf(el);
    const inShadow = el.getRootNode() !== doc;

    // Test ids: the runner's testId kind reads data-testid; the others are css.
    for (const a of testIdAttrs) {
      const v = el.getAttribute(a);
      if (!v) continue;
      if (a === 'data-testid') add('testId', v, S.testId);
      else add('css', attrSel(a, v), S.otherTestId);
    }

    // Role and accessible name.
    const role = roleOf(el), name = nameOf(el);
    if (role && role !== 'presentation' && role !== 'none') {
      if (name && name.length <= maxText) {
        add('role', role, S.role, {name});
        add('role', role, S.role + S.exact, {name, exact: true});
      }
      add('role', role, S.roleOnly);
    }

    const ph = norm(el.getAttribute('placeholder'));
    if (ph && ph.length <= maxText) {
      add('placeholder', ph, S.placeholder);
      add('placeholder', ph, S.placeholder + S.exact, {exact: true});
    }
    for (const l of labelTexts(el)) {
      if (l.length > maxText) continue;
      add('label', l, S.label);
      add('label', l, S.label + S.exact, {exact: true});
    }
    const alt = norm(el.getAttribute('alt'));
    if (alt && alt.length <= maxText) {
      add('alt', alt, S.alt);
      add('alt', alt, S.alt + S.exact, {exact: true});
    }
    const text = norm(ownText(el));
    if (text && text.length <= maxText && innermost(el, text) && !['html', 'body', 'select', 'textarea'].includes(tag)) {
      add('text', text, S.text);
      add('text', text, S.text + S.exact, {exact: true});
    }
    // The tag and its whole text, as xpath: a fallback of another kind
    // that survives changed ids, classes and structure, also where the
    // text locator stops at a child (<button><span>Save</span></button>).
    if (text && text.length <= maxText && !inShadow && !['html', 'body', 'select', 'textarea'].includes(tag))
      add('xpath', '//' + tag + '[normalize-space()=' + xq(text) + ']', S.tagText);
    const title = norm(el.getAttribute('title'));
    if (title && title.length <= maxText) {
      add('title', title, S.title);
      add('title', title, S.title + S.exact, {exact: true});
    }

    // An iframe by its attributes (Playwright's iframe score): the runner
    // enters frames with these.
    if (tag === 'iframe' || tag === 'frame') {
      if (el.id && !generated(el.id)) add('css', tag + '#' + esc(el.id), S.frame);
      for (const a of ['name', 'title', 'src']) {
        const v = el.getAttribute(a);
        if (v && v.length <= 200 && (a === 'title' || !generated(v.replace(/[^A-Za-z0-9]/g, '')))) add('css', tag + attrSel(a, v), S.frame + 1);
      }
    }

    // CSS: a stable id, stable attributes, a stable class.
    if (el.id && !generated(el.id)) add('css', '#' + esc(el.id), S.id);
    const type = el.getAttribute('type');
    for (const a of ['name', 'aria-label', 'href', 'for', 'value', 'src']) {
      const v = el.getAttribute(a);
      if (!v || v.length > maxText || (a === 'value' && (!['input', 'option', 'button'].includes(tag) || type === 'password'))) continue;
      if (a !== 'aria-label' && generated(v.replace(/[^A-Za-z0-9]/g, ''))) continue;
      add('css', tag + (type && a === 'name' ? attrSel('type', type) : '') + attrSel(a, v), S.attr);
    }
    for (const a of el.getAttributeNames()) {
      if (!a.startsWith('aria-') || ['aria-label', 'aria-labelledby', 'aria-describedby', 'aria-controls', 'aria-owns', 'aria-activedescendant'].includes(a)) continue;
      const v = el.getAttribute(a);
      if (v && v.length <= maxText && !['true', 'false'].includes(v)) add('css', tag + attrSel(a, v), S.attr);
    }
    const classes = [...el.classList].filter(stableClass);
    for (const c of classes.slice(0, 3)) add('css', tag + '.' + esc(c), S.tag);

    // The row-scoped xpath only when nothing above is unique by the page's
    // own (approximate) count: it is long and reads poorly.
    const plain = out.some(c => countIn(doc, c, 2) === 1);

    // Scoped, when nothing above is unique (a table of identical "Edit"
    // buttons): for light DOM, an xpath scoped by a text that tells an
    // ancestor (the row) apart, which survives reordering; then a css path
    // from the nearest unique ancestor, which survives a changed text.
    const chain = []; // el and its ancestors in its tree, innermost first
    for (let n = el; n; n = n.parentElement) chain.push(n);
    const steps = chain.map(stepOf).reverse(); // the path from the top
    let scoped = 0;
    for (let i = 1; i < chain.length && scoped < 2; i++) {
      const anchor = anchorOf(doc, chain[i]);
      if (!anchor) continue;
      const sel = anchor + ' > ' + steps.slice(steps.length - i).join(' > ');
      if (countCss(doc, sel) === 1) { add('css', sel, S.nth + 100 + scoped); scoped++; }
    }
    // In a shadow root, css cannot reach outside it but :host(...) can
    // name the host: the path from the host told apart by its attributes.
    const host = inShadow && el.getRootNode().host;
    if (host && scoped < 2) {
      // The element itself by what it is rather than by its path inside
      // the host, which survives a wrapper added around it.
      const own = [];
      const cls0 = [...el.classList].filter(stableClass)[0];
      if (cls0) own.push(esc(tag) + '.' + esc(cls0));
      if (type) own.push(esc(tag) + attrSel('type', type));
      for (const ha of hostAnchors(host)) {
        let here = 0;
        for (const o of own) {
          const sel = ':host(' + ha + ') ' + o;
          if (countCss(doc, sel) === 1) { add('css', sel, S.nth + 100 + scoped + here); here++; }
        }
        const sel = ':host(' + ha + ') > ' + steps.join(' > ');
        if (countCss(doc, sel) === 1) { add('css', sel, S.nth + 100 + scoped + here); here++; }
        if (here) { scoped++; break; }
      }
    }
    if (!inShadow && !plain) {
      let pred = '';
      const al = el.getAttribute('aria-label');
      if (al) pred = '[@aria-label=' + xq(al) + ']';
      else if (text && text.length <= maxText) pred = '[normalize-space()=' + xq(text) + ']';
      else if (el.getAttribute('name')) pred = '[@name=' + xq(el.getAttribute('name')) + ']';
      else if (type) pred = '[@type=' + xq(type) + ']';
      const self = '//' + tag + pred;
      // Each try evaluates an xpath over the whole document: a few tries
      // per ancestor, with the texts nearest to el first.
      let made = 0, tries = 0;
      for (let p = el.parentElement, depth = 0; p && depth < 6 && made < 2 && tries < 24 && tagOf(p) !== 'body'; p = p.parentElement, depth++) {
        // An ancestor with several elements like el in it cannot tell el apart.
        let inside = 0;
        try { inside = doc.evaluate('.' + self, p, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null).snapshotLength; } catch (e) { inside = 0; }
        if (inside !== 1) continue;
        let here = 0;
        for (const k of p.querySelectorAll('*')) {
          if (here >= 6 || tries >= 24) break;
          if (k === el || k.contains(el) || el.contains(k) || k.children.length > 0) continue;
          const kt = norm(k.textContent);
          if (!kt || kt.length > 60 || kt === text) continue;
          here++; tries++;
          // The path from the ancestor down to the text, so that outer
          // ancestors (a list holding every card) do not match too.
          const down = [];
          for (let n = k; n !== p; n = n.parentElement) down.unshift(tagOf(n));
          const xp = '//' + tagOf(p) + '[./' + down.join('/') + '[normalize-space()=' + xq(kt) + ']]' + self;
          if (countXPath(doc, xp) === 1) { add('xpath', xp, S.nth + made); made++; break; }
        }
      }
    }

    // Last: the full css path from the root of el's tree.
    add('css', (host ? ':host > ' : '') + steps.join(' > '), S.path);

    out.sort((a, b) => a.score - b.score);
    return out;
  });

  const keepAttrs = ['id', 'class', 'name', 'type', 'placeholder', 'aria-label', 'role', 'href', 'title', 'alt', 'for',
    'src', ...testIdAttrs];

  A.describe = el => {
    if (!el || el.nodeType !== 1) return null;
    const attributes = {};
    for (const a of keepAttrs) {
      const v = el.getAttribute(a);
      if (v !== null) attributes[a] = v.slice(0, 200);
    }
    const tag = tagOf(el);
    if (['input', 'textarea', 'select'].includes(tag) && el.type !== 'password') attributes.value = String(el.value).slice(0, 200);
    if (tag === 'button' && el.value) attributes.value = el.value.slice(0, 200);
    if (['checkbox', 'radio'].includes(el.type)) attributes.checked = String(!!el.checked);
    const r = el.getBoundingClientRect();
    const role = roleOf(el), name = nameOf(el).slice(0, 200);
    const text = norm(ownText(el)).slice(0, 200);
    const fingerprint = {tag, role, name, text: text.slice(0, 100)};
    if (el.id) fingerprint.id = el.id;
    for (const a of ['name', 'type', 'placeholder', 'aria-label', 'title', 'alt', 'href']) {
      const v = el.getAttribute(a);
      if (v) fingerprint[a === 'aria-label' ? 'ariaLabel' : a] = v.slice(0, 200);
    }
    for (const a of testIdAttrs) if (el.getAttribute(a)) { fingerprint.testId = el.getAttribute(a); break; }
    const label = labelTexts(el)[0];
    if (label) fingerprint.label = label.slice(0, 200);
    const cls = [...el.classList].filter(stableClass).join(' ');
    if (cls) fingerprint.class = cls;
    for (const k of Object.keys(fingerprint)) if (!fingerprint[k]) delete fingerprint[k];
    return {tag, text, role, name, attributes, box: {x: r.x, y: r.y, width: r.width, height: r.height}, fingerprint};
  };

  // The best candidate that is unique by the page's own count, for the
  // highlight's label (approximate: role and label are counted roughly).
  // Counting stops at limit: "unique or not" needs no more than 2.
  const countWhere = (list, pred, limit) => {
    let n = 0;
    for (const e of list) if (pred(e) && ++n >= limit) break;
    return n;
  };
  const countIn = (doc, c, limit = Infinity) => {
    const want = lower(c.value);
    const match = s => c.exact ? norm(s) === norm(c.value) : lower(s).includes(want);
    switch (c.kind) {
    case 'css': return countCss(doc, c.value);
    case 'xpath': return countXPath(doc, c.value);
    case 'testId': return countCss(doc, attrSel('data-testid', c.value));
    case 'placeholder': case 'alt': case 'title':
      return countWhere(deep(doc, '[' + c.kind + ']'), e => match(e.getAttribute(c.kind)), limit);
    case 'label': return countWhere(deep(doc, 'input,textarea,select,button,[aria-label],[aria-labelledby]'), e => labelTexts(e).some(match), limit);
    case 'text': return countWhere(deep(doc, '*'), e => match(ownText(e)) && innermost(e, norm(c.value)), limit);
    case 'role': return countWhere(deep(doc, '*'), e => roleOf(e) === c.value && (!c.name || (c.exact ? nameOf(e) === c.name : lower(nameOf(e)).includes(lower(c.name)))), limit);
    }
    return 0;
  };
  const words = c => c.kind === 'role' ? 'role=' + c.value + (c.name ? ' "' + c.name + '"' : '') + (c.exact ? ' (exact)' : '') :
    c.kind + '=' + (c.kind === 'css' || c.kind === 'xpath' ? c.value : '"' + c.value + '"') + (c.exact ? ' (exact)' : '');
  // The candidates as the page counts them now, each marked unique when it
  // matches el alone (the page's own, approximate count): the recorder's
  // snapshot of an element an action may remove or navigate away from.
  A.countedCandidates = withRoots(el => {
    const doc = el.ownerDocument;
    return A.candidates(el).map(c => Object.assign(c, {unique: countIn(doc, c, 2) === 1}));
  });
  A.bestLabel = withRoots(el => {
    const doc = el.ownerDocument;
    for (const c of A.candidates(el)) if (countIn(doc, c, 2) === 1) return words(c);
    return tagOf(el);
  });

  // The picker's highlight: a fixed box over el with the best locator as its
  // label, in a closed shadow root of an element of its own under <html>, so
  // that no locator sees it and it takes no pointer events.
  let host = null, box = null, tip = null, lastEl = null, lastLabel = '';
  A.highlight = el => {
    el = A.retarget(el);
    if (!el) {
      if (host) host.remove();
      host = null; lastEl = null;
      return;
    }
    const doc = el.ownerDocument;
    if (!host || !host.isConnected || host.ownerDocument !== doc) {
      if (host) host.remove();
      host = doc.createElement(overlayTag);
      host.style.cssText = 'all: initial; position: fixed; inset: 0; pointer-events: none; z-index: 2147483647;';
      const root = host.attachShadow({mode: 'closed'});
      box = doc.createElement('div');
      box.style.cssText = 'position: fixed; pointer-events: none; box-sizing: border-box; border: 2px solid #1a73e8; background: rgba(26,115,232,.15);';
      tip = doc.createElement('div');
      tip.style.cssText = 'position: fixed; pointer-events: none; font: 12px/1.4 monospace; color: #fff; background: #1a73e8; padding: 2px 6px; border-radius: 3px; max-width: 60vw; white-space: nowrap; overflow: hidden; text-overflow: ellipsis;';
      root.append(box, tip);
      doc.documentElement.append(host);
    }
    const r = el.getBoundingClientRect();
    Object.assign(box.style, {left: r.x + 'px', top: r.y + 'px', width: r.width + 'px', height: r.height + 'px'});
    if (el !== lastEl) { lastEl = el; lastLabel = A.bestLabel(el); }
    tip.textContent = lastLabel;
    const above = r.y >= 22;
    Object.assign(tip.style, {left: Math.max(0, r.x) + 'px', top: (above ? r.y - 22 : r.y + r.height + 2) + 'px'});
  };
})();
