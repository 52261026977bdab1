// Issue 29 on the run page: a run of a document with blocks shows its steps
// as a tree — the branch an if took, the other branch's steps not run, one
// fold per loop iteration with the failed one open, screenshots labelled
// with their iteration — from the stored result tree and live from events.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import { serveRun, storedRun } from "./runPageFixtures";
import { FakeEventSource, installFakeEventSource } from "../../test/eventSource";
import type { Run, RunEvent, StepResult } from "../../api/runs";
import { RunPage } from "./RunPage";

const css = (value: string) => ({ locators: [{ kind: "css", value }] });

// Indexes (pre-order) and numbers:
// 0 open 1 · 1 banner 2 (then: 2 accept 2.1; else: 3 note 2.2) · 4 three 3 (5 add 3.1, 6 check 3.2)
// 7 each 4 (8 twice 4.1 (9 type 4.1.1)) · 10 end 5
const document = {
  dsl: 2,
  name: "Blocks",
  steps: [
    { id: "open", type: "navigate", url: "${baseUrl}/flow.html" },
    {
      id: "banner",
      type: "if",
      condition: { kind: "visible", target: { locators: [{ kind: "role", value: "button", name: "Accept cookies" }] } },
      steps: [{ id: "accept", type: "click", target: css("#accept") }],
      else: [{ id: "note", type: "log", message: "no banner" }],
    },
    {
      id: "three",
      type: "repeat",
      times: 3,
      steps: [
        { id: "add", type: "click", target: css("#add") },
        { id: "check", type: "assertText", target: css("#count"), expected: "9", soft: true },
      ],
    },
    {
      id: "each",
      type: "forEach",
      items: ["Ann", "Bo"],
      as: "who",
      steps: [{ id: "twice", type: "repeat", times: 2, steps: [{ id: "type", type: "fill", target: css("#name"), value: "${who}" }] }],
    },
    { id: "end", type: "log", message: "done" },
  ],
};

const r = (index: number, id: string, type: string, status: StepResult["status"], more: Partial<StepResult> = {}): StepResult => ({
  index,
  id,
  type,
  status,
  durationMs: 10,
  ...more,
});

/** The stored result tree of a finished run: the else branch, iteration 2 of three failed softly, iteration 2.2 of each failed. */
function resultTree(branch: "then" | "else" | "none" = "else"): StepResult[] {
  const iter3 = (n: number, ok: boolean) => ({
    iteration: n,
    status: ok ? ("passed" as const) : ("failed" as const),
    steps: [
      r(5, "add", "click", "passed", { iteration: [n], screenshot: `step-006-add-i${n}.jpg` }),
      ok
        ? r(6, "check", "assertText", "passed", { iteration: [n] })
        : r(6, "check", "assertText", "failed", { iteration: [n], error: 'expected the text to contain "9", but it is "2"' }),
    ],
  });
  const inner = (outer: number, n: number, ok: boolean) => ({
    iteration: n,
    status: ok ? ("passed" as const) : ("failed" as const),
    steps: [r(9, "type", "fill", ok ? "passed" : "failed", { iteration: [outer, n], ...(ok ? {} : { error: "no element #name" }) })],
  });
  return [
    r(0, "open", "navigate", "passed", { screenshot: "step-001-open.jpg" }),
    r(1, "banner", "if", "passed", {
      branch,
      ...(branch === "then" ? { steps: [r(2, "accept", "click", "passed")] } : {}),
      ...(branch === "else" ? { steps: [r(3, "note", "log", "passed")] } : {}),
    }),
    r(4, "three", "repeat", "failed", {
      error: "a soft assertion failed",
      iterations: [iter3(0, true), iter3(1, false), iter3(2, true)],
    }),
    r(7, "each", "forEach", "failed", {
      error: "step 4.1.1 (type, fill) failed in iteration 2.2: no element #name",
      iterations: [
        {
          iteration: 0,
          status: "passed",
          steps: [r(8, "twice", "repeat", "passed", { iteration: [0], iterations: [inner(0, 0, true), inner(0, 1, true)] })],
        },
        {
          iteration: 1,
          status: "failed",
          steps: [r(8, "twice", "repeat", "failed", { iteration: [1], iterations: [inner(1, 0, true), inner(1, 1, false)] })],
        },
      ],
    }),
    r(10, "end", "log", "skipped", { durationMs: 0 }),
  ];
}

