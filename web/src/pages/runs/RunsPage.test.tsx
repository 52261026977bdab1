import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useQueryClient } from "@tanstack/react-query";
import { fakeFetch, renderPage } from "../../test/render";
import type { Run } from "../../api/runs";
import { RunsPage } from "./RunsPage";

function makeRun(id: string, over: Partial<Run> = {}): Run {
  return {
    runId: id,
    testId: "tc_1",
    testName: "Sign in",
    batchId: null,
    projectId: "prj_1",
    environmentId: "env_1",
    status: "passed",
    passed: 4,
    total: 4,
    durationMs: 3200,
    version: 2,
    options: { headed: false, screenshots: true, retries: 0 },
    flaky: false,
    quarantined: false,
    result: { steps: [] },
    attempts: 1,
    startedBy: "usr_2",
    startedByName: "Bo Builder",
    createdAt: "2026-11-02T10:00:00Z",
    startedAt: "2026-11-02T10:00:01Z",
    finishedAt: "2026-11-02T10:00:05Z",
    ...over,
  };
}

const common = {
  "GET /api/environments": { body: { environments: [{ id: "env_1", projectId: "prj_1", name: "Staging" }] } },
  "GET /api/tests": {
    body: {
      tests: [
        { id: "tc_1", name: "Sign in" },
        { id: "tc_2", name: "Checkout" },
      ],
      total: 2,
      nextCursor: null,
    },
  },
  "GET /api/tests/tc_2": { body: { id: "tc_2", name: "Checkout" } },
};

afterEach(() => vi.unstubAllGlobals());

describe("RunsPage", () => {
  it("lists runs with their figures and loads more with the cursor", async () => {
    const { calls } = fakeFetch({
      ...common,
      "GET /api/runs": (c) =>
        c.path.includes("cursor=c2")
          ? { body: { runs: [makeRun("run_3", { testName: "Old one", testId: "tc_9" })], nextCursor: null } }
          : {
              body: {
                runs: [
                  makeRun("run_1"),
                  makeRun("run_2", { status: "failed", passed: 1, total: 4, environmentId: null, startedBy: "usr_me" }),
                  // Data-driven: its figures count rows.
                  makeRun("run_4", { status: "failed", passed: 2, total: 3, dataSetId: "tds_1" }),
                ],
                nextCursor: "c2",
              },
            },
    });
    renderPage(<RunsPage />, { route: "/runs", path: "/runs" });
    const row = (await screen.findByRole("link", { name: "run_1" })).closest("tr");
    if (!row) throw new Error("no row");
    expect(within(row).getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/tests/tc_1");
    expect(within(row).getByText("4/4")).toBeInTheDocument();
    expect(within(row).getByText("3.2 s")).toBeInTheDocument();
    expect(await within(row).findByText("Staging")).toBeInTheDocument();
    expect(await within(row).findByText("Bo Builder")).toBeInTheDocument();
    const row2 = screen.getByRole("link", { name: "run_2" }).closest("tr");
    if (!row2) throw new Error("no row");
    expect(within(row2).getByText("Mia Tester (you)")).toBeInTheDocument();
    expect(within(row2).getByText("1/4")).toBeInTheDocument();
    const row4 = screen.getByRole("link", { name: "run_4" }).closest("tr");
    if (!row4) throw new Error("no row");
    expect(within(row4).getByText("2/3 rows")).toBeInTheDocument();
    expect(screen.getByRole("columnheader", { name: "Passed" })).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Load more" }));
    expect(await screen.findByRole("link", { name: "run_3" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "run_1" })).toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith("/api/runs?") && c.path.includes("cursor=c2"))).toBe(true);
    expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
  });

  it("is one test's history with ?testId= and passes the filters to the hub", async () => {
    const { calls } = fakeFetch({
      ...common,
      "GET /api/runs": { body: { runs: [makeRun("run_7", { testId: "tc_2", testName: "Checkout" })], nextCursor: null } },
    });
    renderPage(<RunsPage />, { route: "/runs?testId=tc_2", path: "/runs" });
    expect(await screen.findByRole("heading", { name: "Runs of Checkout" })).toBeInTheDocument();
    await screen.findByRole("link", { name: "run_7" });
    expect(calls.some((c) => c.path.startsWith("/api/runs?") && c.path.includes("testId=tc_2"))).toBe(true);

    await userEvent.selectOptions(screen.getByLabelText("Status"), "failed");
    await waitFor(() => expect(calls.some((c) => c.path.includes("testId=tc_2") && c.path.includes("status=failed"))).toBe(true));
  });

  it("says when nothing matches", async () => {
    fakeFetch({ ...common, "GET /api/runs": { body: { runs: [], nextCursor: null } } });
    renderPage(<RunsPage />, { route: "/runs?status=error", path: "/runs" });
    expect(await screen.findByText(/No runs match these filters/)).toBeInTheDocument();
  });

  it("refreshes the test filter when another screen adds a test, and names a removed starter as a former member", async () => {
    let changed = false;
    fakeFetch({
      ...common,
      "GET /api/tests": () => ({
        body: {
          tests: [{ id: "tc_1", name: "Sign in" }, ...(changed ? [{ id: "tc_3", name: "Brand new" }] : [])],
          total: 1,
          nextCursor: null,
        },
      }),
      "GET /api/runs": { body: { runs: [makeRun("run_1", { startedBy: "", startedByName: null })], nextCursor: null } },
    });
    // What a new test (CreateTestDialog) invalidates.
    function OtherScreen() {
      const qc = useQueryClient();
      const change = () => {
        changed = true;
        void qc.invalidateQueries({ queryKey: ["tests"] });
      };
      return (
        <button type="button" onClick={change}>
          change
        </button>
      );
    }
    renderPage(
      <>
        <RunsPage />
        <OtherScreen />
      </>,
      { route: "/runs", path: "/runs" },
    );
    const row = (await screen.findByRole("link", { name: "run_1" })).closest("tr");
    if (!row) throw new Error("no row");
    expect(within(row).getByText("a former member")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "change" }));
    expect(await within(screen.getByLabelText("Test")).findByRole("option", { name: "Brand new" })).toBeInTheDocument();
  });
});
