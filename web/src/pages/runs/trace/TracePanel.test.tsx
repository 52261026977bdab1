// Issue 30 on the run page: a finished run's Trace section — the failed
// step selected on open, its console error and its 500 request, the
// filters, the DOM snapshot sandboxed without scripts under a policy that
// loads nothing with the target highlighted, Before, the keys, and one
// line when there is no trace.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeFetch, renderPage } from "../../../test/render";
import { FakeEventSource, installFakeEventSource } from "../../../test/eventSource";
import type { RunEvent } from "../../../api/runs";
import { RunPage } from "../RunPage";
import { tracedRoutes, tracedRun, tracedTrace } from "./traceFixtures";

installFakeEventSource();

const open = () => renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });

async function traceRegion() {
  const region = await screen.findByRole("region", { name: "Trace" });
  await within(region).findByRole("listbox", { name: "Steps of the trace" });
  return region;
}

const selectedOption = (region: HTMLElement) => within(region).getByRole("option", { selected: true });
const rowsOf = (region: HTMLElement, table: string) =>
  within(within(region).getByRole("table", { name: table }))
    .getAllByRole("row")
    .slice(1); // the header row first

describe("The run page's trace", () => {
  it("opens on the failed step, numbered as the run page numbers it, with its console error, its 500 request and its screenshot", async () => {
    fakeFetch(tracedRoutes());
    open();
    const region = await traceRegion();
    const options = within(region).getAllByRole("option");
    expect(options.map((o) => o.querySelector(".trace-step-num")?.textContent)).toEqual([
      "Step 1",
      "Step 2",
      "Step 2.1 · iteration 1",
      "Step 2.1 · iteration 2",
      "Step 3",
    ]);
    const sel = selectedOption(region);
    expect(sel).toBe(options[4]);
    expect(sel).toHaveTextContent("failed");
    expect(sel).toHaveTextContent("1 console error");
    expect(sel).toHaveTextContent("1 failed request");
    expect(options[0]).not.toHaveTextContent("console error");
    expect(within(region).getByRole("heading", { level: 3 })).toHaveTextContent("Step 3 assertText The total is 12");

    const consoleRows = rowsOf(region, "Console lines");
    const error = consoleRows.find((r) => r.textContent?.includes("TypeError: price is undefined"));
    expect(error).toHaveClass("trace-console-error");
    expect(error).toHaveTextContent("uncaught");
    expect(error).toHaveTextContent("cart.js:12:5");
    expect(error).not.toHaveClass("trace-near");

    const requests = rowsOf(region, "Network requests");
    const failed = requests.find((r) => r.textContent?.includes("/api/total"));
    expect(failed).toHaveAttribute("data-failed", "true");
    expect(failed).toHaveClass("trace-net-bad");
    expect(failed).toHaveTextContent("500");
    expect(requests.find((r) => r.textContent?.includes("logo.png"))).not.toHaveClass("trace-net-bad");
    // The step before it, greyed: what led to the failure.
    const before = requests.find((r) => r.textContent?.includes("/api/cart"));
    expect(before).toHaveClass("trace-near");
    expect(before).toHaveTextContent("2.1 · iteration 2");

    const shot = within(within(region).getByRole("region", { name: "Screenshot" })).getByRole("img");
    expect(shot).toHaveAttribute("src", "/api/runs/run_1/artifacts/step-004-total.png");
    expect(shot).toHaveAttribute("alt", "Screenshot of step 3");

    // The trace's artifacts are not listed again as the run's artifacts; others are.
    await waitFor(() => expect(FakeEventSource.all.length).toBeGreaterThan(0));
    const es = FakeEventSource.latest();
    es.open();
    let seq = 0;
    const artifact = (name: string, contentType: string, step?: number): RunEvent => {
      seq += 1;
      return { runId: "run_1", seq, time: "2026-11-02T10:00:02Z", kind: "artifact", name, contentType, step, size: 10 };
    };
    es.emitRun(artifact("trace-004-total.json", "application/json", 3));
    es.emitRun(artifact("dom-004-total.html", "text/html", 3));
    es.emitRun(artifact("notes.txt", "text/plain", 3));
    const artifacts = await screen.findByRole("region", { name: "Artifacts" });
    expect(
      within(artifacts)
        .getAllByRole("link")
        .map((a) => a.textContent),
    ).toEqual(["notes.txt"]);
  });

  it("narrows the lists to console errors and to failed requests, and shows every step's on demand", async () => {
    fakeFetch(tracedRoutes());
    open();
    const region = await traceRegion();
    expect(rowsOf(region, "Console lines")).toHaveLength(2);
    expect(rowsOf(region, "Network requests")).toHaveLength(3);

    await userEvent.click(within(region).getByRole("checkbox", { name: "Errors only" }));
    const errors = rowsOf(region, "Console lines");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toHaveTextContent("TypeError: price is undefined");
    expect(rowsOf(region, "Network requests")).toHaveLength(3);

    await userEvent.click(within(region).getByRole("checkbox", { name: "Failed requests only" }));
    const failed = rowsOf(region, "Network requests");
    expect(failed).toHaveLength(1);
    expect(failed[0]).toHaveTextContent("https://shop.test/api/total");
    expect(within(region).getByRole("heading", { name: "Network (1)" })).toBeInTheDocument();

    await userEvent.click(within(region).getByRole("checkbox", { name: "Failed requests only" }));
    await userEvent.click(within(region).getByRole("checkbox", { name: "Errors only" }));
    await userEvent.click(within(region).getByRole("checkbox", { name: "Show all steps" }));
    expect(rowsOf(region, "Console lines")).toHaveLength(3);
    expect(rowsOf(region, "Network requests")).toHaveLength(5);
    expect(rowsOf(region, "Console lines")[0]).toHaveTextContent("shop ready");

    // A console line's whole text and place, on demand.
    await userEvent.click(within(region).getByRole("button", { name: /TypeError: price is undefined/ }));
    expect(within(region).getByLabelText("The whole console line")).toHaveTextContent(
      "TypeError: price is undefined at https://shop.test/js/cart.js:12:5",
    );
  });

  it("shows the DOM snapshot in an iframe without scripts, under a policy that loads nothing, the target highlighted, and Before", async () => {
    const { calls } = fakeFetch(tracedRoutes());
    open();
    const region = await traceRegion();
    const dom = within(region).getByRole("region", { name: "DOM snapshot" });
    const frame = await within(dom).findByTitle("The page after step 3");
    expect(frame.tagName).toBe("IFRAME");
    expect(frame.getAttribute("sandbox")).toBe("allow-same-origin");
    const doc = frame.getAttribute("srcdoc") ?? "";
    // The policy first (after the doctype, which must stay first), before anything of the snapshot.
    expect(
      doc.startsWith(
        `<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"><html>`,
      ),
    ).toBe(true);
    expect(doc).toContain('<p id="total" data-ta-target>0</p>');
    // The page's highlight last, so it beats the page's own styles.
    expect(doc).toMatch(
      /<style data-ta-trace>\[data-ta-target\]\{outline:3px solid [^}]*!important[^}]*\}\[data-ta-match\]:not\(\[data-ta-target\]\)\{outline:2px dashed [^}]*\}<\/style>$/,
    );
    expect(within(dom).getByRole("link", { name: "Open in a new tab" })).toHaveAttribute(
      "href",
      "/api/runs/run_1/artifacts/dom-004-total.html",
    );

    const before = within(dom).getByRole("button", { name: "Before" });
    expect(before).toHaveAttribute("aria-pressed", "false");
    await userEvent.click(before);
    expect(before).toHaveAttribute("aria-pressed", "true");
    const beforeFrame = await within(dom).findByTitle("The page before step 3");
    expect(beforeFrame.getAttribute("sandbox")).toBe("allow-same-origin");
    expect(beforeFrame.getAttribute("srcdoc")).toContain('<p id="total">before</p>');
    expect(calls.some((c) => c.path === "/api/runs/run_1/artifacts/dom-003-add-i1-before.html")).toBe(true);
  });

  it("moves the selection with the arrow keys, Home and End, and says when a step has no snapshot", async () => {
    const routes = tracedRoutes({
      body: { ...tracedTrace, steps: tracedTrace.steps.map((s, i) => (i === 1 ? { ...s, light: true } : s)) },
    });
    fakeFetch({
      ...routes,
      "GET /api/runs/run_1/artifacts/dom-003-add-i1.html": { body: "<p>added</p>", headers: { "Content-Type": "text/html" } },
    });
    open();
    const region = await traceRegion();
    const list = within(region).getByRole("listbox", { name: "Steps of the trace" });
    list.focus();
    await userEvent.keyboard("{ArrowUp}");
    expect(selectedOption(region)).toHaveTextContent("2.1 · iteration 2");
    expect(list).toHaveAttribute("aria-activedescendant", selectedOption(region).id);
    expect(within(region).getByRole("region", { name: "Selected step 2.1 · iteration 2" })).toBeInTheDocument();
    const frame = await within(region).findByTitle("The page after step 2.1 · iteration 2");
    expect(frame.getAttribute("srcdoc")).toContain("<p>added</p>");
    // No Before for a step that passed.
    expect(within(region).queryByRole("button", { name: "Before" })).not.toBeInTheDocument();

    await userEvent.keyboard("{Home}");
    expect(selectedOption(region)).toHaveTextContent("Step 1");
    await userEvent.keyboard("{ArrowDown}");
    expect(selectedOption(region)).toHaveTextContent("Step 2");
    expect(within(region).getByTestId("trace-no-snapshot")).toHaveTextContent(
      "No DOM snapshot: the trace keeps snapshots of failed runs only (trace: failures).",
    );
    await userEvent.keyboard("{End}");
    expect(selectedOption(region)).toHaveTextContent("Step 3");
    await userEvent.click(within(region).getAllByRole("option")[0]);
    expect(selectedOption(region)).toHaveTextContent("Step 1");
  });

  it("says in one line that a run has no trace: none recorded, the trace off, and shows the hub's error otherwise", async () => {
    fakeFetch(tracedRoutes({ status: 404, body: { error: "not found", code: "not_found" } }));
    const first = open();
    expect(await screen.findByTestId("trace-none")).toHaveTextContent("No trace was recorded for this run.");
    expect(within(screen.getByRole("region", { name: "Trace" })).queryByRole("listbox")).not.toBeInTheDocument();
    expect(screen.getByRole("region", { name: "Result" })).toHaveTextContent("Failed");
    first.unmount();

    fakeFetch(tracedRoutes({ body: { mode: "off", steps: [] } }));
    const second = open();
    expect(await screen.findByTestId("trace-none")).toHaveTextContent("No trace: this run ran with the trace off.");
    second.unmount();

    fakeFetch(tracedRoutes({ status: 500, body: { error: "the database is down", code: "internal" } }));
    const third = open();
    const region = await screen.findByRole("region", { name: "Trace" });
    expect(await within(region).findByText(/the database is down/)).toBeInTheDocument();
    third.unmount();
  });

  it("has no trace section while the run goes on", async () => {
    const { calls } = fakeFetch({
      ...tracedRoutes(),
      "GET /api/runs/run_1": { status: 202, body: tracedRun({ status: "running", finishedAt: null, result: { steps: [] } }) },
    });
    open();
    await screen.findByTestId("run-passed");
    expect(screen.queryByRole("region", { name: "Trace" })).not.toBeInTheDocument();
    expect(calls.some((c) => c.path === "/api/runs/run_1/trace")).toBe(false);
  });
});