function makeRun(over: Partial<Run> = {}): Run {
  return storedRun({
    testName: "Blocks",
    status: "failed",
    passed: 7,
    total: 10,
    options: { headed: false, screenshots: true, retries: 0 },
    result: { steps: resultTree() },
    document: document as Run["document"],
    ...over,
  });
}

installFakeEventSource();

let seq = 0;
function ev(kind: RunEvent["kind"], fields: Partial<RunEvent> = {}): RunEvent {
  seq += 1;
  return { runId: "run_1", seq, time: "2026-11-02T10:00:02Z", kind, ...fields };
}
beforeEach(() => {
  seq = 0;
});

describe("RunPage with blocks", () => {
  it("shows the else branch taken, the then-steps not run, with outline numbers", async () => {
    serveRun(makeRun(), document);
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    const banner = await screen.findByTestId("step-2");
    expect(within(banner).getByText('If the button "Accept cookies" is visible')).toBeInTheDocument();
    expect(within(banner).getByTestId("step-2-branch")).toHaveTextContent("else");
    const accept = screen.getByTestId("step-3");
    expect(accept).toHaveTextContent("2.1");
    expect(within(accept).getByText("not run")).toBeInTheDocument();
    const note = screen.getByTestId("step-4");
    expect(note).toHaveTextContent("2.2");
    expect(within(note).getByText("passed")).toBeInTheDocument();
    expect(within(screen.getByTestId("step-2-inner")).getByText("(not run)")).toBeInTheDocument();
    expect(within(screen.getByTestId("step-5")).getByText("Repeat 3 times")).toBeInTheDocument();
    expect(within(screen.getByTestId("step-8")).getByText('For each who in "Ann", "Bo"')).toBeInTheDocument();
    expect(screen.getByTestId("step-11")).toHaveTextContent("5");
  });

  it("says no branch when the condition was false, both branches not run", async () => {
    serveRun(makeRun({ result: { steps: resultTree("none") } }), document);
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    expect(await screen.findByTestId("step-2-branch")).toHaveTextContent("no branch: condition false");
    expect(within(screen.getByTestId("step-3")).getByText("not run")).toBeInTheDocument();
    expect(within(screen.getByTestId("step-4")).getByText("not run")).toBeInTheDocument();
  });

  it("shows the then branch's steps run", async () => {
    serveRun(makeRun({ result: { steps: resultTree("then") } }), document);
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    expect(await screen.findByTestId("step-2-branch")).toHaveTextContent("then");
    expect(within(screen.getByTestId("step-3")).getByText("passed")).toBeInTheDocument();
    expect(within(screen.getByTestId("step-4")).getByText("not run")).toBeInTheDocument();
  });

  it("folds each iteration, the failed one open with its error, nested loops too", async () => {
    serveRun(makeRun(), document);
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    const failed = await screen.findByTestId("iteration-5-2");
    expect(failed).toHaveAttribute("open");
    expect(within(failed).getByText("Iteration 2 — failed")).toBeInTheDocument();
    const check = within(failed).getByTestId("step-7-i2");
    expect(check).toHaveTextContent("3.2");
    expect(within(check).getByText('expected the text to contain "9", but it is "2"')).toBeInTheDocument();
    expect(within(check).getByText(/Soft assertion/)).toBeInTheDocument();
    for (const k of [1, 3]) {
      const fold = screen.getByTestId(`iteration-5-${k}`);
      expect(fold).not.toHaveAttribute("open");
      expect(within(fold).getByText(`Iteration ${k} — passed`)).toBeInTheDocument();
    }
    expect(screen.queryByTestId("step-6-i1")).not.toBeInTheDocument();
    expect(within(screen.getByTestId("step-5")).getByTestId("step-5-iterations")).toHaveTextContent("3 iterations");
    // forEach's second item failed in the inner loop's second iteration: both open, the first item closed.
    expect(screen.getByTestId("iteration-8-1")).not.toHaveAttribute("open");
    const outer = screen.getByTestId("iteration-8-2");
    expect(outer).toHaveAttribute("open");
    expect(within(outer).getByTestId("iteration-9-2.1")).not.toHaveAttribute("open");
    const inner = within(outer).getByTestId("iteration-9-2.2");
    expect(inner).toHaveAttribute("open");
    expect(within(inner).getByTestId("step-10-i2.2")).toHaveTextContent("no element #name");
    expect(within(inner).getByTestId("step-10-i2.2")).toHaveTextContent("4.1.1");

    // A closed iteration opens on a click.
    await userEvent.click(within(screen.getByTestId("iteration-5-1")).getByText("Iteration 1 — passed"));
    await waitFor(() => expect(screen.getByTestId("iteration-5-1")).toHaveAttribute("open"));
    expect(screen.getByTestId("step-6-i1")).toBeInTheDocument();
  });

  it("shows every execution's screenshot in order, labelled with its iteration", async () => {
    serveRun(makeRun(), document);
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    const film = await screen.findByRole("region", { name: "Screenshots" });
    const items = within(film).getAllByRole("listitem");
    expect(items.map((li) => li.getAttribute("data-testid"))).toEqual(["film-1", "film-6-i1", "film-6-i2", "film-6-i3"]);
    expect(items[2]).toHaveTextContent("Step 3.1 · iteration 2");
    await userEvent.click(within(film).getByRole("button", { name: "Open screenshot of step 3.1, iteration 2" }));
    const dialog = await screen.findByRole("dialog", { name: "Screenshot of step 3.1, iteration 2" });
    expect(within(dialog).getByRole("img")).toHaveAttribute("src", "/api/runs/run_1/artifacts/step-006-add-i1.jpg");
  });

  it("nests a component call's steps under their call inside an iteration", async () => {
    const expanded = {
      dsl: 2,
      name: "Rows",
      steps: [
        {
          id: "three",
          type: "repeat",
          times: 1,
          steps: [
            { id: "row.click", type: "click", call: "row", target: css("#add") },
            { id: "row.say", type: "log", call: "row", message: "added" },
          ],
        },
      ],
    };
    const saved = {
      ...expanded,
      steps: [{ ...expanded.steps[0], steps: [{ id: "row", type: "callComponent", component: "cmp_row", version: 2 }] }],
    };
    const run = makeRun({
      document: expanded as Run["document"],
      result: {
        steps: [
          r(0, "three", "repeat", "passed", {
            iterations: [
              {
                iteration: 0,
                status: "passed",
                steps: [
                  r(1, "row.click", "click", "passed", { iteration: [0], call: "row" }),
                  r(2, "row.say", "log", "passed", { iteration: [0], call: "row" }),
                ],
              },
            ],
          }),
        ],
      },
    });
    fakeFetch({
      "GET /api/runs/run_1": { body: run },
      "GET /api/tests/tc_1/versions/1": { body: { version: 1, document: saved } },
      "GET /api/agent": { body: { agents: [], needed: false } },
      "GET /api/components": { body: { components: [{ id: "cmp_row", name: "Add a row", latestVersion: 2 }] } },
    });
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    // Passed: closed; open it.
    await userEvent.click(await screen.findByText("Iteration 1 — passed"));
    const call = await screen.findByTestId("call-row-i1");
    expect(await within(call).findByText("Step 1.1 calls component Add a row v2")).toBeInTheDocument();
    expect(within(call).getByTestId("step-2-i1")).toHaveTextContent("1.1.1");
    expect(within(call).getByTestId("step-3-i1")).toHaveTextContent("1.1.2");
  });

  it("fills the tree in live as events with iterations come", async () => {
    serveRun(makeRun({ status: "running", result: { steps: [] }, passed: 0, total: 0, finishedAt: null }), document, 202);
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    await waitFor(() => expect(FakeEventSource.all).toHaveLength(1));
    const es = FakeEventSource.latest();
    es.open();
    es.emitRun(ev("run.started", { version: 1, total: 11 }));
    es.emitRun(ev("step.started", { index: 0, id: "open", type: "navigate" }));
    es.emitRun(ev("step.finished", { index: 0, id: "open", type: "navigate", status: "passed", durationMs: 5 }));
    // Before the if runs, its steps and the rest are still to come.
    expect(await within(await screen.findByTestId("step-3")).findByText("pending")).toBeInTheDocument();
    es.emitRun(ev("step.started", { index: 1, id: "banner", type: "if" }));
    es.emitRun(ev("step.started", { index: 2, id: "accept", type: "click" }));
    // A then-step running tells the branch before the if finishes: the else-step will not run.
    await waitFor(() => expect(within(screen.getByTestId("step-4")).getByText("not run")).toBeInTheDocument());
    es.emitRun(ev("step.finished", { index: 2, id: "accept", type: "click", status: "passed", durationMs: 5 }));
    es.emitRun(ev("step.finished", { index: 1, id: "banner", type: "if", status: "passed", branch: "then", durationMs: 9 }));
    await waitFor(() => expect(screen.getByTestId("step-2-branch")).toHaveTextContent("then"));

    es.emitRun(ev("step.started", { index: 4, id: "three", type: "repeat" }));
    for (const n of [0, 1]) {
      es.emitRun(ev("step.started", { index: 5, id: "add", type: "click", iteration: [n] }));
      es.emitRun(ev("artifact", { name: `step-006-add-i${n}.jpg`, contentType: "image/jpeg", step: 5, size: 10 }));
      es.emitRun(
        ev("step.finished", {
          index: 5,
          id: "add",
          type: "click",
          iteration: [n],
          status: "passed",
          durationMs: 5,
          screenshot: `step-006-add-i${n}.jpg`,
        }),
      );
      es.emitRun(ev("step.started", { index: 6, id: "check", type: "assertText", iteration: [n] }));
      es.emitRun(
        ev("step.finished", {
          index: 6,
          id: "check",
          type: "assertText",
          iteration: [n],
          status: n === 0 ? "passed" : "failed",
          durationMs: 5,
          ...(n === 1 ? { error: "expected 9" } : {}),
        }),
      );
    }
    es.emitRun(ev("step.started", { index: 5, id: "add", type: "click", iteration: [2] }));
    // Iteration 1 passed: closed; 2 failed: open; 3 runs: open, its next step still to come.
    await waitFor(() => expect(screen.getByTestId("iteration-5-3")).toHaveAttribute("open"));
    expect(within(screen.getByTestId("iteration-5-3")).getByText("Iteration 3 — running")).toBeInTheDocument();
    expect(within(screen.getByTestId("step-6-i3")).getByText("running")).toBeInTheDocument();
    expect(within(screen.getByTestId("step-7-i3")).getByText("pending")).toBeInTheDocument();
    expect(screen.getByTestId("iteration-5-1")).not.toHaveAttribute("open");
    const failed = screen.getByTestId("iteration-5-2");
    expect(failed).toHaveAttribute("open");
    expect(within(failed).getByTestId("step-7-i2")).toHaveTextContent("expected 9");
    // Each screenshot went to its own execution.
    const film = screen.getByRole("region", { name: "Screenshots" });
    expect(
      within(film)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual([expect.stringContaining("Step 3.1 · iteration 1"), expect.stringContaining("Step 3.1 · iteration 2")]);
    // Steps count once however often they ran: open, banner, accept, add (the check failed once).
    expect(screen.getByTestId("run-passed")).toHaveTextContent("4/11");
  });
});
