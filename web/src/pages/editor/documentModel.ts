// Pure operations on the document the editor holds: reading members with
// type checks, new steps from the registry, reordering, summaries, the JSON
// view's parsing, and placing validation issues beside what they name.
import { applies } from "./stepConditions";
import { allIds, walkTree } from "./stepTree";
import type { Issue, RegistryParam, StepType } from "../../api";
import type { EditorDocument, JsonObject } from "../../api/editorApi";

export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** str reads a member that should be a string; anything else reads as "". */
export function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** stringMap reads a map of strings; other members are left out. */
export function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(v)) return out;
  for (const [k, val] of Object.entries(v)) if (typeof val === "string") out[k] = val;
  return out;
}

/** withField returns a copy of obj with name set to value, or without it when value is undefined. */
export function withField<T extends JsonObject>(obj: T, name: string, value: unknown): T {
  const out: Record<string, unknown> = { ...obj };
  if (value === undefined) delete out[name];
  else out[name] = value;
  return out as T;
}

/** canonical is JSON with sorted keys, so two documents compare by content. */
export function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, val: unknown) => {
    if (!isObject(val)) return val;
    const sorted: JsonObject = {};
    for (const k of Object.keys(val).sort()) sorted[k] = val[k];
    return sorted;
  });
}

export function sameDocument(a: EditorDocument, b: EditorDocument): boolean {
  return canonical(a) === canonical(b);
}

/** The common parameters every step type lists; a new step leaves them unset. */
const COMMON_PARAMS = new Set(["description", "timeoutMs"]);

/** defaultLocatorKind is what a new locator row starts with: css when offered. */
export function defaultLocatorKind(kinds: string[]): string {
  return kinds.includes("css") ? "css" : (kinds[0] ?? "css");
}

export function newLocator(kinds: string[]): JsonObject {
  return { kind: defaultLocatorKind(kinds), value: "" };
}

/** freshStepId picks s<n> for the first n from the step count up that no step uses, inside blocks too. */
export function freshStepId(steps: JsonObject[]): string {
  const used = allIds(steps);
  let n = walkTree(steps).length + 1;
  while (used.has(`s${n}`)) n++;
  return `s${n}`;
}

/** initialValue is what a new step holds for a parameter: its default, or an empty required value. */
function initialValue(p: RegistryParam, kinds: string[]): unknown {
  if (COMMON_PARAMS.has(p.name)) return undefined;
  if (p.default !== undefined && p.default !== false) return p.default;
  if (!p.required) return undefined;
  switch (p.type) {
    case "string":
      return "";
    case "enum":
      return p.values?.[0];
    case "target":
      return { locators: [newLocator(kinds)] };
    case "condition":
      return { kind: "visible", target: { locators: [newLocator(kinds)] } };
    case "items":
      return "";
    default:
      return undefined;
  }
}

/** newStep builds a step of the given type with a fresh id and the registry's defaults. */
export function newStep(type: StepType, steps: JsonObject[], kinds: string[]): JsonObject {
  let step: JsonObject = { id: freshStepId(steps), type: type.type };
  for (const p of type.params) step = withField(step, p.name, initialValue(p, kinds));
  // A default that goes only with another choice waits for that choice.
  for (const p of type.params) if (!applies(type.type, p.name, step)) step = withField(step, p.name, undefined);
  // A repeat needs times or while: it starts as twice, to change.
  if (type.type === "repeat" && step.times === undefined && step.while === undefined) step = withField(step, "times", 2);
  return step;
}

/** changeStepType keeps the id and the members the new type also takes, and fills in its defaults. */
export function changeStepType(step: JsonObject, to: StepType, kinds: string[]): JsonObject {
  let out: JsonObject = { id: step.id, type: to.type };
  for (const p of to.params) out = withField(out, p.name, p.name in step ? step[p.name] : initialValue(p, kinds));
  for (const p of to.params) if (!(p.name in step) && !applies(to.type, p.name, out)) out = withField(out, p.name, undefined);
  return out;
}

/** moveItem returns a copy of list with the item at from moved to to. */
export function moveItem<T>(list: T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return list;
  const out = list.slice();
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
}

/** duplicateStep inserts a copy of steps[i] right after it, with a fresh id. */
export function duplicateStep(steps: JsonObject[], i: number): JsonObject[] {
  const copy: JsonObject = { ...structuredClone(steps[i]), id: freshStepId(steps) };
  return [...steps.slice(0, i + 1), copy, ...steps.slice(i + 1)];
}

/** A target as the form edits it: ranked locators, frames, and what else it carries. */
export interface TargetValue {
  locators: JsonObject[];
  frame: JsonObject[];
  rest: JsonObject;
}

export function readTarget(v: unknown): TargetValue | null {
  if (!isObject(v)) return null;
  const { locators, frame, ...rest } = v;
  const objects = (l: unknown) => (Array.isArray(l) ? l.filter(isObject) : []);
  return { locators: objects(locators), frame: objects(frame), rest };
}

