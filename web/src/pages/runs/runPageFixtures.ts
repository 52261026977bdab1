// Fixtures of the run page's tests: a stored run of test tc_1 and the
// requests the page makes for it.
import type { Run } from "../../api/runs";
import { fakeFetch } from "../../test/render";

/** storedRun is run_1 of test tc_1, finished, started by the caller; fields says what a test's run holds. */
export function storedRun(fields: Partial<Run>): Run {
  return {
    runId: "run_1",
    testId: "tc_1",
    testName: "Run",
    batchId: null,
    projectId: "prj_1",
    environmentId: null,
    status: "failed",
    passed: 0,
    total: 0,
    durationMs: 900,
    version: 1,
    options: { headed: false, screenshots: true, retries: 0 },
    flaky: false,
    quarantined: false,
    result: { steps: [] },
    attempts: 1,
    startedBy: "usr_me",
    startedByName: "Mia Tester",
    createdAt: "2026-11-02T10:00:00Z",
    startedAt: "2026-11-02T10:00:01Z",
    finishedAt: "2026-11-02T10:00:02Z",
    ...fields,
  };
}

/** serveRun answers the run page's requests: the run (with status), its version's document, no agent needed. */
export function serveRun(run: Run, document: unknown, status = 200) {
  fakeFetch({
    "GET /api/runs/run_1": { status, body: run },
    "GET /api/tests/tc_1/versions/1": { body: { version: 1, document } },
    "GET /api/agent": { body: { agents: [], needed: false } },
  });
}
