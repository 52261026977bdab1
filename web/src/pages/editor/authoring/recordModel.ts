// Pure operations behind the Record, Pick and Try panels: the live list of
// captured steps (a seq seen again replaces its step, removed withdraws
// it), putting a finished recording into the test at the cursor with fresh
// ids, the page a picker or a tried script opens, and a picked element's
// candidates turned into a step's target.
import type { JsonObject } from "../../../api/editorApi";
import type { PickedTarget, StepEvent } from "../../../api/authoringApi";
import { freshStepId, isObject, str } from "../documentModel";

/** A captured step of a running recording, by the seq the agent gave it. */
export interface LiveStep {
  seq: number;
  step: JsonObject;
}

/** applyStepEvent returns live with ev applied: a known seq is replaced in place or withdrawn, a new one appended. */
export function applyStepEvent(live: LiveStep[], ev: StepEvent): LiveStep[] {
  const at = live.findIndex((l) => l.seq === ev.seq);
  if (ev.removed) return at < 0 ? live : live.filter((_, i) => i !== at);
  if (!isObject(ev.step)) return live;
  const entry = { seq: ev.seq, step: ev.step as unknown as JsonObject };
  if (at < 0) return [...live, entry];
  return live.map((l, i) => (i === at ? entry : l));
}

/** sameUrl compares two addresses as a tester would: spaces and a trailing slash do not count. */
function sameUrl(a: string, b: string): boolean {
  const norm = (u: string) => u.trim().replace(/\/+$/, "");
  return norm(a) === norm(b);
}

/**
 * insertRecorded puts recorded steps into steps after index `after` (-1:
 * at the start; null: at the end), each with a fresh id no step uses. The
 * recording starts with a navigate to its start URL; it is kept only when
 * the test would not already be there: the test has no navigate before the
 * insertion point, or the last one goes elsewhere. Answers the new steps and
 * the ids of the inserted ones.
 */
export function insertRecorded(
  steps: JsonObject[],
  recorded: JsonObject[],
  after: number | null,
  /** The whole test when steps is a block's list: new ids are unique through it. */
  all: JsonObject[] = steps,
): { steps: JsonObject[]; ids: string[] } {
  const at = after === null ? steps.length : Math.min(after + 1, steps.length);
  let incoming = recorded;
  const first = recorded[0];
  if (first && str(first.type) === "navigate") {
    const lastNav = steps
      .slice(0, at)
      .filter((s) => str(s.type) === "navigate")
      .pop();
    if (lastNav && sameUrl(str(lastNav.url), str(first.url))) incoming = recorded.slice(1);
  }
  const placed: JsonObject[] = [];
  const ids: string[] = [];
  for (const step of incoming) {
    const id = freshStepId([...all, ...placed]);
    placed.push({ ...structuredClone(step), id });
    ids.push(id);
  }
  return { steps: [...steps.slice(0, at), ...placed, ...steps.slice(at)], ids };
}

/** firstNavigateUrl is the url of the test's first navigate step, or "". */
export function firstNavigateUrl(steps: JsonObject[]): string {
  return str(steps.find((s) => str(s.type) === "navigate")?.url);
}

/** locatorOnly keeps what a step's locator carries: kind, value, and name and exact when set. */
function locatorOnly(l: { kind: string; value: string; name?: string; exact?: boolean }): JsonObject {
  const out: JsonObject = { kind: l.kind, value: l.value };
  if (l.name) out.name = l.name;
  if (l.exact !== undefined) out.exact = l.exact;
  return out;
}

/**
 * pickedTarget makes a step's target from a picked element: the chosen
 * candidate first, then the other candidates that match exactly one
 * element, best first, as fallbacks, with the element's frames and
 * fingerprint so a run can heal when every locator fails.
 */
export function pickedTarget(picked: PickedTarget, chosen: number): JsonObject {
  const all = picked.locators;
  const first = all[chosen];
  const fallbacks = all.filter((l, i) => i !== chosen && l.matches === 1);
  const locators = (first ? [first, ...fallbacks] : fallbacks).map(locatorOnly);
  const target: JsonObject = { locators };
  if (picked.frame && picked.frame.length > 0) target.frame = picked.frame.map(locatorOnly);
  if (picked.fingerprint && Object.keys(picked.fingerprint).length > 0) target.fingerprint = { ...picked.fingerprint };
  return target;
}
