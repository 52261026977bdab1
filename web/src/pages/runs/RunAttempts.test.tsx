// Issue 31's retries on the run page (docs/retries.md): a flaky run's
// badge and its attempts, each with its own steps, screenshots and trace;
// the live view says which attempt runs; the run dialog sends retries.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import { installFakeEventSource } from "../../test/eventSource";
import type { Test } from "../../api";
import type { RunEvent } from "../../api/runs";
import { RunPage } from "./RunPage";
import { StartRunButton } from "./StartRunButton";
import { RunsPage } from "./RunsPage";
import { storedRun } from "./runPageFixtures";
import { initialRunView, runViewReducer } from "./runState";
import { rowsView } from "./rowState";
import { isTraceArtifact } from "../../api/traceApi";

installFakeEventSource();

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const doc = {
  dsl: 2,
  name: "Flaky",
  steps: [
    { id: "open", type: "navigate", url: "https://shop.test/" },
    { id: "check", type: "assertTitle", expected: "Shop" },
  ],
};

const failedSteps = [
  { index: 0, id: "open", type: "navigate", status: "passed" as const, durationMs: 100, screenshot: "step-001-open.jpg" },
  {
    index: 1,
    id: "check",
    type: "assertTitle",
    status: "failed" as const,
    durationMs: 500,
    error: 'title was "Oops"',
    screenshot: "step-002-check-failure.png",
  },
];
const passedSteps = [
  { index: 0, id: "open", type: "navigate", status: "passed" as const, durationMs: 90, screenshot: "a2-step-001-open.jpg" },
  { index: 1, id: "check", type: "assertTitle", status: "passed" as const, durationMs: 40, screenshot: "a2-step-002-check.jpg" },
];

const flakyRun = storedRun({
  status: "passed",
  passed: 2,
  total: 2,
  flaky: true,
  options: { headed: false, screenshots: true, retries: 2 },
  result: { steps: passedSteps },
  attemptResults: [
    {
      attempt: 1,
      status: "failed",
      passed: 1,
      total: 2,
      durationMs: 600,
      error: 'step 2 (check, assertTitle) failed: title was "Oops"',
      steps: failedSteps,
    },
    { attempt: 2, status: "passed", passed: 2, total: 2, durationMs: 130, steps: passedSteps },
  ],
});

const emptyTrace = { mode: "failures", steps: [], dropped: 0 };

function serveFlaky() {
  return fakeFetch({
    "GET /api/runs/run_1": { body: flakyRun },
    "GET /api/tests/tc_1/versions/1": { body: { version: 1, document: doc } },
    "GET /api/runs/run_1/trace": { body: emptyTrace },
    "GET /api/runs/run_1/trace?attempt=2": { body: emptyTrace },
  });
}

const shotNames = () =>
  [...document.querySelectorAll("img")]
    .map((i) => i.getAttribute("src") ?? "")
    .filter((s) => s.includes("/artifacts/"))
    .map((s) => decodeURIComponent(s.split("/artifacts/")[1]));

describe("A retried run on the run page", () => {
  it("a flaky run has the badge and shows its last attempt first", async () => {
    const { calls } = serveFlaky();
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    const badge = await screen.findByText("Flaky");
    expect(badge).toHaveAttribute("title", "Passed after 2 attempts");
    expect(screen.getByText("Options").nextElementSibling).toHaveTextContent("; 2 retries on failure");
    const group = await screen.findByRole("group", { name: "Attempts" });
    const buttons = within(group).getAllByRole("button");
    expect(buttons.map((b) => b.textContent)).toEqual(["Attempt 1 · failed", "Attempt 2 · passed"]);
    expect(buttons[1]).toHaveAttribute("aria-pressed", "true");
    await waitFor(() => expect(shotNames()).toContain("a2-step-001-open.jpg"));
    expect(shotNames().some((n) => !n.startsWith("a2-"))).toBe(false);
    await waitFor(() => expect(calls.some((c) => c.path === "/api/runs/run_1/trace?attempt=2")).toBe(true));
  });

  it("switching to attempt 1 shows its failure, its steps' screenshots and its trace", async () => {
    const { calls } = serveFlaky();
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    const group = await screen.findByRole("group", { name: "Attempts" });
    await userEvent.click(within(group).getByRole("button", { name: "Attempt 1 · failed" }));
    expect(within(group).getByRole("button", { name: "Attempt 1 · failed" })).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByTestId("attempt-error")).toHaveTextContent('Attempt 1 failed: step 2 (check, assertTitle) failed: title was "Oops"');
    await waitFor(() => expect(shotNames()).toContain("step-002-check-failure.png"));
    expect(shotNames().some((n) => n.startsWith("a2-"))).toBe(false);
    await waitFor(() => expect(calls.some((c) => c.path === "/api/runs/run_1/trace")).toBe(true));
  });

  it("a run that passed at once has no badge and no attempts", async () => {
    fakeFetch({
      "GET /api/runs/run_1": { body: storedRun({ status: "passed", passed: 2, total: 2, result: { steps: failedSteps.slice(0, 1) } }) },
      "GET /api/tests/tc_1/versions/1": { body: { version: 1, document: doc } },
    });
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    const options = await screen.findByText("Options");
    expect(options.nextElementSibling).not.toHaveTextContent("retr");
    expect(screen.queryByText("Flaky")).toBeNull();
    expect(screen.queryByRole("group", { name: "Attempts" })).toBeNull();
  });
});

