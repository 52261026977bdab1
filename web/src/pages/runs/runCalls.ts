// Steps a run expanded from a component call carry `call`, the id of the
// test's callComponent step they came from (the hub expands calls before
// dispatch). The run page shows such steps nested under their call, and
// numbers every step as the editor does (protocol/numbers.go).
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

/**
 * stepNumbers numbers a run's steps as the editor numbers the test's: the
 * test's own steps 1, 2, 3; the steps expanded from the call that is the
 * test's step 2 are 2.1, 2.2 ... calls[i] is step i's call ("" or
 * undefined for none). As protocol.StepNumbers.
 */
export function stepNumbers(calls: (string | undefined)[]): string[] {
  const out: string[] = [];
  let n = 0;
  let inner = 0;
  calls.forEach((call, i) => {
    if (!call) {
      n++;
      inner = 0;
      out.push(String(n));
      return;
    }
    if (i > 0 && calls[i - 1] === call) inner++;
    else {
      n++;
      inner = 1;
    }
    out.push(`${n}.${inner}`);
  });
  return out;
}

/** A step's number from numbers (stepNumbers), or its index + 1 before the document is known. */
export function numberOf(numbers: string[], index: number): string {
  return numbers[index] ?? String(index + 1);
}

/**
 * callStepText says which call a group came from: "Step 2 calls component
 * Sign in v1", by the component's name when known (names: id -> name).
 */
export function callStepText(call: string, testSteps: Step[], names: Record<string, string> = {}, number?: string): string {
  const s = testSteps.find((x) => x.id === call);
  if (!s || s.type !== "callComponent") return `Steps of component call ${call}`;
  const at = number ?? String(testSteps.indexOf(s) + 1);
  const name = s.component ? (names[s.component] ?? "") : "";
  return `Step ${at} calls component ${name || s.component || ""}${s.version ? ` v${s.version}` : ""}`;
}
