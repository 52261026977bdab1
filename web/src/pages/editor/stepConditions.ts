// Parameters that go only with another's choice (switchTab's index with
// to: index; setVariable's attribute with from: attribute...). The form
// shows them with that choice, and a new step leaves out the defaults of
// those that do not apply yet, which the hub would refuse.
import type { JsonObject } from "../../api/editorApi";

/** CONDITIONS: by step type and parameter, when the parameter applies. */
const CONDITIONS: Record<string, Record<string, (step: JsonObject) => boolean>> = {
  switchTab: {
    index: (s) => s.to === "index",
    url: (s) => s.to === "match",
    title: (s) => s.to === "match",
    match: (s) => s.to === "match",
  },
  setVariable: {
    value: (s) => s.from === undefined && s.target === undefined,
    target: (s) => s.from !== "title" && s.from !== "url",
    attribute: (s) => s.from === "attribute",
  },
  dialog: { text: (s) => s.action !== "dismiss" },
  // A block's condition (BlockFields.tsx): its members by kind (docs/flow.md).
  condition: {
    target: (s) => ["visible", "hidden", "exists", "text", "value"].includes(String(s.kind)),
    expected: (s) => ["text", "value", "variable"].includes(String(s.kind)),
    match: (s) => ["text", "value", "variable"].includes(String(s.kind)),
    name: (s) => s.kind === "variable",
    code: (s) => s.kind === "script",
  },
};

/** applies says whether a parameter goes with the step's other choices. */
export function applies(stepType: string, param: string, step: JsonObject): boolean {
  const when = CONDITIONS[stepType]?.[param];
  return !when || when(step);
}

/**
 * prune drops from next the parameters that the edit from prev to next
 * turned off (switchTab's index when to leaves index); ones that were off
 * already stay, shown, so they can be cleared by hand.
 */
export function prune(stepType: string, prev: JsonObject, next: JsonObject): JsonObject {
  const params = CONDITIONS[stepType];
  if (!params) return next;
  const out = { ...next };
  for (const [name, when] of Object.entries(params)) {
    if (name in out && when(prev) && !when(out)) delete out[name];
  }
  return out;
}
