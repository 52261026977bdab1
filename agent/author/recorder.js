// recorder.js: the recording and picking half of the in-page script (see
// doc.go). It runs in the isolated world __ta_author of every frame, sees
// the page's DOM but none of its JavaScript, and reports through the
// binding __taAuthorReport, which exists in this world only.
(() => {
  const A = (globalThis.__taAuthor ||= {});
  if (A.setMode) return; // installed twice (runImmediately and a new document)
  const BINDING = "__taAuthorReport";
  const MAX_HANDLES = 2000;
  const top = window === window.top;

  let mode = "off"; // record, pick, inspect, off
  let assertMode = ""; // the toolbar's: "", assertVisible, assertText, assertValue

  // Elements are named by handles so Go can ask for them back; the oldest
  // are forgotten so a long session does not keep every element alive.
  const handles = new Map();
  const handleOf = new WeakMap();
  let nextHandle = 1;
  const handle = (el) => {
    let h = handleOf.get(el);
    if (h && handles.has(h)) return h;
    h = nextHandle++;
    handleOf.set(el, h);
    handles.set(h, el);
    if (handles.size > MAX_HANDLES) handles.delete(handles.keys().next().value);
    return h;
  };
  A.element = (h) => handles.get(h) || null;

  const send = (r) => {
    r.t = Date.now();
    const report = globalThis[BINDING];
    if (typeof report === "function") report(JSON.stringify(r));
  };
  // snapshot is the element's locators as the page sees them now, for
  // when it is gone by the time Go asks (a click that navigates).
  const snapshot = (el) => {
    let candidates = [];
    try { candidates = A.countedCandidates?.(el) ?? []; } catch { /* locators.js not there */ }
    return { css: A.cssPath(el), text: (el.innerText ?? "").trim().replace(/\s+/g, " ").slice(0, 200), candidates };
  };
  // A fill reports on every keystroke: only its field's first carries the
  // snapshot (its step's target is resolved then; the later ones only
  // change its value), so that typing stays cheap and Enter that submits
  // and navigates right after still leaves the field's locators.
  let lastFilled = null;
  const action = (type, el, extra) => {
    const snap = el && (type !== "fill" || el !== lastFilled);
    if (type === "fill") lastFilled = el;
    else if (type !== "press") lastFilled = null;
    send({ kind: "action", type, handle: el ? handle(el) : 0, ...(snap ? { fallback: snapshot(el) } : {}), ...extra });
  };

  // The element an event is about: the innermost one, inside open shadow
  // roots too.
  const targetOf = (e) => {
    let n = e.composedPath()[0] || e.target;
    if (n && n.nodeType !== 1) n = n.parentElement || (n.host ?? null);
    return n;
  };

  // ---- the overlay toolbar (top frame, record mode) ----
  let bar = null; // the host element; its shadow root is closed
  const buttons = {};
  const TOOLS = [["", "Record"], ["assertVisible", "Assert visible"], ["assertText", "Assert text"], ["assertValue", "Assert value"]];
  const inBar = (e) => bar !== null && e.composedPath().includes(bar);
  const paintBar = () => {
    for (const [m] of TOOLS) {
      const b = buttons[m];
      const on = m === assertMode;
      b.style.background = on ? "#2563eb" : "#fff";
      b.style.color = on ? "#fff" : "#111";
    }
  };
  const showBar = (show) => {
    if (!top) return;
    if (!show) {
      bar?.remove();
      return;
    }
    if (!bar) {
      bar = document.createElement("ta-author-toolbar");
      const root = bar.attachShadow({ mode: "closed" });
      const box = document.createElement("div");
      box.setAttribute("style", "position:fixed;bottom:8px;right:8px;z-index:2147483647;" +
        "display:flex;gap:4px;padding:4px;background:#f3f4f6;border:1px solid #9ca3af;border-radius:6px;" +
        "font:13px system-ui,sans-serif;box-shadow:0 2px 8px rgba(0,0,0,.25)");
      for (const [m, label] of TOOLS) {
        const b = document.createElement("button");
        b.textContent = label;
        b.setAttribute("style", "border:1px solid #9ca3af;border-radius:4px;padding:3px 8px;cursor:pointer;font:inherit");
        b.addEventListener("click", () => { assertMode = m; paintBar(); });
        buttons[m] = b;
        box.appendChild(b);
      }
      root.appendChild(box);
      paintBar();
    }
    if (!bar.isConnected) (document.documentElement || document).appendChild(bar);
  };
  // toolbarButton is where a toolbar button is (tests click it for real).
  A.toolbarButton = (m) => {
    const r = buttons[m]?.getBoundingClientRect();
    return r ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : null;
  };

  A.setMode = (m) => {
    mode = m;
    assertMode = "";
    if (bar) paintBar();
    if (document.documentElement) showBar(m === "record");
    else document.addEventListener("DOMContentLoaded", () => showBar(mode === "record"), { once: true });
    if (m !== "pick" && m !== "inspect") A.highlight?.(null);
  };
  A.mode = () => mode;
  A.tool = () => assertMode;

  // ---- what kind of element ----
  const TEXTLESS = new Set(["checkbox", "radio", "button", "submit", "reset", "image", "file", "range", "color"]);
  const isToggle = (el) => el?.localName === "input" && (el.type === "checkbox" || el.type === "radio");
  const isTextField = (el) =>
    (el?.localName === "input" && !TEXTLESS.has(el.type)) || el?.localName === "textarea" || el?.isContentEditable;
  const isFileInput = (el) => el?.localName === "input" && el.type === "file";
  // labelledToggle is the checkbox or radio a click on its label toggles.
  const labelledToggle = (el) => {
    const label = el?.closest?.("label");
    const c = label?.control;
    return isToggle(c) ? c : null;
  };

  // cssPath is a plain CSS path to el, the fallback target when no better
  // locator is known.
  A.cssPath = (el) => {
    const parts = [];
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      if (n.id && /^[A-Za-z][\w-]*$/.test(n.id)) {
        parts.unshift("#" + n.id);
        break;
      }
      let part = n.localName;
      const p = n.parentElement;
      if (p) {
        const same = [...p.children].filter((c) => c.localName === n.localName);
        if (same.length > 1) part += `:nth-of-type(${same.indexOf(n) + 1})`;
      }
      parts.unshift(part);
    }
    return parts.join(" > ");
  };

  // ---- hover menus ----
  // A click on an element that a CSS :hover rule reveals is preceded by a
  // hover on the element that rule hovers; so is a click on an element that
  // appeared or changed shortly after the pointer entered another one (a
  // menu opened by a script).
  // The :hover rules that show or hide something, of the document and of
  // the shadow root el is in (a component's own styles), inside @media,
  // @supports and @layer blocks too.
  const hoverRules = (el) => {
    const out = [];
    const sheets = [...document.styleSheets];
    const root = el.getRootNode();
    if (root !== document && root.styleSheets) sheets.push(...root.styleSheets, ...(root.adoptedStyleSheets || []));
    const visit = (rules) => {
      for (const r of rules || []) {
        if (r.cssRules && !r.selectorText) { visit(r.cssRules); continue; }
        if (!r.selectorText || !r.selectorText.includes(":hover")) continue;
        const st = r.style;
        if (!st.display && !st.visibility && !st.opacity) continue;
        for (const sel of r.selectorText.split(",")) {
          const i = sel.indexOf(":hover");
          if (i < 0) continue;
          out.push({ trigger: sel.slice(0, i).trim(), revealed: sel.replace(/:hover/g, "").trim() });
        }
      }
    };
    for (const sheet of sheets) {
      let rules;
      try { rules = sheet.cssRules; } catch { continue; } // cross-origin
      visit(rules);
    }
    return out;
  };
  // The element whose :hover reveals el: for the revealed element nearest
  // to el (the submenu el is in), the nearest ancestor above it that the
  // rule hovers. Not el.closest(trigger): in `li:hover > ul` a submenu's
  // item is itself an li, and a hover on it replays on a hidden element.
  const hoverTriggerByCSS = (el) => {
    let best = null;
    for (const { trigger, revealed } of hoverRules(el)) {
      try {
        const shown = el.closest(revealed);
        const t = shown?.parentElement?.closest(trigger);
        if (t && (!best || best.shown.contains(shown))) best = { shown, t };
      } catch { /* a selector closest() does not take */ }
    }
    return best?.t ?? null;
  };
  let lastEnter = 0; // when Enter was last pressed (keydown)
  let lastOver = null; // {el, t}: the element the pointer entered last, outside the one before
  const revealed = []; // {el, by, t}: nodes changed within a second after lastOver
  const observer = new MutationObserver((list) => {
    if (mode !== "record" || !lastOver || Date.now() - lastOver.t > 1000) return;
    for (const m of list) {
      const n = m.type === "childList" ? m.addedNodes[0] : m.target;
      if (n && n.nodeType === 1 && !n.contains(lastOver.el)) revealed.push({ el: n, by: lastOver.el, t: Date.now() });
    }
    while (revealed.length > 50) revealed.shift();
  });
  const observe = () => observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["class", "style", "hidden", "open", "aria-expanded"] });
  // A press or a key ends the hover's window: what changes next is that
  // input's doing (a dialog opened by a click, a wizard's next step), not
  // the pointer's.
  const endHover = (e) => { if (e.isTrusted) lastOver = null; };
  for (const type of ["pointerdown", "mousedown", "keydown"]) window.addEventListener(type, endHover, true);
  if (document.documentElement) observe();
  else document.addEventListener("DOMContentLoaded", observe, { once: true });
  const hoverTriggerByScript = (el) => {
    for (let i = revealed.length - 1; i >= 0; i--) {
      const r = revealed[i];
      if (r.el.contains(el) && r.by !== el && !r.by.contains(el) && r.by.isConnected) return r.by;
    }
    return null;
  };
  // The hovers that reveal el, outermost first: a submenu's trigger may
  // itself be in a menu a hover reveals (Products > Phones > iPhone).
  const hoverChain = (el) => {
    const chain = [];
    for (let n = el; n && chain.length < 5;) {
      const t = hoverTriggerByCSS(n) || (n === el ? hoverTriggerByScript(n) : null);
      if (!t || chain.includes(t)) break;
      chain.unshift(t);
      n = t;
    }
    return chain;
  };
  let lastHovers = []; // the chain hovered for the last click
  const maybeHover = (el) => {
    const chain = hoverChain(el);
    // The menus still open from the last click need no new hover.
    let i = 0;
    while (i < chain.length && chain[i] === lastHovers[i]) i++;
    for (const t of chain.slice(i)) action("hover", t);
    lastHovers = chain;
  };

  // ---- listeners (capture phase on window: before the page's own) ----
  const block = (e) => {
    e.preventDefault();
    e.stopImmediatePropagation();
  };
  const swallowing = () => mode === "pick" || (mode === "record" && assertMode !== "");

  const onPointer = (e) => {
    if (!e.isTrusted || inBar(e) || !swallowing()) return;
    block(e);
  };
  for (const type of ["pointerdown", "mousedown", "pointerup", "mouseup", "auxclick", "contextmenu"]) {
    window.addEventListener(type, onPointer, true);
  }

  // The modifier keys held during a click, as the click step names them.
  const mods = (e) => {
    const m = [];
    if (e.altKey) m.push("Alt");
    if (e.ctrlKey) m.push("Control");
    if (e.metaKey) m.push("Meta");
    if (e.shiftKey) m.push("Shift");
    return m.length ? { modifiers: m } : {};
  };

  window.addEventListener("click", (e) => {
    if (!e.isTrusted || inBar(e)) return;
    const el = targetOf(e);
    if (!el) return;
    if (mode === "pick") {
      block(e);
      A.highlight?.(el);
      send({ kind: "pick", handle: handle(el) });
      return;
    }
    if (mode !== "record") return;
    if (assertMode) {
      block(e);
      const m = assertMode;
      if (m === "assertText") action(m, el, { expected: (el.innerText ?? el.textContent ?? "").trim() });
      else if (m === "assertValue") action(m, el, { expected: String(el.value ?? "") });
      else action(m, el);
      assertMode = "";
      paintBar();
      return;
    }
    // A checkbox, a radio or their label: check/uncheck, from change.
    if (isToggle(el) || labelledToggle(el)) return;
    // Typing into a field is its fill; selecting, its select; choosing a
    // file, its upload (a replayed click would open the file chooser).
    if (isTextField(el) || el.localName === "select" || el.localName === "option" || isFileInput(el) || isFileInput(el.closest("label")?.control)) return;
    // Enter in a form clicks its submit button for the browser (detail 0):
    // the press step already holds it, and a replayed click would send
    // the form twice.
    if (e.detail === 0 && lastEnter && Date.now() - lastEnter < 1000) return;
    // The click that ends a press moved with the pointer is held until
    // the drag is told apart from a sloppy click (dragEnded).
    if (pressed?.far && pressed.el.contains(el)) {
      pressed.held = () => { maybeHover(el); action("click", el, mods(e)); };
      return;
    }
    maybeHover(el);
    action("click", el, mods(e));
  }, true);

  // A right or middle click: a click step with its button.
  const otherClick = (button) => (e) => {
    if (!e.isTrusted || inBar(e) || mode !== "record" || assertMode) return;
    const el = targetOf(e);
    if (!el) return;
    maybeHover(el);
    action("click", el, { button, ...mods(e) });
  };
  window.addEventListener("contextmenu", otherClick("right"), true);
  window.addEventListener("auxclick", (e) => { if (e.button === 1) otherClick("middle")(e); }, true);

  // ---- drag and drop ----
  // HTML5: dragstart names the element, drop the element it fell on.
  let dragged = null;
  window.addEventListener("dragstart", (e) => {
    if (!e.isTrusted || mode !== "record" || assertMode) return;
    dragged = targetOf(e);
    if (pressed) pressed.html5 = true;
  }, true);
  window.addEventListener("drop", (e) => {
    if (!e.isTrusted || mode !== "record" || !dragged) return;
    const to = targetOf(e);
    if (to && to !== dragged && !dragged.contains(to)) dragTo(dragged, to);
    dragged = null;
  }, true);
  window.addEventListener("dragend", () => { dragged = null; }, true);
  const dragTo = (el, to) => action("dragTo", el, { to: handle(to), toFallback: snapshot(to) });

  // Mouse: a press, a move of more than a few pixels, a release, and the
  // pressed element has moved (it followed the pointer, or the page put
  // it elsewhere: a sortable list) is a drag to what lies under the
  // pointer at the release.
  let pressed = null; // {el, x, y, box, parent, next, far, html5, held}
  const placeOf = (el) => ({ box: el.getBoundingClientRect(), parent: el.parentNode, next: el.nextElementSibling });
  window.addEventListener("pointerdown", (e) => {
    pressed = null;
    if (!e.isTrusted || e.button !== 0 || mode !== "record" || assertMode || inBar(e)) return;
    const el = targetOf(e);
    if (el && !isTextField(el) && el.localName !== "select") pressed = { el, x: e.clientX, y: e.clientY, ...placeOf(el) };
  }, true);
  window.addEventListener("pointerup", (e) => {
    const p = pressed;
    if (!e.isTrusted || !p || mode !== "record") return;
    if (Math.hypot(e.clientX - p.x, e.clientY - p.y) < 8 || p.html5) {
      pressed = null;
      return;
    }
    p.far = true;
    // What the element is dropped on: under the pointer now, before the
    // page's own handlers put the element in its new place.
    const root = p.el.getRootNode();
    p.to = (root.elementsFromPoint ? root : document).elementsFromPoint(e.clientX, e.clientY)
      .find((n) => n !== p.el && !p.el.contains(n) && !n.localName.startsWith("ta-author-"));
    // Whether it moved: after those handlers (and the click they lead to).
    setTimeout(() => dragEnded(p), 0);
  }, true);
  const dragEnded = (p) => {
    if (pressed === p) pressed = null;
    const now = p.el.isConnected ? placeOf(p.el) : null;
    const moved = now && (now.parent !== p.parent || now.next !== p.next ||
      Math.abs(now.box.x - p.box.x) > 4 || Math.abs(now.box.y - p.box.y) > 4);
    if (moved && p.to) dragTo(p.el, p.to);
    else p.held?.();
  };

  window.addEventListener("dblclick", (e) => {
    if (!e.isTrusted || inBar(e) || mode !== "record" || assertMode) return;
    const el = targetOf(e);
    if (el && !isTextField(el) && !isToggle(el)) action("dblclick", el);
  }, true);

  window.addEventListener("input", (e) => {
    if (!e.isTrusted || mode !== "record") return;
    const el = targetOf(e);
    if (!isTextField(el)) return;
    action("fill", el, { value: el.isContentEditable && el.localName !== "input" ? el.innerText : el.value });
  }, true);

  // A select's option as a step's value: its label (what a person reads
  // and the runner matches after the value), unless another option's
  // value or label is that same text; then its value.
  const selectValue = (el) => {
    const o = el.selectedOptions[0];
    if (!o) return el.value;
    const label = (o.label || o.textContent || "").trim();
    const named = [...el.options].filter((x) => x.value === label || (x.label || x.textContent || "").trim() === label);
    return label && named.every((x) => x === o) ? label : o.value;
  };

  const changed = new WeakSet(); // events handled, when two roots see one
  const onChange = (e) => {
    if (mode !== "record" || changed.has(e)) return;
    changed.add(e);
    const el = targetOf(e);
    // A select a page's own widget changed (value set, then a change
    // event dispatched) is what the person chose too; other untrusted
    // events are the page talking to itself.
    if (el?.localName === "select") action("select", el, { value: selectValue(el) });
    else if (e.isTrusted && isFileInput(el) && el.files.length) action("upload", el, { names: [...el.files].map((f) => f.name) });
    else if (e.isTrusted && isToggle(el)) action(el.checked ? "check" : "uncheck", el);
  };
  window.addEventListener("change", onChange, true);
  // change is not composed: from a checkbox or select inside a shadow root
  // it never reaches window. Every open shadow root an input passes
  // through (pointer, keys, focus: all composed, all before the change)
  // gets the listener too, at any depth.
  const listened = new WeakSet();
  const listenRoots = (e) => {
    if (mode !== "record") return;
    for (const n of e.composedPath()) {
      if (n.nodeType !== 11 || !n.host || listened.has(n)) continue;
      listened.add(n);
      n.addEventListener("change", onChange, true);
    }
  };
  for (const type of ["pointerdown", "keydown", "focusin", "click"]) window.addEventListener(type, listenRoots, true);

  const NAMED = new Set(["Enter", "Tab", "Escape"]);
  const MODIFIERS = new Set(["Control", "Alt", "Meta", "Shift", "AltGraph", "CapsLock"]);
  window.addEventListener("keydown", (e) => {
    if (!e.isTrusted || mode !== "record" || MODIFIERS.has(e.key)) return;
    if (e.key === "Enter") lastEnter = Date.now();
    const combo = e.ctrlKey || e.altKey || e.metaKey;
    if (!NAMED.has(e.key) && !combo) return;
    let key = e.key;
    if (key.length === 1) key = /^Key[A-Z]$/.test(e.code) ? e.code.slice(3) : /^Digit\d$/.test(e.code) ? e.code.slice(5) : key.toUpperCase();
    const mods = [];
    if (e.ctrlKey) mods.push("Control");
    if (e.altKey) mods.push("Alt");
    if (e.metaKey) mods.push("Meta");
    if (e.shiftKey) mods.push("Shift");
    const el = targetOf(e);
    const onPage = !el || el === document.body || el === document.documentElement;
    action("press", onPage ? null : el, { key: [...mods, key].join("+") });
  }, true);

  window.addEventListener("mouseover", (e) => {
    if (!e.isTrusted || inBar(e)) return;
    const el = targetOf(e);
    if (!el) return;
    if (mode === "pick" || mode === "inspect") {
      A.highlight?.(el);
      return;
    }
    if (mode === "record" && (!lastOver || !lastOver.el.contains(el))) lastOver = { el, t: Date.now() };
  }, true);
})();
