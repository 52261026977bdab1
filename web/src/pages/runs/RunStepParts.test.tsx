import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { renderPage } from "../../test/render";
import { serveRun, storedRun } from "./runPageFixtures";
import { installFakeEventSource } from "../../test/eventSource";
import type { Run } from "../../api/runs";
import { RunPage } from "./RunPage";

// The stream sends nothing: the page shows the stored record.
installFakeEventSource();

const document = {
  dsl: 2,
  name: "Rows",
  steps: [
    { id: "s1", type: "navigate", url: "https://shop.test/" },
    { id: "s2", type: "script", code: "console.log('rows', 3); return 3" },
    { id: "s3", type: "setVariable", name: "label", target: { locators: [{ kind: "css", value: "#q" }] } },
    { id: "s4", type: "click", target: { locators: [{ kind: "css", value: "#go" }] } },
  ],
};

function makeRun(over: Partial<Run> = {}): Run {
  return storedRun({
    testName: "Rows",
    status: "failed",
    passed: 3,
    total: 4,
    options: { headed: true, screenshots: true, retries: 0 },
    result: {
      steps: [
        { index: 0, id: "s1", type: "navigate", status: "passed", durationMs: 100, screenshot: "step-001-s1.jpg" },
        {
          index: 1,
          id: "s2",
          type: "script",
          status: "passed",
          durationMs: 100,
          screenshotError: "no screenshot: the browser drew no picture of the page in 3s (is its window minimized or hidden?)",
          used: { result: "3", console: "[log] rows 3\n[warn] pw ***" },
        },
        { index: 2, id: "s3", type: "setVariable", status: "passed", durationMs: 100, used: { name: "label", result: "Quantity" } },
        {
          index: 3,
          id: "s4",
          type: "click",
          status: "failed",
          durationMs: 500,
          error: "no element",
          screenshot: "step-004-s4-failure.png",
        },
      ],
    },
    document,
    ...over,
  });
}

describe("RunPage steps", () => {
  it("shows what a script returned and logged, and what setVariable captured", async () => {
    serveRun(makeRun(), document);
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    const script = await screen.findByTestId("step-2");
    expect(within(script).getByTestId("step-2-used")).toHaveTextContent("value 3");
    expect(within(script).getByLabelText("Console")).toHaveTextContent("[log] rows 3 [warn] pw ***");
    expect(within(screen.getByTestId("step-3")).getByTestId("step-3-used")).toHaveTextContent("captured Quantity");
  });

  it("says on the step when its screenshot is missing", async () => {
    serveRun(makeRun(), document);
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    const script = await screen.findByTestId("step-2");
    expect(within(script).getByRole("note")).toHaveTextContent("No screenshot: the browser drew no picture of the page in 3s");
    expect(within(screen.getByTestId("step-1")).queryByRole("note")).not.toBeInTheDocument();
  });

  it("shows the screenshots as a filmstrip with each step's number and status", async () => {
    serveRun(makeRun(), document);
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    const film = await screen.findByRole("region", { name: "Screenshots" });
    const items = within(film).getAllByRole("listitem");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent("Step 1 passed");
    expect(items[1]).toHaveTextContent("Step 4 failed");
    expect(items[1].querySelector("img")).toHaveAttribute("src", "/api/runs/run_1/artifacts/step-004-s4-failure.png");
    await userEvent.click(within(film).getByRole("button", { name: "Open screenshot of step 4" }));
    expect(await screen.findByRole("dialog", { name: "Screenshot of step 4" })).toBeInTheDocument();
  });

  it("lists the steps still to come of a live run, greyed", async () => {
    serveRun(
      makeRun({
        status: "running",
        passed: 0,
        finishedAt: null,
        result: { steps: [{ index: 0, id: "s1", type: "navigate", status: "passed", durationMs: 100 }] },
      }),
      document,
      202,
    );
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    const pending = await screen.findByRole("list", { name: "Steps to come" });
    const items = within(pending).getAllByRole("listitem");
    expect(items.map((li) => li.getAttribute("data-testid"))).toEqual(["pending-2", "pending-3", "pending-4"]);
    expect(items[0]).toHaveTextContent("script");
    expect(items[0]).toHaveTextContent("pending");
    expect(items[0]).toHaveClass("run-step-pending");
    expect(screen.getByTestId("step-1")).toHaveTextContent("passed");
  });
});
