// How the editor speaks about steps: describeStep reads a step as one
// sentence ('Click the button "Sign in"'), and the inspector's labels and
// example placeholders for each parameter. Pure, so it is table-tested.
import type { Registry, RegistryParam } from "../../api";
import type { JsonObject } from "../../api/editorApi";
import { readTarget, str, summarize } from "./documentModel";
import { describeBlock } from "./blockText";

/** The noun a role reads as: textbox → field, combobox → dropdown. */
const ROLE_NOUNS: Record<string, string> = {
  textbox: "field",
  searchbox: "search field",
  combobox: "dropdown",
  listbox: "list",
  option: "option",
  checkbox: "checkbox",
  radio: "radio button",
  spinbutton: "number field",
  img: "image",
  menuitem: "menu item",
};

/** Roles and kinds a value is typed into: a fill names them by their name alone. */
const FIELD_ROLES = new Set(["textbox", "searchbox", "combobox", "spinbutton", "listbox"]);

const quote = (s: string) => `"${s}"`;

/** targetPhrase reads a step's first locator: 'the button "Sign in"', 'test id "x"', 'css #x'. */
export function targetPhrase(target: unknown, field = false): string {
  const t = readTarget(target);
  const loc = t?.locators[0];
  if (!loc) return "an element";
  const kind = str(loc.kind);
  const value = str(loc.value);
  const name = str(loc.name);
  switch (kind) {
    case "role": {
      if (field && name && FIELD_ROLES.has(value)) return quote(name);
      const noun = ROLE_NOUNS[value] ?? (value || "element");
      return name ? `the ${noun} ${quote(name)}` : `the ${noun}`;
    }
    case "label":
      return field ? quote(value) : `the field ${quote(value)}`;
    case "placeholder":
      return `the field with placeholder ${quote(value)}`;
    case "testId":
      return `test id ${quote(value)}`;
    case "text":
      return `the text ${quote(value)}`;
    case "alt":
      return `the image ${quote(value)}`;
    case "title":
      return `the element titled ${quote(value)}`;
    case "css":
    case "xpath":
      return `${kind} ${value}`;
    default:
      return `${kind || "element"} ${value}`.trim();
  }
}

/** valuePhrase quotes a literal value; a lone ${variable} stays as it is. */
export function valuePhrase(v: unknown): string {
  const s = str(v);
  return /^\$\{[^}]+\}$/.test(s) ? s : quote(s);
}

const MATCH_WORDS: Record<string, string> = { contains: "contains", equals: "is", regex: "matches" };
const NOT_MATCH_WORDS: Record<string, string> = { contains: "does not contain", equals: "is not", regex: "does not match" };

/** matchPhrase reads expected and match: 'contains "x"', or with not: true 'does not contain "x"'. */
function matchPhrase(step: JsonObject, key = "expected"): string {
  const m = str(step.match) || "contains";
  const words = step.not === true ? NOT_MATCH_WORDS : MATCH_WORDS;
  return `${words[m] ?? m} ${valuePhrase(step[key])}`;
}

/** soft marks an assertion whose failure lets the run go on. */
const soft = (step: JsonObject, line: string) => (step.soft === true ? `${line} (soft)` : line);

const BUTTON_WORDS: Record<string, string> = { right: "Right-click", middle: "Middle-click" };

/** clickPhrase reads a click's button, modifiers and position: 'Shift+Right-click X at 5, 10'. */
function clickPhrase(step: JsonObject, what: string): string {
  const button = str(step.button);
  let verb = BUTTON_WORDS[button] ?? "Click";
  if (str(step.type) === "dblclick") verb = button in BUTTON_WORDS ? `${verb.replace("-click", "")} double-click` : "Double-click";
  const mods = Array.isArray(step.modifiers) ? step.modifiers.map(String) : [];
  const head = mods.length > 0 ? `${mods.join("+")}+${verb.charAt(0).toLowerCase()}${verb.slice(1)}` : verb;
  return `${head} ${what}${positionPhrase(step.position)}`;
}

