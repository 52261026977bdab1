import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useLocation } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { HistoryRun } from "../../api/historyApi";
import { fakeFetch, renderPage } from "../../test/render";
import { TestListPage } from "./TestListPage";
import { HistoryCell, HistoryStrip, runTitle } from "./TestHistory";
import { makeTest } from "./fixtures";

afterEach(() => vi.unstubAllGlobals());

const NOW = Date.parse("2026-11-02T10:00:00Z");

function run(over: Partial<HistoryRun>): HistoryRun {
  return {
    runId: "run_1",
    status: "passed",
    durationMs: 1200,
    flaky: false,
    quarantined: false,
    startedAt: "2026-11-02T09:57:00Z",
    finishedAt: "2026-11-02T09:58:00Z",
    version: 3,
    environmentId: "env_1",
    environmentName: "Staging",
    ...over,
  };
}

// Newest first, as the hub answers.
const RECENT = [
  run({ runId: "run_3", status: "failed", finishedAt: "2026-11-02T09:58:00Z", quarantined: true }),
  run({
    runId: "run_2",
    status: "passed",
    flaky: true,
    finishedAt: "2026-11-02T09:00:00Z",
    version: 2,
    environmentName: null,
    environmentId: null,
  }),
  run({ runId: "run_1", status: "error", finishedAt: "2026-11-01T09:00:00Z" }),
];

describe("HistoryStrip", () => {
  it("draws one cell per run, newest right, each titled and linked to its run", () => {
    renderPage(<HistoryStrip runs={RECENT} now={NOW} />);
    const cells = within(screen.getByRole("list", { name: "Last runs, oldest first" })).getAllByRole("listitem");
    expect(cells.map((c) => c.getAttribute("href"))).toEqual(["/runs/run_1", "/runs/run_2", "/runs/run_3"]);
    expect(cells.map((c) => c.getAttribute("title"))).toEqual([
      "error · v3 · Staging · yesterday",
      "passed after a retry · v2 · no environment · 1 h ago",
      "failed (quarantined) · v3 · Staging · 2 min ago",
    ]);
    expect(cells[0]).toHaveClass("hs-error");
    expect(cells[1]).toHaveClass("hs-passed", "hs-flaky");
    expect(cells[2]).toHaveClass("hs-failed", "hs-quarantined");
  });

  it("says so when a test never ran", () => {
    renderPage(<HistoryStrip runs={[]} />);
    expect(screen.getByText("no runs")).toBeInTheDocument();
    expect(runTitle(run({}), NOW)).toBe("passed · v3 · Staging · 2 min ago");
  });
});

describe("HistoryCell", () => {
  it("shows the rates and the Flaky and Quarantined badges", () => {
    const quarantine = { at: "2026-11-01T00:00:00Z", by: "usr_1", byName: "Mo Manager", reason: "sandbox down" };
    renderPage(<HistoryCell history={{ recent: RECENT, passRate: 0.5, flakyRate: 0.25, flaky: true }} quarantine={quarantine} />);
    expect(screen.getByText("50% passed")).toBeInTheDocument();
    expect(screen.getByText(/25% flaky/)).toBeInTheDocument();
    expect(screen.getByText("Flaky")).toHaveClass("badge-flaky");
    expect(screen.getByText("Quarantined")).toHaveAttribute("title", "Quarantined by Mo Manager: sandbox down");
  });

  it("shows neither badge nor a rate for a steady test never judged", () => {
    renderPage(<HistoryCell history={{ recent: [], passRate: null, flakyRate: null, flaky: false }} quarantine={null} />);
    expect(screen.getByText("— passed")).toBeInTheDocument();
    expect(screen.queryByText("Flaky")).toBeNull();
    expect(screen.queryByText("Quarantined")).toBeNull();
  });
});

function Where() {
  const l = useLocation();
  return <output data-testid="where">{l.pathname + l.search}</output>;
}

describe("TestListPage history", () => {
  it("sorts by pass rate and flakiness and filters to flaky or quarantined tests, through the hub's parameters", async () => {
    const { calls } = fakeFetch({
      "GET /api/suites": { body: { suites: [] } },
      "GET /api/tests": {
        body: {
          total: 1,
          nextCursor: null,
          tests: [makeTest({ history: { recent: RECENT, passRate: 0.5, flakyRate: 0.25, flaky: true } })],
        },
      },
    });
    renderPage(
      <>
        <TestListPage />
        <Where />
      </>,
      { route: "/tests", path: "/tests" },
    );
    const row = (await screen.findAllByRole("row"))[1];
    expect(within(row).getByText("Flaky")).toBeInTheDocument();
    expect(within(row).getAllByRole("listitem")).toHaveLength(3);
    const lists = () => calls.filter((c) => c.path.startsWith("/api/tests")).map((c) => c.path);

    await userEvent.selectOptions(screen.getByLabelText("Sort"), "Flakiest first");
    await waitFor(() => expect(lists()).toContain("/api/tests?sort=-flakiness"));
    await userEvent.selectOptions(screen.getByLabelText("History"), "Flaky now");
    await waitFor(() => expect(lists()).toContain("/api/tests?sort=-flakiness&flaky=1"));
    await userEvent.selectOptions(screen.getByLabelText("History"), "Quarantined");
    await waitFor(() => expect(lists()).toContain("/api/tests?sort=-flakiness&quarantined=1"));
    await userEvent.selectOptions(screen.getByLabelText("Sort"), "Pass rate, lowest first");
    await waitFor(() => expect(lists()).toContain("/api/tests?sort=passRate&quarantined=1"));
    expect(screen.getByTestId("where")).toHaveTextContent("/tests?sort=passRate&health=quarantined");
  });
});
