import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useLocation } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import type { Batch } from "../../api/batches";
import type { Run, RunStatus } from "../../api/runs";
import { RunTable } from "../runs/runBits";
import { BatchPage, batchSummary, batchTitle } from "./BatchPage";
import { BatchProgress } from "./BatchProgress";

afterEach(() => vi.unstubAllGlobals());

function run(id: string, testName: string, status: RunStatus, over: Partial<Run> = {}): Run {
  const final = status !== "queued" && status !== "running";
  return {
    runId: id,
    testId: "tc_" + id,
    batchId: "bat_1",
    testName,
    projectId: "prj_1",
    environmentId: null,
    status,
    passed: status === "passed" ? 3 : 1,
    total: final ? 3 : 0,
    durationMs: 2100,
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
    finishedAt: final ? "2026-11-02T10:00:05Z" : null,
    ...over,
  };
}

function batch(runs: Run[], over: Partial<Batch> = {}): Batch {
  const counts = { queued: 0, running: 0, passed: 0, failed: 0, error: 0, cancelled: 0 } as Record<RunStatus, number>;
  for (const r of runs) counts[r.status]++;
  const waiting = counts.queued + counts.running;
  return {
    id: "bat_1",
    projectId: "prj_1",
    status: waiting ? "running" : counts.passed === runs.length ? "passed" : "failed",
    counts,
    total: runs.length,
    passed: counts.passed,
    failed: runs.length - counts.passed - waiting,
    durationMs: 65_000,
    source: "suite",
    suite: "Checkout",
    tag: null,
    rerunOf: null,
    environmentId: null,
    options: { headed: false, screenshots: true, retries: 0 },
    flaky: 0,
    schedule: null,
    startedBy: "usr_me",
    startedByName: "Mia Tester",
    createdAt: "2026-11-02T10:00:00Z",
    finishedAt: waiting ? null : "2026-11-02T10:01:05Z",
    runs,
    ...over,
  };
}

function Where() {
  const l = useLocation();
  return <output data-testid="where">{l.pathname}</output>;
}

function renderBatch() {
  return renderPage(
    <>
      <BatchPage />
      <Where />
    </>,
    { route: "/batches/bat_1", path: "/batches/:id" },
  );
}