/** positionPhrase reads an {x, y} offset: " at 5, 10"; "" without one. */
function positionPhrase(p: unknown): string {
  if (!p || typeof p !== "object") return "";
  const { x, y } = p as { x?: unknown; y?: unknown };
  return typeof x === "number" && typeof y === "number" ? ` at ${x}, ${y}` : "";
}

/** fileList names an upload's files, by their names when known, else by id. */
function fileList(files: unknown, names?: Record<string, string>): string {
  const ids = Array.isArray(files) ? files.map(String) : [];
  if (ids.length === 0) return "no file";
  return ids.map((id) => names?.[id] ?? id).join(", ");
}

/** The words of a state: waitFor's readonly reads "read-only". */
const stateWord = (s: string) => (s === "readonly" ? "read-only" : s);

const FROM_PHRASES: Record<string, (what: string, step: JsonObject) => string> = {
  text: (w) => `the text of ${w}`,
  value: (w) => `the value of ${w}`,
  attribute: (w, step) => `the attribute ${str(step.attribute) || "?"} of ${w}`,
  count: (w) => `the number of ${w}`,
  title: () => "the page title",
  url: () => "the page URL",
  selectedLabel: (w) => `the selected label of ${w}`,
};

function switchTabPhrase(step: JsonObject): string {
  switch (str(step.to)) {
    case "new":
      return "Switch to the new tab";
    case "opener":
      return "Switch back to the tab that opened this one";
    case "index":
      return `Switch to the tab at index ${typeof step.index === "number" ? step.index : "?"}`;
    case "match": {
      const m = str(step.match) || "contains";
      const parts = [];
      if (str(step.url)) parts.push(`URL ${MATCH_WORDS[m] ?? m} ${quote(str(step.url))}`);
      if (str(step.title)) parts.push(`title ${MATCH_WORDS[m] ?? m} ${quote(str(step.title))}`);
      return parts.length > 0 ? `Switch to the tab whose ${parts.join(" and ")}` : "Switch to a matching tab";
    }
    default:
      return "Switch tab";
  }
}

function dialogPhrase(step: JsonObject): string {
  const verb = str(step.action) === "dismiss" ? "Dismiss" : "Accept";
  const m = str(step.match) || "contains";
  const expected = str(step.expected);
  const which =
    expected === ""
      ? "the next dialog"
      : m === "equals"
        ? `the dialog ${quote(expected)}`
        : `the dialog that ${MATCH_WORDS[m] ?? m} ${quote(expected)}`;
  const answer = verb === "Accept" && typeof step.text === "string" ? `, answering ${valuePhrase(step.text)}` : "";
  return `${verb} ${which}${answer}`;
}

const MOUSE_WORDS: Record<string, string> = { down: "Press the mouse button", up: "Release the mouse button", move: "Move the mouse" };

function mousePhrase(step: JsonObject, what: string | null): string {
  const action = str(step.action);
  const head = MOUSE_WORDS[action] ?? "Use the mouse";
  const where = positionPhrase(step.position);
  if (what) return `${head} ${action === "move" ? "to" : "on"} ${what}${where}`;
  return where ? `${head}${where.replace(" at", " at page point")}` : head;
}

function requestPhrase(step: JsonObject): string {
  const method = str(step.method) || "GET";
  const status = typeof step.expectStatus === "number" ? `, expecting ${step.expectStatus}` : "";
  const into = str(step.assign) ? ` into ${str(step.assign)}` : "";
  return `Send ${method} ${str(step.url) || "(no URL)"}${status}${into}`;
}

/**
 * describeStep says in one line what a step does, from its type and
 * parameters. A type without a sentence of its own (or one the registry
 * does not know) reads as its type and a summary of its parameters.
 * componentNames, by id, names the components that calls run.
 */
