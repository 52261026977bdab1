package runner

// Page functions of the assertions and setVariable sources issue 28 added
// (see js.go for the conventions).

// stateJS answers whether the element is in state: enabled, disabled,
// editable or readonly, as Playwright defines them. Disabled is a disabled
// form control (:disabled covers a disabled fieldset's) or inside
// aria-disabled="true"; editable is enabled and not read-only, read-only
// being the readonly attribute of an input, textarea or select, or
// aria-readonly="true" on a role that takes it; readonly is not editable.
// An element that cannot be edited at all answers "!reason".
const stateJS = `function (state) {
  const el = this;
  const disabled = el.matches(':disabled') || !!el.closest('[aria-disabled="true"]');
  if (state === 'enabled') return !disabled;
  if (state === 'disabled') return disabled;
  const roles = ['checkbox', 'combobox', 'grid', 'gridcell', 'listbox', 'radiogroup', 'slider', 'spinbutton', 'textbox'];
  let readonly;
  if (['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)) readonly = el.hasAttribute('readonly');
  else if (roles.includes(el.getAttribute('role'))) readonly = el.getAttribute('aria-readonly') === 'true';
  else if (el.isContentEditable) readonly = false;
  else return '!the element is not an <input>, <textarea>, <select> or [contenteditable] element, nor has a role that can be read-only';
  const editable = !disabled && !readonly;
  return state === 'editable' ? editable : !editable;
}`

// attributeJS returns the element's attribute name, or null when it has
// none. A style attribute reads as the browser writes it back
// (style.cssText: "color: blue;" for style="color:blue"), as WebDriver's
// getAttribute does, so suites written against Selenium keep passing.
const attributeJS = `function (name) {
  const v = this.getAttribute(name);
  if (v !== null && name.toLowerCase() === 'style' && this.style) return this.style.cssText;
  return v;
}`

// selectedJS returns the labels (by "label") or values of a <select>'s
// selected options, joined by ", ", or null for another element.
const selectedJS = `function (by) {
  if (this.tagName !== 'SELECT') return null;
  return [...this.selectedOptions].map(o => by === 'value' ? o.value : o.label.trim()).join(', ');
}`