describe("BatchPage", () => {
  it("names and sums up a batch in words", () => {
    const b = batch([run("1", "A", "passed"), run("2", "B", "failed"), run("3", "C", "error"), run("4", "D", "queued")]);
    expect(batchSummary(b)).toBe("1 passed, 1 failed, 1 error, 1 to go of 4");
    expect(batchTitle(b)).toBe("Suite Checkout");
    expect(batchTitle({ source: "suite", suite: "", total: 2 })).toBe("Unsorted tests");
    expect(batchTitle({ source: "tests", suite: null, total: 1 })).toBe("1 test");
  });

  it("polls while runs are going, then shows the summary and each run", async () => {
    let calls = 0;
    const running = batch([run("1", "Sign in", "passed"), run("2", "Search", "running"), run("3", "Pay", "queued")]);
    const done = batch([
      run("1", "Sign in", "passed"),
      run("2", "Search", "passed"),
      run("3", "Pay", "failed", { error: "no button Pay" }),
    ]);
    fakeFetch({
      "GET /api/batches/bat_1": () => ({ body: calls++ === 0 ? running : done }),
      "GET /api/environments": { body: { environments: [] } },
    });
    renderBatch();
    const counts = () => within(screen.getByRole("region", { name: "Summary" })).getByRole("status");
    await waitFor(() => expect(counts()).toHaveTextContent("1 passed, 0 failed, 2 to go of 3"));
    expect(screen.getByRole("button", { name: "Run the failed ones again" })).toBeDisabled();
    await waitFor(() => expect(counts()).toHaveTextContent("2 passed, 1 failed of 3"), { timeout: 3000 });
    // The bar is not all one colour: the failed part shows as failed.
    const bar = screen.getByRole("progressbar", { name: "3 of 3 runs finished" });
    expect(bar).toHaveAttribute("aria-valuetext", "2 passed, 1 failed");
    expect(within(bar).getByTestId("bar-passed").style.width).toBe(`${(2 / 3) * 100}%`);
    expect(within(bar).getByTestId("bar-failed").style.width).toBe(`${(1 / 3) * 100}%`);
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Suite Checkout failed");
    const junit = screen.getByRole("link", { name: "Download JUnit XML" });
    expect(junit).toHaveAttribute("href", "/api/batches/bat_1/junit");
    expect(junit).toHaveAttribute("download");
    expect(screen.getByText("1 min 5 s")).toBeInTheDocument();
    const rows = within(screen.getByRole("table")).getAllByRole("row").slice(1);
    expect(rows.map((r) => within(r).getAllByRole("cell")[0].textContent)).toEqual(["Sign in v1", "Search v1", "Pay v1no button Pay"]);
    expect(within(rows[2]).getByRole("link", { name: "Open the run of Pay" })).toHaveAttribute("href", "/runs/3");
    expect(within(rows[2]).getByText("1/3")).toBeInTheDocument();
    // Final: no more polling.
    const seen = calls;
    await new Promise((r) => setTimeout(r, 1200));
    expect(calls).toBe(seen);
  });

  it("runs the failed ones again, or all, as a new batch and goes there", async () => {
    const { calls } = fakeFetch({
      "GET /api/batches/bat_1": { body: batch([run("1", "Sign in", "passed"), run("2", "Pay", "failed")]) },
      "GET /api/batches/bat_2": { body: batch([run("5", "Pay", "queued")], { id: "bat_2", source: "rerun", rerunOf: "bat_1" }) },
      "GET /api/environments": { body: { environments: [] } },
      "POST /api/batches/bat_1/rerun": { status: 201, body: { batchId: "bat_2", runIds: ["5"], runs: [{ runId: "5", testId: "tc_5" }] } },
    });
    renderBatch();
    await userEvent.click(await screen.findByRole("button", { name: "Run the failed ones again" }));
    await waitFor(() => expect(screen.getByTestId("where")).toHaveTextContent("/batches/bat_2"));
    const post = calls.find((c) => c.method === "POST");
    expect(post?.body).toEqual({ failedOnly: true });
    expect(post?.headers["Content-Type"]).toBe("application/json");
    expect(await screen.findByRole("link", { name: "the earlier batch" })).toHaveAttribute("href", "/batches/bat_1");
  });

  it("names the schedule that started it", async () => {
    fakeFetch({
      "GET /api/batches/bat_1": { body: batch([run("1", "Sign in", "queued")], { schedule: { id: "sch_1", name: "Nightly" } }) },
      "GET /api/environments": { body: { environments: [] } },
    });
    renderBatch();
    expect(await screen.findByRole("link", { name: "Nightly" })).toHaveAttribute("href", "/schedules");
  });

  it("shows why a rerun was refused", async () => {
    fakeFetch({
      "GET /api/batches/bat_1": { body: batch([run("1", "Sign in", "passed"), run("2", "Pay", "failed")]) },
      "GET /api/environments": { body: { environments: [] } },
      "POST /api/batches/bat_1/rerun": {
        status: 422,
        body: {
          error: "some of these tests cannot run; nothing was started",
          code: "invalid",
          issues: [{ path: "tests[0]", code: "deprecated", message: '"Pay" is Deprecated and cannot be run' }],
        },
      },
    });
    renderBatch();
    await userEvent.click(await screen.findByRole("button", { name: "Run again" }));
    expect(await screen.findByText('"Pay" is Deprecated and cannot be run')).toBeInTheDocument();
    expect(screen.getByTestId("where")).toHaveTextContent("/batches/bat_1");
  });
});

describe("BatchProgress", () => {
  it("shows failed runs and errors apart from passed ones", () => {
    const b = batch([run("1", "A", "passed"), run("2", "B", "failed"), run("3", "C", "error"), run("4", "D", "queued")]);
    renderPage(<BatchProgress b={b} />);
    const bar = screen.getByRole("progressbar", { name: "3 of 4 runs finished" });
    expect(bar).toHaveAttribute("aria-valuetext", "1 passed, 1 failed, 1 error");
    expect(within(bar).getByTestId("bar-error")).toHaveClass("batch-bar-error");
    expect(within(bar).getByTestId("bar-failed").style.width).toBe("25%");
  });
});

describe("RunTable's batch column", () => {
  it("links a run to its batch, and shows a dash for a run started alone", () => {
    renderPage(<RunTable runs={[run("1", "Sign in", "passed"), run("2", "Pay", "failed", { batchId: null })]} columns={{ batch: true }} />);
    const rows = screen.getAllByRole("row").slice(1);
    expect(within(rows[0]).getByRole("link", { name: "Batch of the run 1" })).toHaveAttribute("href", "/batches/bat_1");
    expect(within(rows[1]).queryByRole("link", { name: /Batch/ })).toBeNull();
    expect(within(rows[1]).getByText("—")).toBeInTheDocument();
  });
});
