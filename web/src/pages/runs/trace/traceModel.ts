// The run page's trace panel, its rules as pure functions (docs/trace.md
// "The run page"): which step is selected on open, what a step's markers
// count, which console lines and requests the lists show, and the
// document a DOM snapshot is shown as.
import type { ConsoleEntry, NetworkEntry, TraceStep } from "../../../api/traceApi";
import { execKey } from "../outline";

/** A step execution's key, as the run page keys its executions (index and iteration). */
export const traceKey = (s: Pick<TraceStep, "index" | "iteration">) => execKey(s.index, s.iteration);

/** The step selected when the panel opens: the first failed one, else the first. -1 with no step. */
export function initialSelection(steps: TraceStep[]): number {
  if (steps.length === 0) return -1;
  const failed = steps.findIndex((s) => s.status === "failed");
  return failed >= 0 ? failed : 0;
}

export const isConsoleError = (c: ConsoleEntry) => c.level === "error";

/** A request that failed: no answer (failure) or an HTTP error status. */
export const isFailedRequest = (n: NetworkEntry) => !!n.failure || (n.status ?? 0) >= 400;

export interface StepMarks {
  errors: number;
  failedRequests: number;
}

/** The markers of each step on the timeline: its console errors and failed requests. */
export function stepMarks(steps: TraceStep[]): StepMarks[] {
  return steps.map((s) => ({
    errors: (s.console ?? []).filter(isConsoleError).length,
    failedRequests: (s.network ?? []).filter(isFailedRequest).length,
  }));
}

/** One row of the console or network list: the entry, the position of its step, and whether that step is the selected one. */
export interface ListRow<T> {
  step: number;
  entry: T;
  /** A neighbouring step's (or, with all, another step's) entry: shown greyed. */
  near: boolean;
}

/**
 * listRows gathers the entries the lists show for the selected step: its
 * own and its neighbours' (the step before and the step after, greyed:
 * what led to it and what followed), or every step's with all; keep
 * filters them (errors only, failed requests only).
 */
export function listRows<T>(
  steps: TraceStep[],
  selected: number,
  pick: (s: TraceStep) => T[] | undefined,
  all: boolean,
  keep: ((e: T) => boolean) | null,
): ListRow<T>[] {
  const from = all ? 0 : Math.max(0, selected - 1);
  const to = all ? steps.length - 1 : Math.min(steps.length - 1, selected + 1);
  const out: ListRow<T>[] = [];
  for (let p = from; p <= to; p++) {
    for (const entry of pick(steps[p]) ?? []) {
      if (keep && !keep(entry)) continue;
      out.push({ step: p, entry, near: p !== selected });
    }
  }
  return out;
}

/** The policy a snapshot is shown under: no script, no request; its own inline styles and data: images only. */
export const SNAPSHOT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** The styles the page adds to a snapshot: the step's target outlined, the locator's other matches dashed. */
export const HIGHLIGHT_CSS =
  "[data-ta-target]{outline:3px solid #e0245e !important;outline-offset:2px !important}" +
  "[data-ta-match]:not([data-ta-target]){outline:2px dashed #2456d6 !important;outline-offset:1px !important}";

/**
 * snapshotDoc is the document an iframe shows for a snapshot: the policy
 * as a <meta> before anything of the snapshot (after its doctype, which
 * must stay first or the page renders in quirks mode), so nothing in it
 * can load; the highlight styles at the very end, so they come last in
 * the cascade and beat the page's own rules. A <base href> (the agent
 * records the page's address in one) is renamed data-ta-href: a srcdoc
 * frame keeps the web app's own policy, whose base-uri 'self' refuses it
 * with a console error, and nothing in a snapshot loads through it.
 */
export function snapshotDoc(html: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${SNAPSHOT_CSP}">`;
  const style = `<style data-ta-trace>${HIGHLIGHT_CSS}</style>`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  const head = doctype ? doctype[0] : "";
  const body = html.slice(head.length).replace(/<base(\s[^>]*?)?\shref=/gi, "<base$1 data-ta-href=");
  return `${head}${meta}${body}${style}`;
}

/** "+1.25 s": a time since the run started, as the lists show it. */
export function sinceStart(ms: number): string {
  return `+${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** "app.js:12:5": where a console line came from, the script's last path part (the whole URL in a title). */
export function sourcePlace(c: Pick<ConsoleEntry, "url" | "line" | "column">): string {
  if (!c.url) return "";
  let name = c.url;
  try {
    const u = new URL(c.url);
    name = u.pathname.split("/").filter(Boolean).pop() || u.host;
  } catch {
    // Not a URL (a browser's own source): shown as it is.
  }
  return `${name}${c.line ? `:${c.line}` : ""}${c.line && c.column ? `:${c.column}` : ""}`;
}
