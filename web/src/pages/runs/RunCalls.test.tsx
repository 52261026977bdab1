import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import { installFakeEventSource } from "../../test/eventSource";
import type { Run } from "../../api/runs";
import { RunPage } from "./RunPage";

// The stream sends nothing: the page shows the stored record.
installFakeEventSource();

const fill = { id: "s2.a", type: "fill", target: { locators: [{ kind: "label", value: "Email" }] }, value: "amy", call: "s2" };
const run: Run = {
  runId: "run_1",
  testId: "tc_1",
  testName: "Checkout",
  batchId: null,
  projectId: "prj_1",
  environmentId: null,
  status: "failed",
  passed: 2,
  total: 4,
  durationMs: 900,
  version: 2,
  options: { headed: false, screenshots: false, retries: 0 },
  flaky: false,
  quarantined: false,
  result: {
    steps: [
      { index: 0, id: "s1", type: "navigate", status: "passed", durationMs: 100 },
      { index: 1, id: "s2.a", type: "fill", status: "passed", durationMs: 100 },
      { index: 2, id: "s2.b", type: "click", status: "failed", durationMs: 500, error: "no element matches" },
      { index: 3, id: "s3", type: "assertTitle", status: "skipped", durationMs: 0 },
    ],
  },
  // The run's own document: the call of s2 expanded into its two steps.
  document: {
    dsl: 2,
    name: "Checkout",
    steps: [
      { id: "s1", type: "navigate", url: "https://shop.test/" },
      fill,
      { id: "s2.b", type: "click", target: { locators: [{ kind: "role", value: "button", name: "Sign in" }] }, call: "s2" },
      { id: "s3", type: "assertTitle", expected: "Done" },
    ],
  },
  attempts: 1,
  startedBy: "usr_me",
  startedByName: "Mia Tester",
  createdAt: "2026-11-02T10:00:00Z",
  startedAt: "2026-11-02T10:00:01Z",
  finishedAt: "2026-11-02T10:00:02Z",
};

describe("RunPage with a component call", () => {
  it("nests the steps expanded from a call under their calling step", async () => {
    fakeFetch({
      "GET /api/runs/run_1": { body: run },
      "GET /api/tests/tc_1/versions/2": {
        body: {
          version: 2,
          document: {
            dsl: 2,
            name: "Checkout",
            steps: [
              { id: "s1", type: "navigate", url: "https://shop.test/" },
              { id: "s2", type: "callComponent", component: "cmp_login", version: 1 },
              { id: "s3", type: "assertTitle", expected: "Done" },
            ],
          },
        },
      },
      "GET /api/agent": { body: { agents: [], needed: false } },
      "GET /api/components": { body: { components: [{ id: "cmp_login", name: "Log in as a user", latestVersion: 1 }] } },
    });
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    const call = await screen.findByTestId("call-s2");
    // Named by the component's name, numbered as the editor numbers the calling step.
    expect(await within(call).findByText("Step 2 calls component Log in as a user v1")).toBeInTheDocument();
    expect(within(call).getByTestId("step-2")).toHaveTextContent('Fill "Email" with "amy"');
    expect(within(call).getByTestId("step-3")).toHaveTextContent("failed");
    // The inner steps are 2.1 and 2.2, as in the editor; the step after the call is 3.
    expect(within(call).getByTestId("step-2")).toHaveTextContent(/^Step 2\.1/);
    expect(within(call).getByTestId("step-3")).toHaveTextContent(/^Step 2\.2/);
    expect(screen.getByTestId("step-4")).toHaveTextContent(/^Step 3/);
    expect(within(call).queryByTestId("step-1")).not.toBeInTheDocument();
    expect(within(call).queryByTestId("step-4")).not.toBeInTheDocument();
    // The failed step inside the call opens the calling step in the editor.
    expect(within(call).getByRole("link", { name: "Open step 2.2 in the editor" })).toHaveAttribute("href", "/tests/tc_1?step=s2");
    // Steps of the test itself are described from the run's document, whose indexes match.
    expect(screen.getByTestId("step-4")).toHaveTextContent('"Done"');
  });
});
