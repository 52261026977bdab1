import { screen, within } from "@testing-library/react";
import { expect, it } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import { installFakeEventSource } from "../../test/eventSource";
import type { Run } from "../../api/runs";
import { RunPage, stepText } from "./RunPage";
import { usedWords } from "./runState";

// Issue 28: a soft assertion fails, the run goes on, and the run fails.

// The stream sends nothing: the page shows the stored record.
installFakeEventSource();

const steps = [
  { id: "open", type: "navigate", url: "https://shop.test/" },
  { id: "soft", type: "assertText", soft: true, expected: "Checkout", target: { locators: [{ kind: "css", value: "#msg" }] } },
  { id: "fill", type: "fill", value: "3", target: { locators: [{ kind: "css", value: "#qty" }] } },
  { id: "say", type: "log", message: "done" },
];

it("describes assertCount's number and not", () => {
  const t = { locators: [{ kind: "css", value: "li" }] };
  expect(stepText({ id: "c", type: "assertCount", expected: 3, target: t })).toBe("Check that 3 elements match css li");
  expect(stepText({ id: "n", type: "assertText", expected: "Sold out", not: true, target: t })).toBe(
    'Check the text of css li does not contain "Sold out"',
  );
});

const run: Run = {
  runId: "run_1",
  testId: "tc_1",
  testName: "Soft",
  batchId: null,
  projectId: "prj_1",
  environmentId: null,
  status: "failed",
  passed: 3,
  total: 4,
  durationMs: 2100,
  version: 1,
  error: 'step 2 (soft, assertText) failed: expected the text to contain "Checkout", but it is "Basket"',
  options: { headed: false, screenshots: false },
  result: {
    steps: [
      { index: 0, id: "open", type: "navigate", status: "passed", durationMs: 300, attempts: 1 },
      {
        index: 1,
        id: "soft",
        type: "assertText",
        status: "failed",
        durationMs: 500,
        attempts: 1,
        error: 'expected the text to contain "Checkout", but it is "Basket"',
      },
      { index: 2, id: "fill", type: "fill", status: "passed", durationMs: 200, attempts: 1, used: { value: "3" } },
      { index: 3, id: "say", type: "log", status: "passed", durationMs: 1, attempts: 1, used: { message: "done with 3" } },
    ],
  },
  document: { dsl: 2, name: "Soft", steps },
  attempts: 1,
  startedBy: "usr_me",
  startedByName: "Mia Tester",
  createdAt: "2026-11-02T10:00:00Z",
  startedAt: "2026-11-02T10:00:01Z",
  finishedAt: "2026-11-02T10:00:04Z",
} as Run;

it("shows a failed soft assertion followed by the steps that ran after it", async () => {
  fakeFetch({
    "GET /api/runs/run_1": { status: 200, body: run },
    "GET /api/tests/tc_1/versions/1": { body: { version: 1, document: { dsl: 2, name: "Soft", steps } } },
    "GET /api/environments": { body: { environments: [] } },
    "GET /api/agent": { body: { agents: [], needed: true } },
  });
  renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
  const result = await screen.findByRole("region", { name: "Result" });
  expect(result).toHaveTextContent("Failed");
  expect(result).toHaveTextContent("3 of 4 steps passed");
  const soft = screen.getByTestId("step-2");
  expect(within(soft).getByText("failed")).toBeInTheDocument();
  expect(within(soft).getByRole("note")).toHaveTextContent("Soft assertion: its failure is recorded and the run went on");
  for (const n of [3, 4]) expect(within(screen.getByTestId(`step-${n}`)).getByText("passed")).toBeInTheDocument();
  expect(screen.queryByRole("list", { name: "Steps to come" })).not.toBeInTheDocument();
  expect(within(screen.getByTestId("step-4")).getByTestId("step-4-used")).toHaveTextContent("logged done with 3");
  expect(within(screen.getByTestId("step-4")).getByText(/"done"/)).toBeInTheDocument();
});

it("words a request step's used values", () => {
  expect(
    usedWords("request", {
      url: "https://api.test/orders",
      method: "POST",
      headers: "Authorization: Bearer ***",
      status: "201 Created",
      answer: '{"id":42}',
    }),
  ).toEqual([
    { label: "method", value: "POST" },
    { label: "called", value: "https://api.test/orders" },
    { label: "headers", value: "Authorization: Bearer ***" },
    { label: "answered", value: "201 Created" },
    { label: "answer", value: '{"id":42}' },
  ]);
});
