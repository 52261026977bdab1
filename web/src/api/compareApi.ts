// "Since it last passed" (issue 30, docs/trace.md): a finished run compared
// with a baseline run of the same test, as GET /api/runs/:id/compare
// answers: where the two runs diverged, that step's screenshots and how
// many pixels differ, requests whose outcome changed, new console errors
// and the document's diff. The shapes are the hub's OpenAPI document's.
import { get, recordCall } from "./client";
import type { ComponentChange } from "./components";
import type { Schema } from "./types";

/** The run compared with: by default the last passed run of the test on the same environment before this one. */
export type CompareBaseline = Schema<"CompareBaseline">;

/** How two screenshots of the same size differ. */
export type ComparePixels = Schema<"Pixels">;

/**
 * Why the runs diverged at that step execution. failed: it failed here and
 * passed in the baseline; not_in_baseline: this run ran it, the baseline
 * did not; not_run: the baseline ran it, this run did not; status: any
 * other status difference.
 */
export type DivergeReason = Schema<"Diverged">["reason"];

/** The first step execution where the two runs differ; a status "" means that run did not run it. */
export type CompareDiverged = Schema<"Diverged">;

/** A request whose outcome changed; status 0: no answer. */
export type CompareRequest = Schema<"RequestChange">;

/** A console error of this run no error of the baseline has. */
export type CompareConsoleError = Schema<"ConsoleError">;

/** GET /api/runs/:id/compare; document is null when both runs ran the same steps. */
export type RunComparison = Omit<Schema<"Compare">, "document"> & {
  document: (Omit<Schema<"DocumentChange">, "diff"> & { diff: ComponentChange[] }) | null;
};

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
