// Issue 30's run option trace in the web app: the run dialogs send the
// mode chosen (nothing at the default, the hub's failures), the run
// page's facts say the mode a run ran with, and "Run again" keeps it.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import { installFakeEventSource } from "../../test/eventSource";
import type { Test } from "../../api";
import { StartRunButton } from "./StartRunButton";
import { BatchRunDialog } from "./BatchRunDialog";
import { RunPage } from "./RunPage";
import { storedRun } from "./runPageFixtures";

installFakeEventSource();

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const test = {
  id: "tc_1",
  projectId: "prj_1",
  name: "Checkout",
  version: 4,
  can: { run: true },
} as unknown as Test;

const started = { "POST /api/runs": { status: 201, body: { runId: "run_42", status: "queued" } } };

async function startWithTrace(choice: string | null) {
  const { calls } = fakeFetch(started);
  renderPage(<StartRunButton test={test} />, { route: "/tests/tc_1", path: "/tests/:id" });
  await userEvent.click(screen.getByRole("button", { name: "Run" }));
  const dialog = await screen.findByRole("dialog", { name: "Run Checkout" });
  const select = within(dialog).getByLabelText("Trace");
  expect(select).toHaveValue("failures");
  expect(
    within(select)
      .getAllByRole("option")
      .map((o) => o.textContent),
  ).toEqual(["On failure (default)", "Every step", "Off"]);
  if (choice) await userEvent.selectOptions(select, choice);
  await userEvent.click(within(dialog).getByRole("button", { name: "Start run" }));
  await screen.findByTestId("elsewhere");
  return calls.find((c) => c.method === "POST")?.body as Record<string, unknown>;
}

describe("The run option trace", () => {
  it("a test's run dialog sends the trace chosen", async () => {
    expect((await startWithTrace("Every step")).trace).toBe("on");
  });

  it("a test's run dialog sends off when the trace is off", async () => {
    expect((await startWithTrace("Off")).trace).toBe("off");
  });

  it("a test's run dialog leaves the default to the hub", async () => {
    expect(await startWithTrace(null)).not.toHaveProperty("trace");
  });

  it("the batch dialog sends the trace chosen", async () => {
    const { calls } = fakeFetch({ "POST /api/runs": { status: 201, body: { batchId: "bat_1", runs: [] } } });
    renderPage(
      <BatchRunDialog
        title="Run 2 tests"
        summary="2 tests"
        selection={{ testIds: ["tc_1", "tc_2"] }}
        projectId="prj_1"
        onClose={() => {}}
      />,
    );
    const dialog = await screen.findByRole("dialog", { name: "Run 2 tests" });
    await userEvent.selectOptions(within(dialog).getByLabelText("Trace"), "Every step");
    await userEvent.click(within(dialog).getByRole("button", { name: "Start runs" }));
    await waitFor(() => expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({ testIds: ["tc_1", "tc_2"], trace: "on" }));
  });

  it("the run page's facts say the trace mode, and Run again keeps it", async () => {
    const run = storedRun({ status: "passed", options: { headed: false, screenshots: true, retries: 0, trace: "on" } });
    const { calls } = fakeFetch({
      "GET /api/runs/run_1": { body: run },
      "GET /api/tests/tc_1/versions/1": { body: { version: 1, document: { dsl: 2, name: "Run", steps: [] } } },
      "POST /api/runs": { status: 201, body: { runId: "run_2", status: "queued" } },
    });
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    const options = (await screen.findByText("Options")).nextElementSibling;
    expect(options).toHaveTextContent("Headless; screenshots of every step; trace of every step");
    await userEvent.click(screen.getByRole("button", { name: "Run again" }));
    await waitFor(() => expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({ testId: "tc_1", trace: "on" }));
  });

  it("the run page's facts say a run on failures and a run with the trace off", async () => {
    for (const [trace, words] of [
      ["failures", "trace on failure"],
      ["off", "trace off"],
    ] as const) {
      fakeFetch({
        "GET /api/runs/run_1": { body: storedRun({ status: "passed", options: { headed: false, screenshots: false, retries: 0, trace } }) },
        "GET /api/tests/tc_1/versions/1": { body: { version: 1, document: { dsl: 2, name: "Run", steps: [] } } },
      });
      const { unmount } = renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
      const options = (await screen.findByText("Options")).nextElementSibling;
      expect(options).toHaveTextContent(`screenshots of failures only; ${words}`);
      unmount();
    }
  });
});
