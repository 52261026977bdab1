// Fixtures of the trace panel's tests: a finished run of a document with a
// loop (numbers 1, 2, 2.1 twice, 3), its stored result, and its trace
// (GET /api/runs/:id/trace): step 3 failed after a console error and a
// request answered 500, with snapshots after and before it.
import type { Run, StepResult } from "../../../api/runs";
import type { ConsoleEntry, NetworkEntry, RunTrace, TraceStep } from "../../../api/traceApi";

const css = (value: string) => ({ locators: [{ kind: "css", value }] });

export const traceDocument = {
  dsl: 2,
  name: "Checkout",
  steps: [
    { id: "open", type: "navigate", url: "${baseUrl}/shop.html", description: "Open the shop" },
    { id: "twice", type: "repeat", times: 2, steps: [{ id: "add", type: "click", target: css("#add"), description: "Add a book" }] },
    { id: "total", type: "assertText", target: css("#total"), expected: "12", description: "The total is 12" },
  ],
};

const r = (index: number, id: string, type: string, status: StepResult["status"], more: Partial<StepResult> = {}): StepResult => ({
  index,
  id,
  type,
  status,
  durationMs: 100,
  ...more,
});

export function tracedRun(over: Partial<Run> = {}): Run {
  return {
    runId: "run_1",
    testId: "tc_1",
    testName: "Checkout",
    batchId: null,
    projectId: "prj_1",
    environmentId: null,
    status: "failed",
    passed: 2,
    total: 3,
    durationMs: 2000,
    version: 1,
    options: { headed: false, screenshots: false },
    document: traceDocument,
    result: {
      steps: [
        r(0, "open", "navigate", "passed"),
        r(1, "twice", "repeat", "passed", {
          iterations: [
            { iteration: 0, status: "passed", steps: [r(2, "add", "click", "passed", { iteration: [0] })] },
            { iteration: 1, status: "passed", steps: [r(2, "add", "click", "passed", { iteration: [1] })] },
          ],
        }),
        r(3, "total", "assertText", "failed", {
          error: 'expected "12", got "0"',
          screenshot: "step-004-total.png",
          box: { x: 10, y: 20, width: 100, height: 30, viewportWidth: 1280, viewportHeight: 720, dpr: 1 },
        }),
      ],
    },
    attempts: 1,
    startedBy: "usr_me",
    startedByName: "Mia Tester",
    createdAt: "2026-11-02T10:00:00Z",
    startedAt: "2026-11-02T10:00:01Z",
    finishedAt: "2026-11-02T10:00:03Z",
    ...over,
  } as Run;
}

export const con = (timeMs: number, level: ConsoleEntry["level"], text: string, more: Partial<ConsoleEntry> = {}): ConsoleEntry => ({
  timeMs,
  level,
  source: "console",
  text,
  ...more,
});

export const req = (timeMs: number, url: string, status: number | undefined, more: Partial<NetworkEntry> = {}): NetworkEntry => ({
  timeMs,
  method: "GET",
  url,
  ...(status === undefined ? {} : { status }),
  type: "Fetch",
  durationMs: 40,
  requestBytes: 300,
  responseBytes: 2048,
  ...more,
});

export const ts = (index: number, id: string, type: string, status: TraceStep["status"], more: Partial<TraceStep> = {}): TraceStep => ({
  index,
  id,
  type,
  status,
  startMs: index * 400,
  durationMs: 300,
  console: [],
  network: [],
  ...more,
});

export const tracedSteps: TraceStep[] = [
  ts(0, "open", "navigate", "passed", {
    console: [con(50, "log", "shop ready")],
    network: [req(10, "https://shop.test/shop.html", 200, { type: "Document" })],
    snapshot: "dom-001-open.html",
  }),
  ts(1, "twice", "repeat", "passed"),
  ts(2, "add", "click", "passed", {
    iteration: [0],
    network: [req(900, "https://shop.test/api/cart", 200)],
    snapshot: "dom-003-add-i0.html",
  }),
  ts(2, "add", "click", "passed", {
    iteration: [1],
    network: [req(1300, "https://shop.test/api/cart", 200)],
    snapshot: "dom-003-add-i1.html",
  }),
  ts(3, "total", "assertText", "failed", {
    console: [
      con(1700, "warning", "slow total"),
      con(1710, "error", "TypeError: price is undefined", {
        source: "exception",
        url: "https://shop.test/js/cart.js",
        line: 12,
        column: 5,
      }),
    ],
    network: [req(1650, "https://shop.test/api/total", 500), req(1660, "https://shop.test/logo.png", 200, { type: "Image" })],
    snapshot: "dom-004-total.html",
    before: "dom-003-add-i1-before.html",
  }),
];

export const tracedTrace: RunTrace = { mode: "failures", steps: tracedSteps, dropped: 0 };

export const snapshotAfter =
  '<!DOCTYPE html><html><head><base href="https://shop.test/shop.html"><style>p{color:red}</style></head>' +
  '<body><p id="total" data-ta-target>0</p><p data-ta-match>0</p></body></html>';

export const snapshotBefore = '<!DOCTYPE html><html><head></head><body><p id="total">before</p></body></html>';

/** The routes of the run page for the traced run; the trace's route may be replaced. */
export function tracedRoutes(trace: { status?: number; body?: unknown } = { body: tracedTrace }) {
  return {
    "GET /api/runs/run_1": { status: 200, body: tracedRun() },
    "GET /api/tests/tc_1/versions/1": { body: { version: 1, document: traceDocument } },
    "GET /api/runs/run_1/trace": trace,
    "GET /api/runs/run_1/artifacts/dom-004-total.html": { body: snapshotAfter, headers: { "Content-Type": "text/html" } },
    "GET /api/runs/run_1/artifacts/dom-003-add-i1-before.html": { body: snapshotBefore, headers: { "Content-Type": "text/html" } },
  };
}
