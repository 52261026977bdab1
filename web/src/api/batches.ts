// Batches: runs of many tests started at once (hub/api/batches.go). POST
// /api/runs with testIds or suite queues one run per test and answers a
// batch id; GET /api/batches/:id sums up the runs the caller can see.
import { get, inProject, post, recordCall } from "./client";
import type { Run, RunStatus } from "./runs";
import { listTests, type TestFilters } from "./testsApi";

/** POST /api/runs for many tests: testIds, or suite ("" is Unsorted: the tests of no suite). */
export type BatchSelection = { testIds: string[] } | { suite: string };

export interface StartBatchInput {
  environmentId?: string;
  headed: boolean;
  screenshots: boolean;
}

/** POST /api/runs (testIds or suite) and POST /api/batches/:id/rerun: 201 */
export interface BatchStarted {
  batchId: string;
  runIds: string[];
  runs: { runId: string; testId: string }[];
}

/** hub/api/batches.go batchJSON */
export interface Batch {
  id: string;
  projectId: string;
  /** queued until a run starts, running until all are final, then passed (all passed) or failed. */
  status: RunStatus;
  counts: Record<RunStatus, number>;
  total: number;
  passed: number;
  /** Finished runs that did not pass (failed, error, cancelled). */
  failed: number;
  /** Wall-clock time from the start of the batch to its last run's end (or now). */
  durationMs: number;
  source: "tests" | "suite" | "rerun";
  suite: string | null;
  rerunOf: string | null;
  environmentId: string | null;
  options: { headed: boolean; screenshots: boolean };
  startedBy: string;
  startedByName: string | null;
  createdAt: string;
  finishedAt: string | null;
  runs: Run[];
}

export function startBatch(selection: BatchSelection, input: StartBatchInput, projectId: string): Promise<BatchStarted> {
  return post("/api/runs", { ...selection, ...input }, inProject(projectId));
}

export function fetchBatch(id: string, signal?: AbortSignal): Promise<Batch> {
  return get(`/api/batches/${encodeURIComponent(id)}`, { ...recordCall, signal });
}

/** A new batch of the same tests with the same options; failedOnly: only those whose run did not pass. */
export function rerunBatch(id: string, failedOnly: boolean): Promise<BatchStarted> {
  return post(`/api/batches/${encodeURIComponent(id)}/rerun`, { failedOnly }, recordCall);
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
