// How the editor speaks about steps: describeStep reads a step as one
// sentence ('Click the button "Sign in"'), and the inspector's labels and
// example placeholders for each parameter. Pure, so it is table-tested.
import type { Registry, RegistryParam } from "../../api";
import type { JsonObject } from "../../api/editorApi";
import { readTarget, str, summarize } from "./documentModel";

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

function matchPhrase(step: JsonObject): string {
  const m = str(step.match) || "contains";
  return `${MATCH_WORDS[m] ?? m} ${valuePhrase(step.expected)}`;
}

/**
 * describeStep says in one line what a step does, from its type and
 * parameters. A type without a sentence of its own (or one the registry
 * does not know) reads as its type and a summary of its parameters.
 * componentNames, by id, names the components that calls run.
 */
export function describeStep(step: JsonObject, registry: Registry, componentNames?: Record<string, string>): string {
  const type = str(step.type);
  const t = () => targetPhrase(step.target);
  const has = (k: string) => readTarget(step[k])?.locators.length;
  switch (type) {
    case "navigate":
      return `Open ${str(step.url) || "a page"}`;
    case "click":
      return `Click ${t()}`;
    case "dblclick":
      return `Double-click ${t()}`;
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
      return `Check that ${t()} is visible`;
    case "assertHidden":
      return `Check that ${t()} is hidden`;
    case "assertText":
      return `Check the text of ${t()} ${matchPhrase(step)}`;
    case "assertValue":
      return `Check the value of ${t()} ${matchPhrase(step)}`;
    case "assertUrl":
      return `Check the URL ${matchPhrase(step)}`;
    case "assertTitle":
      return `Check the page title ${matchPhrase(step)}`;
    case "wait":
      return `Wait ${typeof step.ms === "number" ? step.ms : "?"} ms`;
    case "waitFor":
      return `Wait until ${t()} is ${str(step.state) || "visible"}`;
    case "screenshot": {
      const name = str(step.name);
      const of = has("target") ? ` of ${t()}` : step.fullPage === true ? " of the full page" : "";
      return `Take a screenshot${name ? ` ${quote(name)}` : ""}${of}`;
    }
    case "setVariable":
      return has("target")
        ? `Set ${str(step.name) || "a variable"} to the text of ${t()}`
        : `Set ${str(step.name) || "a variable"} to ${valuePhrase(step.value)}`;
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
  const known = registry.stepTypes.find((s) => s.type === type);
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
};

/** paramLabel is the inspector's label of a parameter. */
export function paramLabel(name: string): string {
  return LABELS[name] ?? humanize(name);
}

const PLACEHOLDERS: Record<string, string> = {
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
  if (p.name === "name") return stepType === "screenshot" ? "e.g. home" : "e.g. token";
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
