// Steps a run expanded from a component call carry `call`, the id of the
// test's callComponent step they came from (the hub expands calls before
// dispatch). The run page shows such steps nested under their call.
import type { Step } from "../../api";

export interface CallGroup<T> {
  /** The calling step's id, or null for the test's own steps. */
  call: string | null;
  items: T[];
}

/**
 * groupByCall puts consecutive items of the same call together; callOf
 * gives an item's call ("" or undefined for none). Order is kept.
 */
export function groupByCall<T>(items: T[], callOf: (item: T) => string | undefined): CallGroup<T>[] {
  const out: CallGroup<T>[] = [];
  for (const item of items) {
    const call = callOf(item) || null;
    const last = out[out.length - 1];
    if (last && call !== null && last.call === call) last.items.push(item);
    else out.push({ call, items: [item] });
  }
  return out;
}

/** callStepText says which call a group came from: "Step s2 calls component cmp_… v1". */
export function callStepText(call: string, testSteps: Step[]): string {
  const s = testSteps.find((x) => x.id === call);
  if (!s || s.type !== "callComponent") return `Steps of component call ${call}`;
  return `Step ${call} calls component ${s.component ?? ""}${s.version ? ` v${s.version}` : ""}`;
}
