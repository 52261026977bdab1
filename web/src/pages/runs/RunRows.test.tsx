import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import { FakeEventSource, installFakeEventSource } from "../../test/eventSource";
import type { Run, RunEvent } from "../../api/runs";
import { RunPage } from "./RunPage";

let seq = 0;
const ev = (kind: RunEvent["kind"], fields: Partial<RunEvent> = {}): RunEvent => ({
  runId: "run_1",
  seq: ++seq,
  time: "2026-11-02T10:00:02Z",
  kind,
  ...fields,
});

const doc = {
  dsl: 2,
  name: "Sign in",
  data: { set: "tds_users00000000000000" },
  steps: [
    { id: "open", type: "navigate", url: "${baseUrl}/login.html" },
    { id: "greet", type: "assertText", target: { locators: [{ kind: "testId", value: "greeting" }] }, expected: "Welcome, ${email}" },
  ],
};

function makeRun(over: Partial<Run> = {}): Run {
  return {
    runId: "run_1",
    testId: "tc_1",
    testName: "Sign in",
    batchId: null,
    projectId: "prj_1",
    environmentId: null,
    status: "running",
    passed: 0,
    total: 3,
    durationMs: 0,
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
    finishedAt: null,
    document: doc,
    dataSetId: "tds_users00000000000000",
    rows: [0, 1, 2].map((row) => ({
      row,
      values: { email: ["ann", "bob", "cy"][row] + "@example.com" },
      status: "queued" as const,
      passed: 0,
      total: 0,
      durationMs: 0,
    })),
    ...over,
  };
}

const common = {
  "GET /api/tests/tc_1/versions/1": { body: { version: 1, document: doc } },
  "GET /api/agent": { body: { agents: [], needed: false } },
  "GET /api/test-data/tds_users00000000000000": {
    body: {
      id: "tds_users00000000000000",
      projectId: "prj_1",
      name: "Users",
      columns: ["email"],
      rows: [{ email: "ann@example.com" }, { email: "bob@example.com" }, { email: "cy@example.com" }],
      createdAt: "2026-11-01T10:00:00Z",
      updatedAt: "2026-11-01T10:00:00Z",
    },
  },
};

installFakeEventSource();
beforeEach(() => {
  seq = 0;
});

