// "Since it last passed" (issue 30, docs/trace.md): a finished run compared
// with a baseline run of the same test, as GET /api/runs/:id/compare
// answers: where the two runs diverged, that step's screenshots and how
// many pixels differ, requests whose outcome changed, new console errors
// and the document's diff. Written by hand against the shape the lead
// fixed, until the hub's OpenAPI document has the route; the lead swaps
// them for Schema<...> at merge.
import { get, recordCall } from "./client";
import type { ComponentChange } from "./components";
import type { TraceMode } from "./traceApi";

/** The run compared with: by default the last passed run of the test on the same environment before this one. */
export interface CompareBaseline {
  runId: string;
  status: string;
  version: number;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number;
  /** The baseline run's trace mode. */
  trace: TraceMode;
}

/** How two screenshots of the same size differ. */
export interface ComparePixels {
  width: number;
  height: number;
  different: number;
  total: number;
}

/**
 * Why the runs diverged at that step execution. failed: it failed here and
 * passed in the baseline; not_in_baseline: this run ran it, the baseline
 * did not; not_run: the baseline ran it, this run did not; status: any
 * other status difference.
 */
export type DivergeReason = "failed" | "not_in_baseline" | "not_run" | "status";

/** The first step execution where the two runs differ. */
export interface CompareDiverged {
  index: number;
  iteration?: number[];
  id: string;
  type: string;
  /** This run's status of it; "" when this run did not run it. */
  status: string;
  /** The baseline's; "" when the baseline did not run it. */
  baselineStatus: string;
  reason: DivergeReason;
  /** This run's result screenshot of it (an artifact of this run); "" without one. */
  screenshot: string;
  /** The baseline's (an artifact of the baseline run). */
  baselineScreenshot: string;
  /** Set when both screenshots exist and have the same size. */
  pixels: ComparePixels | null;
}

/** A request whose outcome changed; status 0: no answer. */
export interface CompareRequest {
  method: string;
  url: string;
  status: number;
  baselineStatus: number;
  failure?: string;
  baselineFailure?: string;
  /** The step execution it belongs to (this run's). */
  index: number;
  iteration?: number[];
}

/** A console error of this run no error of the baseline has. */
export interface CompareConsoleError {
  index: number;
  iteration?: number[];
  level: string;
  text: string;
  url?: string;
  line?: number;
  column?: number;
}

/** GET /api/runs/:id/compare */
export interface RunComparison {
  runId: string;
  baseline: CompareBaseline | null;
  /** Why there is no baseline, when there is none. */
  note?: string;
  diverged: CompareDiverged | null;
  requests: CompareRequest[];
  requestsDropped?: number;
  consoleErrors: CompareConsoleError[];
  consoleDropped?: number;
  /** null when both runs ran the same version. */
  document: { version: number; baselineVersion: number; diff: ComponentChange[] } | null;
}

export const compareKeys = {
  compare: (runId: string) => ["run-compare", runId] as const,
};

export function fetchComparison(runId: string, signal?: AbortSignal): Promise<RunComparison> {
  return get<RunComparison>(`/api/runs/${encodeURIComponent(runId)}/compare`, { ...recordCall, signal });
}

/** The overlay of the diverging step's screenshots: transparent, magenta where the baseline's differs. */
export function comparePixelsUrl(runId: string, withRun?: string): string {
  const base = `/api/runs/${encodeURIComponent(runId)}/compare/pixels.png`;
  return withRun ? `${base}?with=${encodeURIComponent(withRun)}` : base;
}