export function describeStep(
  step: JsonObject,
  registry?: Registry,
  componentNames?: Record<string, string>,
  fileNames?: Record<string, string>,
): string {
  const type = str(step.type);
  const t = () => targetPhrase(step.target);
  const has = (k: string) => readTarget(step[k])?.locators.length;
  const block = describeBlock(step);
  if (block !== null) return block;
  switch (type) {
    case "navigate":
      return `Open ${str(step.url) || "a page"}`;
    case "click":
    case "dblclick":
      return clickPhrase(step, t());
    case "hover":
      return `Hover over ${t()}`;
    case "fill":
      return str(step.value) === ""
        ? `Clear ${targetPhrase(step.target, true)}`
        : `Fill ${targetPhrase(step.target, true)} with ${valuePhrase(step.value)}`;
    case "press":
      return `Press ${str(step.key) || "a key"}${has("target") ? ` in ${targetPhrase(step.target, true)}` : ""}`;
    case "select":
      return `Select ${valuePhrase(step.value)} in ${targetPhrase(step.target, true)}`;
    case "check":
      return `Check ${t()}`;
    case "uncheck":
      return `Uncheck ${t()}`;
    case "assertVisible":
      return soft(step, `Check that ${t()} is visible`);
    case "assertHidden":
      return soft(step, `Check that ${t()} is hidden`);
    case "assertText":
      return soft(step, `Check the text of ${t()} ${matchPhrase(step)}`);
    case "assertValue":
      return soft(step, `Check the value of ${t()} ${matchPhrase(step)}`);
    case "assertUrl":
      return soft(step, `Check the URL ${matchPhrase(step)}`);
    case "assertTitle":
      return soft(step, `Check the page title ${matchPhrase(step)}`);
    case "assertChecked":
      return soft(step, `Check that ${t()} is ${step.checked === false ? "not checked" : "checked"}`);
    case "assertEnabled":
      return soft(step, `Check that ${t()} is ${step.enabled === false ? "disabled" : "enabled"}`);
    case "assertEditable":
      return soft(step, `Check that ${t()} is ${step.editable === false ? "read-only" : "editable"}`);
    case "assertAttribute":
      return soft(step, `Check the attribute ${str(step.name) || "?"} of ${t()} ${matchPhrase(step)}`);
    case "assertCount": {
      const n = typeof step.expected === "number" ? step.expected : "?";
      return soft(step, `Check that ${n} ${n === 1 ? "element matches" : "elements match"} ${t()}`);
    }
    case "assertSelected":
      return soft(
        step,
        `Check that ${targetPhrase(step.target, true)} has the ${str(step.by) === "value" ? "value" : "option"} ${valuePhrase(step.expected)} selected`,
      );
    case "assertVariable":
      return soft(step, `Check that ${str(step.name) || "a variable"} ${matchPhrase(step)}`);
    case "dialog":
      return dialogPhrase(step);
    case "switchTab":
      return switchTabPhrase(step);
    case "closeTab":
      return "Close the tab and go back to the one that opened it";
    case "upload":
      return `Upload ${fileList(step.files, fileNames)} to ${targetPhrase(step.target, true)}`;
    case "dragTo":
      return `Drag ${t()} to ${has("to") ? targetPhrase(step.to) : "a drop target"}`;
    case "mouse":
      return mousePhrase(step, has("target") ? t() : null);
    case "goBack":
      return "Go back";
    case "goForward":
      return "Go forward";
    case "reload":
      return "Reload the page";
    case "setViewport":
      return `Set the viewport to ${typeof step.width === "number" ? step.width : "?"}×${typeof step.height === "number" ? step.height : "?"}`;
    case "log":
      return `Log ${quote(str(step.message))}`;
    case "request":
      return requestPhrase(step);
    case "wait":
      return `Wait ${typeof step.ms === "number" ? step.ms : "?"} ms`;
    case "waitFor":
      return `Wait until ${t()} is ${stateWord(str(step.state) || "visible")}`;
    case "screenshot": {
      const name = str(step.name);
      const of = has("target") ? ` of ${t()}` : step.fullPage === true ? " of the full page" : "";
      return `Take a screenshot${name ? ` ${quote(name)}` : ""}${of}`;
    }
    case "setVariable": {
      const name = str(step.name) || "a variable";
      const from = FROM_PHRASES[str(step.from)] ?? (has("target") ? FROM_PHRASES.text : undefined);
      return from ? `Set ${name} to ${from(t(), step)}` : `Set ${name} to ${valuePhrase(step.value)}`;
    }
    case "script": {
      const first = str(step.code).split("\n")[0].trim();
      const into = str(step.assign) ? ` into ${str(step.assign)}` : "";
      return `Run a script${into}${first ? `: ${first}` : ""}`;
    }
    case "callComponent": {
      const v = typeof step.version === "number" ? ` v${step.version}` : "";
      const id = str(step.component);
      return `Run component ${componentNames?.[id] ?? (id || "(none)")}${v}`;
    }
  }
  // Without the registry (the run page before it loads) a type is taken as known.
  const known = registry ? registry.stepTypes.find((s) => s.type === type) : !!type;
  const rest = summarize(step);
  const head = known ? humanize(type) : type ? `Unknown step ${quote(type)}` : "Step without a type";
  return rest ? `${head}: ${rest}` : head;
}

