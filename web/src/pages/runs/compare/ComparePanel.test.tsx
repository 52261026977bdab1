// Issue 30's "Since it last passed" on the run page: a failed run compared
// with the last passed run names the step where they diverged (numbered
// as the page numbers steps) and why, shows both screenshots and the
// pixel overlay on demand, the requests whose status changed, the new
// console errors and the document's diff; one line when there is no
// baseline or the hub refuses, the rest of the page unchanged.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../../test/render";
import { installFakeEventSource } from "../../../test/eventSource";
import { RunPage } from "../RunPage";
import { tracedRun, tracedSteps, tracedTrace } from "../trace/traceFixtures";
import { comparedRoutes, comparison } from "./compareFixtures";

installFakeEventSource();
afterEach(() => vi.unstubAllGlobals());

const open = () => renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
const section = () => screen.findByRole("region", { name: "Since it last passed" });

describe("Since it last passed", () => {
  it("names the baseline and the diverging step with its number, both statuses and the reason", async () => {
    fakeFetch(comparedRoutes());
    open();
    const region = await section();
    const baseline = await within(region).findByTestId("compare-baseline");
    const link = within(baseline).getByRole("link");
    expect(link).toHaveAttribute("href", "/runs/run_0");
    expect(link.textContent).toMatch(/^the passed run of .*2026/);
    expect(baseline).toHaveTextContent(/, version 1\.$/);

    const diverged = within(region).getByRole("region", { name: "Where the runs diverged" });
    expect(within(diverged).getByTestId("cmp-diverged-step")).toHaveTextContent("Step 3 assertText The total is 12");
    expect(within(diverged).getByTestId("cmp-diverged-reason")).toHaveTextContent("Failed here; passed in the last passed run.");
    expect(diverged).toHaveTextContent("This run: failed; the last passed run: passed");
  });

  it("numbers a step inside a loop as the run page does, and selects it in the trace", async () => {
    const d = {
      ...comparison().diverged!,
      index: 2,
      iteration: [1],
      id: "add",
      type: "click",
      status: "passed" as const,
      baselineStatus: "" as const,
      reason: "not_in_baseline" as const,
      screenshot: "",
      baselineScreenshot: "",
      pixels: null,
    };
    fakeFetch(comparedRoutes({ body: comparison({ diverged: d }) }));
    open();
    const region = await section();
    const diverged = await within(region).findByRole("region", { name: "Where the runs diverged" });
    expect(within(diverged).getByTestId("cmp-diverged-step")).toHaveTextContent("Step 2.1 · iteration 2 click Add a book");
    expect(within(diverged).getByTestId("cmp-diverged-reason")).toHaveTextContent("Not run in the last passed run.");
    expect(diverged).toHaveTextContent("This run: passed; the last passed run: not run");
    // No screenshot of either run: no screenshot part.
    expect(within(region).queryByRole("region", { name: "Screenshots of that step" })).not.toBeInTheDocument();

    const trace = await screen.findByRole("region", { name: "Trace" });
    await within(trace).findByRole("listbox", { name: "Steps of the trace" });
    expect(within(trace).getByRole("option", { selected: true })).toHaveTextContent("Step 3");
    await userEvent.click(await within(diverged).findByRole("button", { name: "Show step 2.1 · iteration 2 in the trace" }));
    expect(within(trace).getByRole("option", { selected: true })).toHaveTextContent("Step 2.1 · iteration 2");
  });

  it("reads a retried run's last attempt, and shows the step there even from an earlier attempt", async () => {
    // Both attempts failed; attempt 1's trace stopped at step 1, attempt 2's holds step 3, which the comparison names.
    const run = tracedRun({ version: 2 });
    const attemptResults = [
      {
        attempt: 1,
        status: "failed" as const,
        passed: 0,
        total: 3,
        durationMs: 900,
        error: "step 1 failed",
        steps: run.result.steps.slice(0, 1),
      },
      { attempt: 2, status: "failed" as const, passed: 2, total: 3, durationMs: 1100, error: run.error, steps: run.result.steps },
    ];
    fakeFetch({
      ...comparedRoutes(),
      "GET /api/runs/run_1": { body: { ...run, options: { ...run.options, retries: 1 }, attemptResults } },
      "GET /api/runs/run_1/trace": { body: { ...tracedTrace, steps: tracedSteps.slice(0, 1) } },
      "GET /api/runs/run_1/trace?attempt=2": { body: tracedTrace },
    });
    open();
    const diverged = await within(await section()).findByRole("region", { name: "Where the runs diverged" });
    const show = await within(diverged).findByRole("button", { name: "Show step 3 in the trace" });
    const attempts = screen.getByRole("group", { name: "Attempts" });
    await userEvent.click(within(attempts).getByRole("button", { name: "Attempt 1 · failed" }));
    await userEvent.click(show);
    expect(within(attempts).getByRole("button", { name: "Attempt 2 · failed" })).toHaveAttribute("aria-pressed", "true");
    const trace = await screen.findByRole("region", { name: "Trace" });
    await waitFor(() => expect(within(trace).getByRole("option", { selected: true })).toHaveTextContent("Step 3"));
  });

  it("says a step the baseline ran and this run did not", async () => {
    const d = { ...comparison().diverged!, status: "" as const, baselineStatus: "passed" as const, reason: "not_run" as const };
    fakeFetch(comparedRoutes({ body: comparison({ diverged: d }) }));
    open();
    const reason = await within(await section()).findByTestId("cmp-diverged-reason");
    expect(reason).toHaveTextContent("Ran in the last passed run, not here.");
    // This run did not run it: nothing to show in its trace.
    expect(within(await section()).queryByRole("button", { name: /in the trace/ })).not.toBeInTheDocument();
  });

  it("shows both screenshots side by side and lays the differing pixels over this run's when asked", async () => {
    fakeFetch(comparedRoutes());
    open();
    const region = await section();
    const shots = await within(region).findByRole("region", { name: "Screenshots of that step" });
    expect(within(shots).getByRole("img", { name: "Screenshot of this run" })).toHaveAttribute(
      "src",
      "/api/runs/run_1/artifacts/step-004-total.png",
    );
    expect(within(shots).getByRole("img", { name: "Screenshot of the last passed run" })).toHaveAttribute(
      "src",
      "/api/runs/run_0/artifacts/step-004-total-0.png",
    );
    expect(within(shots).getByTestId("cmp-pixels")).toHaveTextContent("2.5% of the pixels differ.");
    expect(within(shots).queryByRole("img", { name: "Pixels that differ, in magenta" })).not.toBeInTheDocument();
    await userEvent.click(within(shots).getByLabelText("Show differences"));
    const overlay = within(shots).getByRole("img", { name: "Pixels that differ, in magenta" });
    expect(overlay).toHaveAttribute("src", "/api/runs/run_1/compare/pixels.png");
    // Laid on this run's screenshot, in the same frame.
    expect(overlay.parentElement).toBe(within(shots).getByRole("img", { name: "Screenshot of this run" }).parentElement);
    await userEvent.click(within(shots).getByLabelText("Show differences"));
    expect(within(shots).queryByRole("img", { name: "Pixels that differ, in magenta" })).not.toBeInTheDocument();
  });

  it("lists the requests whose status changed, the new console errors and the document's diff", async () => {
    fakeFetch(comparedRoutes());
    open();
    const region = await section();
    const table = await within(region).findByRole("table", { name: "Requests whose status changed" });
    const rows = within(table)
      .getAllByRole("row")
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole("cell")
          .map((c) => c.textContent),
      );
    expect(rows).toEqual([
      ["3", "GET", "https://shop.test/api/total", "200", "500"],
      ["2.1 · iteration 2", "POST", "https://shop.test/api/cart", "201", "failed: connection refused"],
    ]);

    const errors = within(within(region).getByRole("list", { name: "New console errors" })).getAllByRole("listitem");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toHaveTextContent("TypeError: price is undefined cart.js:12:5 step 3");

    const doc = within(region).getByRole("region", { name: "Document changes" });
    expect(doc).toHaveTextContent("This run ran version 2; the last passed run ran version 1.");
    const diff = within(within(doc).getByRole("list", { name: "Changes from version 1 to 2" })).getAllByRole("listitem");
    expect(diff.map((li) => li.getAttribute("data-op"))).toEqual(["same", "change", "add"]);
    expect(diff[1]).toHaveTextContent("(total)");
    expect(diff[2]).toHaveTextContent("(coupon)");
  });

  it("says the steps are the same when the document did not change", async () => {
    fakeFetch(comparedRoutes({ body: comparison({ document: null }) }));
    open();
    const doc = await within(await section()).findByRole("region", { name: "Document changes" });
    expect(doc).toHaveTextContent("Same steps (version 1).");
  });

  it("shows the changes of a Draft saved again under the same version", async () => {
    const base = comparison();
    fakeFetch(comparedRoutes({ body: comparison({ document: { ...base.document!, version: 1, baselineVersion: 1 } }) }));
    open();
    const doc = await within(await section()).findByRole("region", { name: "Document changes" });
    expect(doc).toHaveTextContent("Both ran version 1, edited in between (a Draft saved again).");
    const diff = within(within(doc).getByRole("list", { name: "Changes to version 1 since the last passed run" })).getAllByRole("listitem");
    expect(diff.map((li) => li.getAttribute("data-op"))).toEqual(["same", "change", "add"]);
  });

  it("says in one line that there is no passed run to compare with", async () => {
    const note = "No passed run of this test on this environment before this one.";
    fakeFetch(
      comparedRoutes({ body: { runId: "run_1", baseline: null, note, diverged: null, requests: [], consoleErrors: [], document: null } }),
    );
    open();
    const region = await section();
    expect(await within(region).findByTestId("compare-none")).toHaveTextContent(note);
    expect(within(region).queryByRole("region")).not.toBeInTheDocument();
    expect(within(region).queryByRole("table")).not.toBeInTheDocument();
  });

  it.each([
    [409, "run_not_finished", "run is running", "This run is compared once it has finished."],
    [404, "not_found", "not found", "No comparison is available for this run."],
    [422, "data_driven", "a data-driven run's rows are not compared yet", "Not compared: a data-driven run's rows are not compared yet"],
  ])("a %i answer shows one line in the section, the rest of the page as it was", async (status, code, error, line) => {
    fakeFetch(comparedRoutes({ status, body: { error, code } }));
    open();
    const region = await section();
    expect(await within(region).findByTestId("compare-none")).toHaveTextContent(line);
    expect(within(region).queryByRole("alert")).not.toBeInTheDocument();
    const trace = await screen.findByRole("region", { name: "Trace" });
    await within(trace).findByRole("listbox", { name: "Steps of the trace" });
  });

  it("is not shown for a passed run", async () => {
    const { calls } = fakeFetch({ ...comparedRoutes(), "GET /api/runs/run_1": { body: tracedRun({ version: 2, status: "passed" }) } });
    open();
    await screen.findByRole("region", { name: "Trace" });
    expect(screen.queryByRole("region", { name: "Since it last passed" })).not.toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.path.endsWith("/trace"))).toBe(true));
    expect(calls.some((c) => c.path.includes("/compare"))).toBe(false);
  });
});
