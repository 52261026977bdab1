// Fixtures of the comparison's tests: the traced run of the trace panel's
// tests (step 3 failed after a console error and a 500), version 2,
// compared with a passed run of version 1 (GET /api/runs/:id/compare).
import type { RunComparison } from "../../../api/compareApi";
import type { ComponentChange } from "../../../api/components";
import { tracedRoutes, tracedRun, traceDocument } from "../trace/traceFixtures";

export const baselineRun = {
  runId: "run_0",
  status: "passed" as const,
  version: 1,
  startedAt: "2026-11-01T09:00:00Z",
  finishedAt: "2026-11-01T09:00:02Z",
  durationMs: 2000,
  trace: "failures" as const,
};

const step = (id: string, type: string, more: Record<string, unknown> = {}) => ({ id, type, ...more });

export function comparison(over: Partial<RunComparison> = {}): RunComparison {
  return {
    runId: "run_1",
    baseline: baselineRun,
    diverged: {
      index: 3,
      id: "total",
      type: "assertText",
      status: "failed",
      baselineStatus: "passed",
      reason: "failed",
      screenshot: "step-004-total.png",
      baselineScreenshot: "step-004-total-0.png",
      pixels: { width: 1280, height: 720, different: 23040, total: 921600 },
    },
    requests: [
      { method: "GET", url: "https://shop.test/api/total", status: 500, baselineStatus: 200, index: 3 },
      { method: "POST", url: "https://shop.test/api/cart", status: 0, baselineStatus: 201, failure: "refused", index: 2, iteration: [1] },
    ],
    consoleErrors: [
      { index: 3, level: "error", text: "TypeError: price is undefined", url: "https://shop.test/js/cart.js", line: 12, column: 5 },
    ],
    document: {
      version: 2,
      baselineVersion: 1,
      diff: [
        { op: "same", before: step("open", "navigate"), after: step("open", "navigate") },
        { op: "change", before: step("total", "assertText", { expected: "10" }), after: step("total", "assertText", { expected: "12" }) },
        { op: "add", after: step("coupon", "click") },
      ] as ComponentChange[],
    },
    ...over,
  };
}

/** The run page's routes for the traced run, version 2, with the comparison's answer. */
export function comparedRoutes(compare: { status?: number; body?: unknown } = { body: comparison() }) {
  return {
    ...tracedRoutes(),
    "GET /api/runs/run_1": { status: 200, body: tracedRun({ version: 2 }) },
    "GET /api/tests/tc_1/versions/2": { body: { version: 2, document: traceDocument } },
    "GET /api/runs/run_1/compare": compare,
  };
}
