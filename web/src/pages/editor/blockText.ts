// How the editor reads a block step as one line: 'If the button "Accept
// cookies" is visible', "Repeat 5 times", "Repeat while ${count} < 3 (at
// most 1000)", "For each row in ${rows}". Pure, table-tested in
// stepText.test.ts.
import type { JsonObject } from "../../api/editorApi";
import { isObject, str } from "./documentModel";
import { targetPhrase, valuePhrase } from "./stepText";

/** The kinds of condition (docs/flow.md), with what each one tests, for the inspector. */
export const CONDITION_KINDS: Record<string, string> = {
  visible: "an element is visible",
  hidden: "an element is hidden or gone",
  exists: "an element is in the page",
  text: "an element's text",
  value: "a field's value",
  variable: "a variable",
  script: "a JavaScript expression",
};

/** The condition kinds about an element: they have a target. */
export const ELEMENT_KINDS = new Set(["visible", "hidden", "exists", "text", "value"]);

const MATCH_WORDS: Record<string, string> = { contains: "contains", equals: "is", regex: "matches" };

/** The default most iterations of a loop (protocol.DefaultMax). */
export const DEFAULT_MAX = 1000;

function compare(c: JsonObject): string {
  const m = str(c.match) || "contains";
  return `${MATCH_WORDS[m] ?? m} ${valuePhrase(c.expected)}`;
}

/** conditionPhrase reads a condition: 'the button "OK" is visible', "${count} < 3". */
export function conditionPhrase(c: unknown): string {
  if (!isObject(c)) return "(no condition)";
  const t = () => targetPhrase(c.target);
  switch (str(c.kind)) {
    case "visible":
      return `${t()} is visible`;
    case "hidden":
      return `${t()} is hidden`;
    case "exists":
      return `${t()} exists`;
    case "text":
      return `the text of ${t()} ${compare(c)}`;
    case "value":
      return `the value of ${t()} ${compare(c)}`;
    case "variable": {
      const name = str(c.name) || "a variable";
      return typeof c.expected === "string" ? `${name} ${compare(c)}` : `${name} is set`;
    }
    case "script":
      return str(c.code).split("\n")[0].trim() || "(no code)";
    default:
      return str(c.kind) ? `an unknown condition "${str(c.kind)}"` : "(no condition)";
  }
}

function itemsPhrase(items: unknown): string {
  if (typeof items === "string") return items || "(no list)";
  if (Array.isArray(items)) return items.length === 0 ? "an empty list" : items.map((i) => valuePhrase(i)).join(", ");
  return "(no list)";
}

/** describeBlock reads an if, repeat or forEach; null for other steps. */
export function describeBlock(step: JsonObject): string | null {
  switch (str(step.type)) {
    case "if":
      return `If ${conditionPhrase(step.condition)}`;
    case "repeat": {
      const times = typeof step.times === "number" ? step.times : null;
      const max = typeof step.max === "number" ? step.max : DEFAULT_MAX;
      const count = times === 1 ? "once" : `${times} times`;
      if (step.while !== undefined) return `Repeat while ${conditionPhrase(step.while)} (at most ${times !== null ? count : max})`;
      return times !== null ? `Repeat ${count}` : "Repeat (set times or while)";
    }
    case "forEach":
      return `For each ${str(step.as) || "item"} in ${itemsPhrase(step.items)}`;
  }
  return null;
}
