// Issue 30: the trace panel stays fast with 200 steps and 2,000 requests:
// the timeline and the lists render the rows in view only (windowed), the
// counts say the whole, scrolling shows later rows, and the filters work
// over every row, not the rendered ones.
import { fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeFetch, renderPage } from "../../../test/render";
import type { TraceStep } from "../../../api/traceApi";
import { TracePanel } from "./TracePanel";
import { con, req, ts } from "./traceFixtures";

const STEPS = 200;
const FAILED = 150;

/** 200 steps; the failed one made 2,000 requests, every tenth answered 500, and logged 500 lines, every fifth an error. */
function bigTrace(): TraceStep[] {
  return Array.from({ length: STEPS }, (_, i) =>
    i === FAILED
      ? ts(i, `s${i}`, "click", "failed", {
          network: Array.from({ length: 2000 }, (_, k) => req(k, `https://shop.test/api/item/${k}`, k % 10 === 0 ? 500 : 200)),
          console: Array.from({ length: 500 }, (_, k) => con(k, k % 5 === 0 ? "error" : "log", `line ${k}`)),
        })
      : ts(i, `s${i}`, "click", "passed", { network: [req(i, `https://shop.test/page/${i}`, 200)] }),
  );
}

function show() {
  fakeFetch({ "GET /api/runs/run_1/trace": { body: { mode: "on", steps: bigTrace() } } });
  renderPage(<TracePanel runId="run_1" executions={[]} number={(i) => String(i + 1)} describe={() => "Click the button"} />);
}

const table = (name: string) => screen.getByRole("table", { name });
const rendered = (name: string) => within(table(name)).getAllByRole("row").length - 1;

describe("The trace panel with 200 steps and 2,000 requests", () => {
  it("renders only the rows in view, scrolls to later ones, and filters over all of them", async () => {
    show();
    const list = await screen.findByRole("listbox", { name: "Steps of the trace" });
    const options = within(list).getAllByRole("option");
    // The failed step is selected and in view; the timeline renders a window around it.
    expect(options.length).toBeLessThan(30);
    expect(within(list).getByRole("option", { selected: true })).toHaveTextContent("Step 151");

    // Its 2,000 requests and its neighbours' two: the table says so, and renders a few.
    expect(screen.getByRole("heading", { name: "Network (2002)" })).toBeInTheDocument();
    expect(table("Network requests")).toHaveAttribute("aria-rowcount", "2003");
    expect(rendered("Network requests")).toBeLessThanOrEqual(30);
    expect(rendered("Console lines")).toBeLessThanOrEqual(30);

    // Scrolled down the list, the rows there are rendered, still a few.
    const scroller = table("Network requests").querySelector(".trace-window") as HTMLElement;
    fireEvent.scroll(scroller, { target: { scrollTop: 26 * 1500 } });
    expect(within(table("Network requests")).getByText("https://shop.test/api/item/1499")).toBeInTheDocument();
    expect(within(table("Network requests")).queryByText("https://shop.test/api/item/3")).not.toBeInTheDocument();
    expect(rendered("Network requests")).toBeLessThanOrEqual(30);

    await userEvent.click(screen.getByRole("checkbox", { name: "Failed requests only" }));
    expect(screen.getByRole("heading", { name: "Network (200)" })).toBeInTheDocument();
    const failed = within(table("Network requests")).getAllByRole("row").slice(1);
    expect(failed.length).toBeLessThanOrEqual(30);
    for (const r of failed) expect(r).toHaveTextContent("500");

    await userEvent.click(screen.getByRole("checkbox", { name: "Errors only" }));
    expect(screen.getByRole("heading", { name: "Console (100)" })).toBeInTheDocument();

    // Every step's requests: 2,000 and 199, the failed ones still 200.
    await userEvent.click(screen.getByRole("checkbox", { name: "Failed requests only" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Show all steps" }));
    expect(screen.getByRole("heading", { name: "Network (2199)" })).toBeInTheDocument();
    expect(rendered("Network requests")).toBeLessThanOrEqual(30);

    // Moving to the last step keeps the selection rendered and in view.
    list.focus();
    await userEvent.keyboard("{End}");
    expect(within(list).getByRole("option", { selected: true })).toHaveTextContent("Step 200");
    expect(within(list).getAllByRole("option").length).toBeLessThan(30);
  });
});
