// The DOM snapshot of a run trace (docs/trace.md "Snapshots"): the page's
// DOM as HTML that runs no script and loads nothing when shown. Called with
// the step's target element (or null), the locator whose other matches are
// marked (or null), the size bound, and query (js.go's queryJS, returning
// every match with its fourth argument). It returns {html, frames}: a
// same-origin frame's document is frames[n], and its iframe's srcdoc is
// "\u0000F<n>\u0000" in the HTML, so the runner masks each document before
// escaping it into its frame (an escaped secret would escape the mask).
// It reads the page and changes nothing in it.
(function (target, loc, max, query) {
  const frames = [];
  // As Go's html.EscapeString, so the masker finds an escaped secret; a NUL
  // could fake a frame's marker.
  const esc = s => String(s).replace(/[&'<>"\u0000]/g, c =>
    ({ '&': '&amp;', "'": '&#39;', '<': '&lt;', '>': '&gt;', '"': '&#34;', '\u0000': '\ufffd' })[c]);
  const raw = s => s.replace(/<\/style/gi, '<\\/style').replace(/\u0000/g, '\ufffd');
  const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
  const DROP = new Set(['script', 'noscript', 'base', 'template']);
  const URLATTR = new Set(['src', 'srcset', 'poster', 'data', 'background', 'href', 'xlink:href', 'action', 'formaction', 'ping', 'codebase', 'manifest', 'imagesrcset']);
  // CSS url(...) other than data: would load when shown.
  const cssURLs = t => t.replace(/url\(\s*(?:"(?!data:)[^"]*"|'(?!data:)[^']*'|(?!["']|data:)[^)]*)\s*\)/gi, 'url("about:invalid")');
  let marked = new Set();
  if (loc && query) {
    try {
      const found = query.call(document, loc.kind, loc.value, loc.exact, true);
      if (Array.isArray(found)) marked = new Set(found);
    } catch (e) { /* a malformed locator marks nothing */ }
  }
  let size = 0, cut = false;
  const sheetText = (sheet, depth) => {
    let rules;
    try { rules = sheet.cssRules; } catch (e) { rules = null; }
    if (!rules) return '/* stylesheet ' + String(sheet.href || '').replace(/\*\//g, '* /') + ' left out: another origin\'s, unreadable */';
    let out = '';
    for (const r of rules) {
      if (r.type === 3) out += r.styleSheet && depth < 8 ? sheetText(r.styleSheet, depth + 1) : ''; // an @import, of any frame's realm
      else out += cssURLs(r.cssText) + '\n';
    }
    return out;
  };
  const styleTag = text => '<style>' + raw(text) + '</style>';
  // adopted are a document's or a shadow root's constructed stylesheets.
  const adopted = root => (root.adoptedStyleSheets || []).map(s => styleTag(sheetText(s, 0))).join('');
  const attrs = (el, doc) => {
    const name = el.localName;
    let out = '';
    for (const a of el.attributes) {
      const n = a.name.toLowerCase();
      if (!/^[a-z_:][-a-z0-9_:.]*$/.test(n)) continue; // what the parser took for a name: a="1 or <b
      if (n.startsWith('on') || n === 'style' || n === 'srcdoc' || n === 'nonce' || n === 'integrity') continue;
      // The live state stands for these (below).
      if ((name === 'input' && (n === 'value' || n === 'checked')) || (name === 'option' && n === 'selected')) continue;
      let v = a.value;
      if (URLATTR.has(n)) {
        const data = /^\s*data:/i.test(v);
        if (n === 'href' && (name === 'a' || name === 'area')) {
          if (/^\s*javascript:/i.test(v)) continue;
        } else if (n === 'href' && name === 'use' && v.trim().startsWith('#')) {
          // a reference inside the document
        } else if (!(data && (name === 'img' || name === 'image' || name === 'input'))) { // images only
          out += ' data-ta-' + n.replace(/[^a-z-]/g, '-') + '="' + esc(v) + '"';
          continue;
        }
      }
      out += ' ' + a.name + '="' + esc(v) + '"';
    }
    const style = el.getAttribute('style');
    if (style) out += ' style="' + esc(cssURLs(style)) + '"';
    if (name === 'input') {
      const t = (el.type || '').toLowerCase();
      if (t === 'checkbox' || t === 'radio') { if (el.checked) out += ' checked=""'; }
      else if (t !== 'file') out += ' value="' + esc(t === 'password' && el.value ? '***' : el.value) + '"';
    }
    if (name === 'option' && el.selected) out += ' selected=""';
    const win = doc.defaultView;
    if (el === doc.documentElement) {
      if (win && (win.scrollX || win.scrollY)) out += ' data-ta-scroll="' + Math.round(win.scrollX) + ',' + Math.round(win.scrollY) + '"';
    } else if (el.scrollTop || el.scrollLeft) out += ' data-ta-scroll="' + Math.round(el.scrollLeft) + ',' + Math.round(el.scrollTop) + '"';
    if (el === target) out += ' data-ta-target=""';
    else if (marked.has(el)) out += ' data-ta-match=""';
    return out;
  };
  const frameDoc = el => {
    try { return el.contentDocument; } catch (e) { return null; }
  };
  const walk = (node, doc, parts) => {
    if (cut) return;
    if (size > max) { cut = true; parts.push('<!-- the snapshot was cut here: larger than ' + max + ' bytes -->'); return; }
    if (node.nodeType === 3) {
      const p = node.parentNode && node.parentNode.localName;
      const t = p === 'style' ? raw(node.data) : esc(node.data);
      size += t.length;
      parts.push(t);
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node, name = el.localName;
    if (DROP.has(name)) return;
    if (name === 'style' || (name === 'link' && /\bstylesheet\b/i.test(el.rel || ''))) {
      if (el.sheet && !el.sheet.disabled) {
        const t = styleTag(sheetText(el.sheet, 0));
        size += t.length;
        parts.push(t);
      }
      return;
    }
    if (name === 'link' || (name === 'meta' && el.httpEquiv)) return; // preloads, icons, refresh: they would load
    if (name === 'textarea') {
      const t = '<textarea' + attrs(el, doc) + '>' + esc(el.value) + '</textarea>';
      size += t.length;
      parts.push(t);
      return;
    }
    let open = '<' + name + attrs(el, doc);
    if (name === 'iframe' || name === 'frame') {
      const d = frameDoc(el);
      if (d && d.documentElement) {
        frames.push(null);
        const n = frames.length - 1;
        frames[n] = serialize(d);
        open += ' srcdoc="\u0000F' + n + '\u0000"';
      } else open += ' data-ta-frame="another origin\'s, not kept"';
    }
    size += open.length;
    parts.push(open + '>');
    if (name === 'head' && el === doc.head) {
      parts.push('<base href="' + esc(doc.URL) + '">');
      const a = adopted(doc);
      size += a.length;
      parts.push(a);
    }
    if (VOID.has(name)) return;
    if (el.shadowRoot && el.shadowRoot.mode === 'open') {
      parts.push('<template shadowrootmode="open">' + adopted(el.shadowRoot));
      for (const c of el.shadowRoot.childNodes) walk(c, doc, parts);
      parts.push('</template>');
    }
    for (const c of el.childNodes) walk(c, doc, parts);
    parts.push('</' + name + '>');
  };
  const serialize = doc => {
    const parts = [doc.doctype ? '<!DOCTYPE html>' : ''];
    if (doc.documentElement) walk(doc.documentElement, doc, parts);
    return parts.join('');
  };
  const doc = target && target.ownerDocument ? (() => {
    try { return target.ownerDocument.defaultView.top.document || target.ownerDocument; } catch (e) { return target.ownerDocument; }
  })() : document;
  return { html: serialize(doc), frames };
})