describe("The runs list", () => {
  it("marks a flaky run, and only it", async () => {
    fakeFetch({
      "GET /api/runs": {
        body: {
          runs: [
            { ...flakyRun, runId: "run_1", testName: "Flaky one" },
            storedRun({ runId: "run_2", testName: "Steady one", status: "passed" }),
          ],
          nextCursor: null,
        },
      },
    });
    renderPage(<RunsPage />, { route: "/runs", path: "/runs" });
    const flakyRow = (await screen.findByText("Flaky one")).closest("tr")!;
    expect(within(flakyRow).getByText("Flaky")).toBeInTheDocument();
    const steadyRow = screen.getByText("Steady one").closest("tr")!;
    expect(within(steadyRow).queryByText("Flaky")).toBeNull();
  });
});

describe("A retried attempt's artifacts", () => {
  it("its trace and snapshots are the trace's, not listed as artifacts", () => {
    expect(isTraceArtifact("a2-trace-001-open.json")).toBe(true);
    expect(isTraceArtifact("a2-dom-001-open.html")).toBe(true);
    expect(isTraceArtifact("a2-step-001-open.jpg")).toBe(false);
    expect(isTraceArtifact("trace-001-open.json")).toBe(true);
  });
});

describe("The live view of a retried run", () => {
  const ev = (seq: number, kind: RunEvent["kind"], extra: Partial<RunEvent> = {}): RunEvent => ({
    runId: "run_1",
    seq,
    time: "2026-11-02T10:00:01Z",
    kind,
    ...extra,
  });

  it("run.retry starts the next attempt over and says why", () => {
    const events = [
      ev(1, "run.started", { total: 2 }),
      ev(2, "step.started", { index: 0, id: "open" }),
      ev(3, "step.finished", { index: 0, id: "open", status: "failed", error: "boom" }),
      ev(4, "run.retry", { runAttempt: 2, message: "attempt 1 failed: boom; running again (2 of 3)" }),
      ev(5, "step.started", { index: 0, id: "open", runAttempt: 2 }),
    ];
    const view = events.reduce(runViewReducer, initialRunView);
    expect(view.runAttempt).toBe(2);
    expect(view.retryNote).toBe("attempt 1 failed: boom; running again (2 of 3)");
    expect(view.steps.map((s) => [s.index, s.status])).toEqual([[0, "running"]]);
    // The run queued again on another agent starts its attempts over.
    const again = runViewReducer(view, ev(6, "run.started", { total: 2 }));
    expect(again.runAttempt).toBe(1);
    expect(again.retryNote).toBe("");
  });

  it("a row's run.retry counts its steps again, the other rows' stay", () => {
    const rows = rowsView([
      ev(1, "run.started", { total: 2 }),
      ev(2, "row.started", { row: 0, total: 2 }),
      ev(3, "row.started", { row: 1, total: 2 }),
      ev(4, "step.finished", { row: 0, index: 0, status: "passed" }),
      ev(5, "step.finished", { row: 0, index: 1, status: "failed" }),
      ev(6, "step.finished", { row: 1, index: 0, status: "passed" }),
      ev(7, "run.retry", { row: 0, runAttempt: 2, message: "attempt 1 failed" }),
      ev(8, "step.finished", { row: 0, index: 0, status: "passed", runAttempt: 2 }),
    ]);
    expect(rows.map((r) => [r.row, r.done, r.passed])).toEqual([
      [0, 1, 1],
      [1, 1, 1],
    ]);
  });

  it("a finished row that was flaky stays flaky beside its events", () => {
    const summary = { row: 0, values: {}, status: "passed" as const, passed: 2, total: 2, durationMs: 900, flaky: true };
    const rows = rowsView(
      [ev(1, "run.started", { total: 1 }), ev(2, "row.started", { row: 0, total: 2 }), ev(3, "row.finished", { row: 0, status: "passed" })],
      [summary, { ...summary, row: 1, flaky: undefined }],
    );
    expect(rows.map((r) => [r.row, r.flaky])).toEqual([
      [0, true],
      [1, false],
    ]);
  });
});

describe("The run option retries", () => {
  const test = { id: "tc_1", projectId: "prj_1", name: "Checkout", version: 4, can: { run: true } } as unknown as Test;

  async function startWith(choice: string | null) {
    const { calls } = fakeFetch({ "POST /api/runs": { status: 201, body: { runId: "run_42", status: "queued" } } });
    renderPage(<StartRunButton test={test} />, { route: "/tests/tc_1", path: "/tests/:id" });
    await userEvent.click(screen.getByRole("button", { name: "Run" }));
    const dialog = await screen.findByRole("dialog", { name: "Run Checkout" });
    const select = within(dialog).getByLabelText("Retries");
    expect(select).toHaveValue("0");
    if (choice) await userEvent.selectOptions(select, choice);
    await userEvent.click(within(dialog).getByRole("button", { name: "Start run" }));
    await screen.findByTestId("elsewhere");
    return calls.find((c) => c.method === "POST")?.body as Record<string, unknown>;
  }

  it("the run dialog sends the retries chosen", async () => {
    expect((await startWith("2")).retries).toBe(2);
  });

  it("the run dialog leaves no retries to the hub's default", async () => {
    expect(await startWith(null)).not.toHaveProperty("retries");
  });
});