/** humanize turns a camelCase name into words: timeoutMs → "Timeout ms". */
export function humanize(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const LABELS: Record<string, string> = {
  url: "URL",
  target: "Element",
  value: "Value",
  key: "Key",
  expected: "Expected",
  match: "Match",
  ms: "Wait (ms)",
  state: "State",
  name: "Name",
  fullPage: "Full page",
  code: "Code",
  assign: "Save result as",
  component: "Component",
  version: "Component version",
  inputs: "Inputs",
  description: "Description",
  timeoutMs: "Timeout (ms)",
  text: "Answer (prompt)",
  to: "To",
  index: "Tab index",
  files: "Files",
  modifiers: "Modifier keys",
  position: "Position (x, y)",
  message: "Message",
  expectStatus: "Expected status",
  not: "Negate (not)",
  soft: "Soft (record and go on)",
  from: "From",
  by: "Compare by",
  condition: "Condition",
  while: "While",
  times: "Times",
  max: "At most (iterations)",
  items: "Items",
  as: "Item variable",
  kind: "Kind",
};

/** paramLabel is the inspector's label of a parameter. */
export function paramLabel(name: string): string {
  return LABELS[name] ?? humanize(name);
}

const PLACEHOLDERS: Record<string, string> = {
  message: "e.g. Order ${orderId} placed",
  attribute: "e.g. href",
  title: "e.g. Checkout",
  body: 'e.g. {"name": "${user}"}',
  text: "e.g. yes",
  url: "e.g. ${baseUrl}/login",
  value: "e.g. ${user}",
  key: "e.g. Enter",
  expected: "e.g. Welcome",
  assign: "e.g. result",
  component: "e.g. cmp_…",
  description: "e.g. Sign in as the test user",
};

/** paramPlaceholder is an example, never something that reads as a value. */
export function paramPlaceholder(p: RegistryParam, stepType: string): string | undefined {
  if (p.type === "number") return p.default !== undefined ? `default ${p.default}` : undefined;
  if (p.name === "name") {
    if (stepType === "assertAttribute") return "e.g. aria-expanded";
    if (stepType === "assertVariable") return "e.g. resp.body.id";
    return stepType === "screenshot" ? "e.g. home" : "e.g. token";
  }
  return PLACEHOLDERS[p.name];
}

/** locatorPlaceholder is the example shown in a locator's value box. */
export function locatorPlaceholder(kind: string): string {
  switch (kind) {
    case "role":
      return "e.g. button";
    case "css":
      return "e.g. #email";
    case "xpath":
      return "e.g. //button[1]";
    case "testId":
      return "e.g. submit";
    case "label":
      return "e.g. Email";
    case "placeholder":
      return "e.g. you@example.com";
    default:
      return "e.g. Sign in";
  }
}