export function writeTarget(t: TargetValue): JsonObject {
  return t.frame.length > 0 ? { ...t.rest, locators: t.locators, frame: t.frame } : { ...t.rest, locators: t.locators };
}

/** locatorText is a short reading of a locator: role=button "Sign in", css=#email. */
export function locatorText(loc: JsonObject): string {
  const name = str(loc.name);
  return `${str(loc.kind)}=${str(loc.value)}${name ? ` "${name}"` : ""}`;
}

const SUMMARY_FIELDS = ["url", "key", "value", "expected", "ms", "state", "name", "code", "component"];

/** summarize says in one line what a step does, for its collapsed card. */
export function summarize(step: JsonObject): string {
  const parts: string[] = [];
  const target = readTarget(step.target);
  if (target && target.locators.length > 0) parts.push(locatorText(target.locators[0]));
  for (const f of SUMMARY_FIELDS) {
    const v = step[f];
    if (typeof v === "string" && v !== "") parts.push(f === "value" || f === "expected" ? `"${v}"` : v.split("\n")[0]);
    else if (typeof v === "number") parts.push(f === "ms" ? `${v} ms` : `${f} ${v}`);
  }
  const text = parts.join(" · ");
  return text.length > 140 ? `${text.slice(0, 139)}…` : text;
}

export function formatDocument(doc: EditorDocument): string {
  return JSON.stringify(doc, null, 2);
}

/** parseDocumentJson reads the JSON view's text: a JSON object whose steps are objects. */
export function parseDocumentJson(text: string): { document: EditorDocument } | { error: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { error: `Not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!isObject(v)) return { error: "The document must be a JSON object: { … }." };
  const steps = v.steps ?? [];
  if (!Array.isArray(steps)) return { error: "steps must be a list: [ … ]." };
  const bad = steps.findIndex((s) => !isObject(s));
  if (bad >= 0) return { error: `steps[${bad}] must be an object: { … }.` };
  return { document: { ...v, steps: steps.filter(isObject) } };
}

/** An issue placed on a field, with the rest of its path below that field (".locators[0].value"). */
export interface FieldIssue extends Issue {
  sub: string;
}

/** Issues grouped by where the page shows them. */
export interface PlacedIssues {
  /** Issues that name nothing shown on the page: the document, its dsl, the step list. */
  top: Issue[];
  /** Settings fields by name: name, suite, tags, description, variables. */
  fields: Record<string, FieldIssue[]>;
  /** Per step (by its key from stepKeys), by field; "" holds issues on the step itself. */
  steps: Record<string, Record<string, FieldIssue[]>>;
}

/**
 * stepKeys names each step of the tree, in pre-order, for React and for
 * its issues: its id while ids are unique through the tree, else its
 * place. Issues keyed so stay on their step when steps move.
 */
export function stepKeys(steps: JsonObject[]): string[] {
  return walkTree(steps).map((t) => t.key);
}

/** stepKeyMap maps each step's issue path (steps[3].else[0]) to its key. */
export function stepKeyMap(steps: JsonObject[]): Map<string, string> {
  return new Map(walkTree(steps).map((t) => [t.path, t.key]));
}

const SETTINGS_FIELDS = new Set(["name", "suite", "tags", "description", "variables", "data"]);
// The longest run of step indexes: steps[3].steps[0].else[1], then the rest.
const STEP_PATH = /^(steps\[\d+\](?:\.(?:steps|else)\[\d+\])*)(.*)$/;
const FIELD_PATH = /^\.?([A-Za-z_$][\w$]*)(.*)$/;

function push<T>(map: Record<string, T[]>, key: string, item: T) {
  (map[key] ??= []).push(item);
}

/**
 * placeIssues parses each issue path: steps[i] (or a step inside blocks,
 * steps[i].steps[j].else[k]) to that step, steps[i].f to its field f,
 * settings fields to theirs, the rest to the top. keys are the stepKeyMap
 * of the document the issues were found in.
 */
export function placeIssues(issues: Issue[], keys: Map<string, string>): PlacedIssues {
  const out: PlacedIssues = { top: [], fields: {}, steps: {} };
  for (const issue of issues) {
    const step = STEP_PATH.exec(issue.path);
    const key = step ? keys.get(step[1]) : undefined;
    if (step && key) {
      const byField = (out.steps[key] ??= {});
      const field = FIELD_PATH.exec(step[2]);
      if (field && step[2].startsWith(".")) push(byField, field[1], { ...issue, sub: field[2] });
      else push(byField, "", { ...issue, sub: step[2] });
      continue;
    }
    const field = FIELD_PATH.exec(issue.path);
    if (field && SETTINGS_FIELDS.has(field[1])) push(out.fields, field[1], { ...issue, sub: field[2] });
    else out.top.push(issue);
  }
  return out;
}

export function issueCount(byField: Record<string, FieldIssue[]> | undefined): number {
  return byField ? Object.values(byField).reduce((n, l) => n + l.length, 0) : 0;
}