describe("RunPage rows", () => {
  it("updates each row live from the row events and opens a failed row with its steps and screenshot", async () => {
    fakeFetch({
      ...common,
      "GET /api/runs/run_1": { status: 202, body: makeRun() },
      "GET /api/runs/run_1/rows/1": {
        body: {
          row: 1,
          status: "failed",
          passed: 1,
          total: 2,
          durationMs: 1800,
          error: "step 2 (assertText) failed",
          values: { email: "bob@example.com" },
          steps: [
            { index: 0, id: "open", type: "navigate", status: "passed", durationMs: 300 },
            {
              index: 1,
              id: "greet",
              type: "assertText",
              status: "failed",
              durationMs: 1500,
              error: 'expected the text to contain "Welcome, bob@example.com"',
              screenshot: "step-002-greet.png",
              used: { expected: "Welcome, bob@example.com" },
            },
          ],
        },
      },
    });
    const user = userEvent.setup();
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    expect(await screen.findByRole("heading", { name: "Rows" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Steps", hidden: true })).not.toBeVisible();
    expect(await screen.findByRole("link", { name: "Users" })).toHaveAttribute("href", "/test-data/tds_users00000000000000");
    await waitFor(() => expect(FakeEventSource.all).toHaveLength(1));
    const es = FakeEventSource.all[0];
    const row = (n: number) => screen.getByTestId(`row-${n}`);
    expect(within(row(1)).getByText("queued")).toBeInTheDocument();
    expect(await within(row(2)).findByText("email: bob@example.com")).toBeInTheDocument();

    es.emitRun(ev("run.started", { total: 3 }));
    es.emitRun(ev("row.started", { row: 0, total: 2 }));
    es.emitRun(ev("row.started", { row: 1, total: 2 }));
    expect(within(row(1)).getByText("running")).toBeInTheDocument();
    es.emitRun(ev("step.finished", { row: 0, index: 0, id: "open", type: "navigate", status: "passed", durationMs: 300 }));
    expect(within(row(1)).getByText("1/2")).toBeInTheDocument();
    // A row's steps are not the run's own.
    expect(screen.queryByTestId("step-1")).not.toBeInTheDocument();
    es.emitRun(ev("row.finished", { row: 0, status: "passed", passed: 2, total: 2, durationMs: 1200 }));
    es.emitRun(
      ev("row.finished", { row: 1, status: "failed", passed: 1, total: 2, durationMs: 1800, error: "step 2 (assertText) failed" }),
    );
    expect(within(row(1)).getByText("passed")).toBeInTheDocument();
    expect(within(row(1)).getByText("1.2 s")).toBeInTheDocument();
    expect(within(row(2)).getByText("failed")).toBeInTheDocument();
    expect(within(row(2)).getByText("step 2 (assertText) failed")).toBeInTheDocument();
    expect(screen.getByTestId("rows-summary")).toHaveTextContent("1 of 3 rows passed, 1 failed, 1 waiting");
    expect(screen.getByTestId("run-passed")).toHaveTextContent("1/3");

    es.emitRun(ev("row.started", { row: 2, total: 2 }));
    es.emitRun(ev("row.finished", { row: 2, status: "passed", passed: 2, total: 2, durationMs: 1000 }));
    es.emitRun(ev("run.finished", { status: "failed", passed: 2, total: 3, durationMs: 4000, error: "1 of 3 rows failed" }));
    const result = await screen.findByRole("region", { name: "Result" });
    expect(result).toHaveTextContent("2 of 3 rows passed in 4.0 s");
    expect(result).toHaveTextContent("1 of 3 rows failed");

    await user.click(screen.getByRole("button", { name: "Open row 2" }));
    const dialog = await screen.findByRole("dialog", { name: "Row 2" });
    expect(await within(dialog).findByText('expected the text to contain "Welcome, bob@example.com"')).toBeInTheDocument();
    expect(within(dialog).getByText("step 2 (assertText) failed")).toBeInTheDocument();
    expect(within(within(dialog).getByTestId("row-step-1")).getByText("passed")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Open screenshot of step 2" }));
    expect(within(dialog).getByRole("img", { name: /Screenshot of row 2/ })).toHaveAttribute(
      "src",
      "/api/runs/run_1/rows/1/artifacts/step-002-greet.png",
    );
  });

  it("shows a retried row's attempts, each with its own steps and screenshots", async () => {
    const failedGreet = {
      index: 1,
      id: "greet",
      type: "assertText",
      status: "failed" as const,
      durationMs: 1500,
      error: "not yet",
      screenshot: "step-002-greet-failure.png",
    };
    const passedGreet = {
      index: 1,
      id: "greet",
      type: "assertText",
      status: "passed" as const,
      durationMs: 400,
      screenshot: "a2-step-002-greet.png",
    };
    const open = { index: 0, id: "open", type: "navigate", status: "passed" as const, durationMs: 300 };
    const rows = makeRun().rows!.map((r) => ({
      ...r,
      status: "passed" as const,
      passed: 2,
      total: 2,
      durationMs: 900,
      flaky: r.row === 0,
    }));
    fakeFetch({
      ...common,
      "GET /api/runs/run_1": { body: makeRun({ status: "passed", passed: 3, total: 3, finishedAt: "2026-11-02T10:00:09Z", rows }) },
      "GET /api/runs/run_1/rows/0": {
        body: {
          row: 0,
          status: "passed",
          passed: 2,
          total: 2,
          durationMs: 2300,
          flaky: true,
          values: { email: "ann@example.com" },
          steps: [open, passedGreet],
          attemptResults: [
            {
              attempt: 1,
              status: "failed",
              passed: 1,
              total: 2,
              durationMs: 1800,
              error: "step 2 (assertText) failed",
              steps: [open, failedGreet],
            },
            { attempt: 2, status: "passed", passed: 2, total: 2, durationMs: 500, steps: [open, passedGreet] },
          ],
        },
      },
    });
    const user = userEvent.setup();
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    await user.click(await screen.findByRole("button", { name: "Open row 1" }));
    const dialog = await screen.findByRole("dialog", { name: "Row 1" });
    const attempts = await within(dialog).findByRole("group", { name: "Attempts" });
    expect(within(dialog).getByText("Flaky")).toBeInTheDocument();
    expect(within(attempts).getByRole("button", { name: "Attempt 2 · passed" })).toHaveAttribute("aria-pressed", "true");
    await user.click(within(dialog).getByRole("button", { name: "Open screenshot of step 2" }));
    expect(within(dialog).getByRole("img", { name: /Screenshot of row 1/ })).toHaveAttribute(
      "src",
      "/api/runs/run_1/rows/0/artifacts/a2-step-002-greet.png",
    );
    await user.click(within(dialog).getByRole("button", { name: "← Back to row 1" }));
    // The screenshot view replaced the row's page: its switch is a new one.
    await user.click(within(within(dialog).getByRole("group", { name: "Attempts" })).getByRole("button", { name: "Attempt 1 · failed" }));
    expect(within(dialog).getByTestId("attempt-error")).toHaveTextContent("Attempt 1 failed: step 2 (assertText) failed");
    expect(within(within(dialog).getByTestId("row-step-2")).getByText("failed")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Open screenshot of step 2" }));
    expect(within(dialog).getByRole("img", { name: /Screenshot of row 1/ })).toHaveAttribute(
      "src",
      "/api/runs/run_1/rows/0/artifacts/step-002-greet-failure.png",
    );
  });

  it("lists a row's executions inside blocks in the order they ran, numbered as an outline with their iteration", async () => {
    const looped = {
      ...doc,
      steps: [doc.steps[0], { id: "twice", type: "repeat", times: 2, steps: [doc.steps[1]] }],
    };
    const greet = (n: number, status: "passed" | "failed") => ({
      index: 2,
      id: "greet",
      type: "assertText",
      status,
      durationMs: 10,
      iteration: [n],
      ...(status === "failed" ? { error: `no greeting the ${n + 1}. time`, screenshot: `step-003-greet-i${n}-failure.png` } : {}),
    });
    fakeFetch({
      ...common,
      "GET /api/tests/tc_1/versions/1": { body: { version: 1, document: looped } },
      "GET /api/runs/run_1": {
        body: makeRun({
          status: "failed",
          document: looped,
          finishedAt: "2026-11-02T10:00:09Z",
          rows: [{ row: 0, values: { email: "ann@example.com" }, status: "failed", passed: 1, total: 3, durationMs: 900 }],
        }),
      },
      "GET /api/runs/run_1/rows/0": {
        body: {
          row: 0,
          status: "failed",
          passed: 1,
          total: 3,
          durationMs: 900,
          values: { email: "ann@example.com" },
          steps: [
            { index: 0, id: "open", type: "navigate", status: "passed", durationMs: 300 },
            {
              index: 1,
              id: "twice",
              type: "repeat",
              status: "failed",
              durationMs: 30,
              iterations: [
                { iteration: 0, status: "passed", steps: [greet(0, "passed")] },
                { iteration: 1, status: "failed", steps: [greet(1, "failed")] },
              ],
            },
          ],
        },
      },
    });
    const user = userEvent.setup();
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    await user.click(await screen.findByRole("button", { name: "Open row 1" }));
    const dialog = await screen.findByRole("dialog", { name: "Row 1" });
    await within(dialog).findByTestId("row-step-1");
    const items = within(dialog).getAllByRole("listitem");
    expect(items.map((li) => li.getAttribute("data-testid"))).toEqual(["row-step-1", "row-step-2", "row-step-3-i1", "row-step-3-i2"]);
    expect(items[1]).toHaveTextContent("Repeat 2 times");
    expect(items[3]).toHaveTextContent("2.1");
    expect(items[3]).toHaveTextContent("iteration 2");
    expect(items[3]).toHaveTextContent("no greeting the 2. time");
    await user.click(within(dialog).getByRole("button", { name: "Open screenshot of step 2.1, iteration 2" }));
    expect(within(dialog).getByRole("img", { name: /Screenshot of row 1/ })).toHaveAttribute(
      "src",
      "/api/runs/run_1/rows/0/artifacts/step-003-greet-i1-failure.png",
    );
  });

  it("shows the pool record a run took and runs the same rows again", async () => {
    const { calls } = fakeFetch({
      ...common,
      "GET /api/runs/run_1": {
        body: makeRun({
          status: "passed",
          passed: 2,
          total: 2,
          finishedAt: "2026-11-02T10:00:09Z",
          document: { ...doc, data: { set: "tds_users00000000000000", pool: "dpl_cards000000000000000", mode: "consume" } },
          rows: [0, 2].map((row) => ({
            row,
            values: { email: ["ann", "bob", "cy"][row] + "@example.com" },
            status: "passed" as const,
            passed: 2,
            total: 2,
            durationMs: 900,
          })),
          pool: { id: "dpl_cards000000000000000", mode: "consume", record: 1, values: { card: "4222" } },
        }),
      },
      "GET /api/data-pools/dpl_cards000000000000000": { body: { id: "dpl_cards000000000000000", name: "Cards" } },
      "POST /api/runs": { status: 201, body: { runId: "run_2", status: "queued" } },
    });
    const user = userEvent.setup();
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    const pool = await screen.findByTestId("run-pool");
    expect(await within(pool).findByRole("link", { name: "Cards" })).toHaveAttribute("href", "/data-pools/dpl_cards000000000000000");
    expect(pool).toHaveTextContent("record 2 (consumed)");
    expect(screen.getByTestId("row-3")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Run again" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({
      testId: "tc_1",
      headed: false,
      screenshots: true,
      dataSetId: "tds_users00000000000000",
      rows: [0, 2],
    });
  });
});
