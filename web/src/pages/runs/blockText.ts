// A block's readable line on the run page: 'If the button "Accept cookies"
// is visible', "Repeat 5 times", "For each row in ${rows}". The editor's
// describeStep (editor/stepText.ts) says the other steps; the run page asks
// this first for blocks, so it reads well whether or not the editor says
// blocks too.
import type { Step } from "../../api";
import { targetPhrase, valuePhrase } from "../editor/stepText";

type Condition = NonNullable<Step["condition"]>;

const MATCH: Record<string, string> = { contains: "contains", equals: "is", regex: "matches" };

/** conditionPhrase says a condition: 'the button "OK" is visible', "${count} > 3". */
export function conditionPhrase(c: Condition | undefined): string {
  if (!c) return "(no condition)";
  const t = () => targetPhrase(c.target);
  const match = () => `${MATCH[c.match ?? "contains"] ?? c.match} ${valuePhrase(c.expected ?? "")}`;
  switch (c.kind) {
    case "visible":
      return `${t()} is visible`;
    case "hidden":
      return `${t()} is hidden`;
    case "exists":
      return `${t()} exists`;
    case "text":
      return `the text of ${t()} ${match()}`;
    case "value":
      return `the value of ${t()} ${match()}`;
    case "variable":
      return c.expected === undefined ? `${c.name ?? "a variable"} is set` : `${c.name ?? "a variable"} ${match()}`;
    case "script":
      return c.code ?? "";
    default:
      return c.kind;
  }
}

function itemsPhrase(items: unknown): string {
  if (typeof items === "string") return items;
  if (Array.isArray(items)) return items.map((v) => valuePhrase(v)).join(", ");
  return "a list";
}

/** blockText says an if, repeat or forEach in one line; "" for any other step. */
export function blockText(step: Step): string {
  switch (step.type) {
    case "if":
      return `If ${conditionPhrase(step.condition)}`;
    case "repeat": {
      const times = typeof step.times === "number" ? step.times : null;
      const n = (k: number) => `${k} time${k === 1 ? "" : "s"}`;
      if (step.while && times !== null) return `Repeat at most ${n(times)} while ${conditionPhrase(step.while)}`;
      if (step.while) return `Repeat while ${conditionPhrase(step.while)}`;
      return `Repeat ${times === null ? "?" : n(times)}`;
    }
    case "forEach":
      return `For each ${step.as || "item"} in ${itemsPhrase(step.items)}`;
    default:
      return "";
  }
}
