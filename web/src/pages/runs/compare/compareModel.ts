// The run page's comparison with the last passed run, its words as pure
// functions (docs/trace.md "Since it last passed: the run page"): why the
// runs diverged, a request's outcome, how many pixels differ.
import type { ComparePixels, CompareDiverged } from "../../../api/compareApi";
import { iterationWords } from "../outline";

/** "3.1 · iteration 2": a step execution's number as the run page and the trace's timeline say it. */
export function execLabel(index: number, iteration: number[] | undefined, number: (index: number) => string): string {
  const it = iteration?.length ? ` · iteration ${iterationWords(iteration)}` : "";
  return `${number(index)}${it}`;
}

/**
 * divergeWords says why the runs diverged at the step; other names the
 * run compared with ("the last passed run").
 */
export function divergeWords(d: Pick<CompareDiverged, "reason" | "status" | "baselineStatus">, other: string): string {
  switch (d.reason) {
    case "failed":
      return `Failed here; passed in ${other}`;
    case "not_in_baseline":
      return `Not run in ${other}`;
    case "not_run":
      return `Ran in ${other}, not here`;
    default: {
      const here = d.status || "not run";
      return `${here.charAt(0).toUpperCase()}${here.slice(1)} here; ${d.baselineStatus || "not run"} in ${other}`;
    }
  }
}

const FAILURES: Record<string, string> = {
  dns: "failed: the host name did not resolve",
  refused: "failed: connection refused",
  blocked: "blocked",
  cors: "blocked by CORS",
  aborted: "aborted",
  timeout: "timed out",
};

/** A request's outcome in words: its status, "no answer" (0), or its failure. */
export function outcomeWords(status: number, failure?: string): string {
  if (failure) return FAILURES[failure] ?? `failed: ${failure}`;
  return status === 0 ? "no answer" : String(status);
}

/** "2.5% of the pixels differ": how much of the diverging step's screenshot changed. */
export function pixelWords(p: ComparePixels): string {
  if (p.total <= 0 || p.different <= 0) return "No pixel differs";
  const pct = (100 * p.different) / p.total;
  if (pct < 0.1) return "Less than 0.1% of the pixels differ";
  const text = pct >= 99.95 && p.different < p.total ? "99.9" : String(Number(pct.toFixed(1)));
  return `${text}% of the pixels differ`;
}
