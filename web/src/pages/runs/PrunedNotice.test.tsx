// Retention (issue 32, docs/retention.md) on the run page: a run whose
// screenshots and trace were removed says so, with the date, where its
// pictures and trace would be, and asks for none of them; a comparison
// with a pruned run says so too.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import { installFakeEventSource } from "../../test/eventSource";
import { formatDate } from "../../components/ui";
import { RunPage } from "./RunPage";
import { tracedRun } from "./trace/traceFixtures";
import { baselineRun, comparedRoutes, comparison } from "./compare/compareFixtures";

installFakeEventSource();
afterEach(() => vi.unstubAllGlobals());

const at = "2026-11-20T03:00:00Z";
const words = `Screenshots and trace were removed on ${formatDate(at)} by the retention setting.`;
const open = () => renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });

const rowDoc = { dsl: 2, name: "Sign in", data: { set: "tds_users00000000000000" }, steps: [{ id: "open", type: "navigate", url: "/" }] };
const rowStep = { index: 0, id: "open", type: "navigate", status: "failed" as const, durationMs: 300, screenshot: "step-001-open.png" };

describe("a run pruned by retention", () => {
  it("says when its screenshots and trace were removed and shows none of them", async () => {
    const d = comparison().diverged!;
    const { calls } = fakeFetch({
      ...comparedRoutes({ body: comparison({ artifactsPrunedAt: at, diverged: { ...d, screenshot: "", pixels: null } }) }),
      "GET /api/runs/run_1": { status: 200, body: tracedRun({ version: 2, artifactsPrunedAt: at }) },
    });
    open();
    expect(await screen.findByTestId("run-pruned")).toHaveTextContent(words);
    expect(screen.getByTestId("run-pruned")).toHaveTextContent("The steps, their results and errors are kept.");
    expect(screen.getByRole("region", { name: "Trace" })).toHaveTextContent(words);
    expect(screen.queryByRole("button", { name: /Open screenshot/ })).not.toBeInTheDocument();
    const region = await screen.findByRole("region", { name: "Since it last passed" });
    expect(await within(region).findByText(`Of this run: ${words}`)).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.path === "/api/runs/run_1/compare")).toBe(true));
    // Nothing of this run's artifacts is asked for: no broken pictures, no empty trace.
    const ownImages = [...document.querySelectorAll("img")].filter((i) => i.getAttribute("src")?.startsWith("/api/runs/run_1/"));
    expect(ownImages).toHaveLength(0);
    expect(calls.some((c) => c.path.startsWith("/api/runs/run_1/trace") || c.path.startsWith("/api/runs/run_1/artifacts/"))).toBe(false);
  });

  it("says so in the comparison when the run compared with was pruned, and nothing on a run that kept its own", async () => {
    const d = comparison().diverged!;
    fakeFetch(
      comparedRoutes({
        body: comparison({ baseline: { ...baselineRun, artifactsPrunedAt: at }, diverged: { ...d, baselineScreenshot: "", pixels: null } }),
      }),
    );
    open();
    const region = await screen.findByRole("region", { name: "Since it last passed" });
    expect(await within(region).findByTestId("compare-pruned")).toHaveTextContent(`Of the last passed run: ${words}`);
    expect(screen.queryByTestId("run-pruned")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: /Open screenshot/ })).toBeInTheDocument();
  });

  it("offers no screenshot in a data-driven run's rows", async () => {
    const row = { row: 0, values: { email: "ann@example.com" }, status: "failed" as const, passed: 0, total: 1, durationMs: 300 };
    const run = tracedRun({ document: rowDoc, dataSetId: "tds_users00000000000000", rows: [row], artifactsPrunedAt: at });
    fakeFetch({
      "GET /api/runs/run_1": { body: run },
      "GET /api/tests/tc_1/versions/1": { body: { version: 1, document: rowDoc } },
      "GET /api/runs/run_1/rows/0": { body: { ...row, steps: [rowStep] } },
    });
    const user = userEvent.setup();
    open();
    expect(await screen.findByTestId("run-pruned")).toHaveTextContent(words);
    await user.click(await screen.findByRole("button", { name: "Open row 1" }));
    const dialog = await screen.findByRole("dialog", { name: "Row 1" });
    expect(await within(dialog).findByText(words)).toBeInTheDocument();
    expect(within(dialog).getByTestId("row-step-1")).toHaveTextContent("failed");
    expect(within(dialog).queryByRole("button", { name: /Open screenshot/ })).not.toBeInTheDocument();
    expect(dialog.querySelector("img")).toBeNull();
  });
});
