import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import type { Dashboard } from "../../api/runs";
import { DashboardPage } from "./DashboardPage";
import { fillDays } from "./charts";

function today(offset = 0): string {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + offset)).toISOString().slice(0, 10);
}

const figures: Dashboard = {
  testsByStatus: { Draft: 2, Ready: 5, Deprecated: 1 },
  last7Days: { total: 10, passed: 8, failed: 2, passRate: 0.8 },
  last30Days: { total: 40, passed: 30, failed: 8, passRate: 0.75 },
  runsPerDay: [
    { day: today(-3), total: 4, passed: 2, failed: 2, passRate: 0.5 },
    { day: today(0), total: 6, passed: 6, failed: 0, passRate: 1 },
  ],
  slowest: [{ testId: "tc_slow", name: "Big checkout", runs: 7, failures: 1, avgDurationMs: 42_000 }],
  mostFailing: [{ testId: "tc_flaky", name: "Flaky search", runs: 8, failures: 4, avgDurationMs: 3000 }],
  flakiest: [{ testId: "tc_flaky", name: "Flaky search", flaky: true, flakyRate: 0.25, passRate: 0.5, quarantined: true }],
};

afterEach(() => vi.unstubAllGlobals());

describe("fillDays", () => {
  it("gives every day of the window, oldest first, with zeros where no run finished", () => {
    const now = Date.UTC(2026, 10, 3, 12);
    const days = fillDays([{ day: "2026-11-02", total: 3, passed: 3, failed: 0, passRate: 1 }], now, 5);
    expect(days.map((d) => d.day)).toEqual(["2026-10-30", "2026-10-31", "2026-11-01", "2026-11-02", "2026-11-03"]);
    expect(days.map((d) => d.total)).toEqual([0, 0, 0, 3, 0]);
  });
});

describe("DashboardPage", () => {
  it("shows the figures, accessible charts and the test tables", async () => {
    fakeFetch({ "GET /api/dashboard": { body: figures }, "GET /api/runs": { body: { runs: [], nextCursor: null } } });
    renderPage(<DashboardPage />);
    const week = await screen.findByRole("region", { name: "Pass rate, last 7 days" });
    expect(week).toHaveTextContent("80%");
    expect(week).toHaveTextContent("8 of 10 runs passed");
    expect(screen.getByRole("region", { name: "Tests" })).toHaveTextContent("5 Ready · 2 Draft · 1 Deprecated");

    const bars = screen.getByRole("img", { name: /^Runs per day over the last 30 days: 10 runs, 8 passed, 2 failed/ });
    expect(bars.querySelectorAll("rect.bar-passed")).toHaveLength(2);
    expect(bars.querySelector("title")).toHaveTextContent("Runs per day");
    const rate = screen.getByRole("img", { name: /^Pass rate per day/ });
    expect(rate).toHaveAccessibleName(/lowest 50%/);
    expect(screen.getByRole("table", { name: "Runs per day" })).toBeInTheDocument();
    expect(within(screen.getByRole("table", { name: "Pass rate per day" })).getAllByRole("row")).toHaveLength(3);

    const slow = screen.getByRole("table", { name: "Slowest tests" });
    expect(within(slow).getByRole("link", { name: "Big checkout" })).toHaveAttribute("href", "/tests/tc_slow");
    expect(within(slow).getByText("42.0 s")).toBeInTheDocument();
    const failing = screen.getByRole("table", { name: "Most failing tests" });
    expect(within(failing).getByRole("link", { name: "Flaky search" })).toHaveAttribute("href", "/tests/tc_flaky");
    expect(within(failing).getByText("50%")).toBeInTheDocument();
  });

  it("explains how to begin in a project without runs", async () => {
    fakeFetch({
      "GET /api/dashboard": {
        body: {
          ...figures,
          testsByStatus: { Draft: 0, Ready: 0, Deprecated: 0 },
          last7Days: { total: 0, passed: 0, failed: 0, passRate: 0 },
          last30Days: { total: 0, passed: 0, failed: 0, passRate: 0 },
          runsPerDay: [],
          slowest: [],
          mostFailing: [],
        },
      },
      "GET /api/runs": { body: { runs: [], nextCursor: null } },
    });
    renderPage(<DashboardPage />);
    expect(await screen.findByText("No runs yet: create a test and run it.")).toBeInTheDocument();
    expect(screen.getAllByRole("link", { name: "Tests" }).some((a) => a.getAttribute("href") === "/tests")).toBe(true);
    expect(screen.queryByRole("img")).not.toBeInTheDocument();
  });

  it("shows why the figures could not be loaded", async () => {
    fakeFetch({ "GET /api/dashboard": { status: 500, body: { error: "internal error", code: "internal" } } });
    renderPage(<DashboardPage />);
    expect(await screen.findByRole("alert")).toHaveTextContent("internal error");
  });
});
