// Batches: runs of many tests started at once (hub/api/batches.go). POST
// /api/runs with testIds or suite queues one run per test and answers a
// batch id; GET /api/batches/:id sums up the runs the caller can see.
import { get, inProject, post, recordCall } from "./client";
import type { Run, RunStatus } from "./runs";
import type { Body, Schema } from "./types";
import { listTests, type TestFilters } from "./testsApi";

/**
 * POST /api/runs for many tests: testIds, or suite ("" is Unsorted: the
 * tests of no suite). A client-side union: the document's RunRequest has
 * every field optional, this says which ones the UI sends together.
 */
export type BatchSelection = Required<Pick<Body<"/api/runs", "post">, "testIds">> | { suite: string };

/** The options of a batch; headed and screenshots narrowed to required (optional in the document's RunRequest). */
export type StartBatchInput = Pick<Body<"/api/runs", "post">, "environmentId" | "agentId" | "labels" | "trace" | "retries"> & {
  headed: boolean;
  screenshots: boolean;
};

/** POST /api/runs (testIds or suite) and POST /api/batches/:id/rerun: 201 */
export type BatchStarted = Schema<"BatchStarted">;

/**
 * hub/api/batches.go batchJSON. status: queued until a run starts, running
 * until all are final, then passed (all passed) or failed; failed counts
 * finished runs that did not pass; durationMs is wall-clock time from the
 * start to the last run's end (or now). Narrowed: the document gives
 * status, source and the counts' keys as plain strings.
 */
export type Batch = Omit<Schema<"Batch">, "status" | "counts" | "source" | "runs"> & {
  status: RunStatus;
  /** Runs per status, and how many ended while their test was quarantined (docs/history.md). */
  counts: Record<RunStatus, number> & { quarantined?: number };
  source: "tests" | "suite" | "tag" | "rerun";
  runs: Run[];
};

export function startBatch(selection: BatchSelection, input: StartBatchInput, projectId: string): Promise<BatchStarted> {
  return post("/api/runs", { ...selection, ...input }, inProject(projectId));
}

export function fetchBatch(id: string, signal?: AbortSignal): Promise<Batch> {
  return get(`/api/batches/${encodeURIComponent(id)}`, { ...recordCall, signal });
}

/** A new batch of the same tests with the same options; failedOnly: only those whose run did not pass. */
export function rerunBatch(id: string, failedOnly: boolean): Promise<BatchStarted> {
  const body: Body<"/api/batches/{id}/rerun", "post"> = { failedOnly };
  return post(`/api/batches/${encodeURIComponent(id)}/rerun`, body, recordCall);
}

/** The largest batch the hub accepts. */
export const MAX_BATCH = 500;

/**
 * matchingTestIds pages through GET /api/tests with the list's filters and
 * returns the ids of the matching tests that can run (not Deprecated, and
 * the caller may run them), with how many were left out.
 */
export async function matchingTestIds(
  projectId: string,
  filters: TestFilters,
  signal?: AbortSignal,
): Promise<{ ids: string[]; skipped: number }> {
  const ids: string[] = [];
  let skipped = 0;
  let cursor: string | null = null;
  do {
    const page = await listTests(projectId, { ...filters, limit: MAX_BATCH, cursor }, signal);
    for (const t of page.tests) {
      if (t.status === "Deprecated" || !t.can.run) skipped++;
      else ids.push(t.id);
    }
    cursor = page.nextCursor;
  } while (cursor && ids.length <= MAX_BATCH);
  return { ids, skipped };
}
