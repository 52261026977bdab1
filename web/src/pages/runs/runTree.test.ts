import { describe, expect, it } from "vitest";
import type { Step } from "../../api";
import type { RunEvent, StepResult } from "../../api/runs";
import { documentStepNumbers } from "./outline";
import { initialRunView, mergeSteps, runViewReducer } from "./runState";
import { buildRunTree, passedSteps, treeExecutions, walkTree } from "./runTree";

const doc = [
  { id: "open", type: "navigate", url: "x" },
  {
    id: "loop",
    type: "repeat",
    times: 2,
    steps: [
      { id: "a", type: "click" },
      { id: "b", type: "log" },
    ],
  },
  { id: "end", type: "log" },
] as Step[];

let seq = 0;
const ev = (kind: RunEvent["kind"], fields: Partial<RunEvent> = {}): RunEvent => {
  seq += 1;
  return { runId: "run_1", seq, time: "2026-11-02T10:00:00Z", kind, ...fields };
};

describe("runViewReducer with iterations", () => {
  it("keeps one step per (index, iteration), and gives an artifact to the execution under way", () => {
    seq = 0;
    const events = [
      ev("run.started", { total: 5 }),
      ev("step.started", { index: 1, id: "loop", type: "repeat" }),
      ev("step.started", { index: 2, id: "a", type: "click", iteration: [0] }),
      ev("artifact", { name: "step-003-a-i0.jpg", contentType: "image/jpeg", step: 2 }),
      ev("step.finished", { index: 2, id: "a", type: "click", iteration: [0], status: "passed", screenshot: "step-003-a-i0.jpg" }),
      ev("step.started", { index: 2, id: "a", type: "click", iteration: [1] }),
      ev("artifact", { name: "step-003-a-i1.jpg", contentType: "image/jpeg", step: 2 }),
      ev("step.finished", { index: 2, id: "a", type: "click", iteration: [1], status: "failed", error: "gone" }),
    ];
    const v = events.reduce(runViewReducer, initialRunView);
    expect(v.steps.map((s) => [s.index, s.iteration, s.status, s.screenshots])).toEqual([
      [1, [], "running", []],
      [2, [0], "passed", ["step-003-a-i0.jpg"]],
      [2, [1], "failed", ["step-003-a-i1.jpg"]],
    ]);
    // An if's branch comes with its step.finished.
    const w = runViewReducer(v, ev("step.finished", { index: 1, id: "loop", type: "if", status: "passed", branch: "none" }));
    expect(w.steps[0].branch).toBe("none");
  });

  it("merges the stored result tree by execution", () => {
    const stored: StepResult[] = [
      { index: 0, id: "open", type: "navigate", status: "passed", durationMs: 1 },
      {
        index: 1,
        id: "loop",
        type: "repeat",
        status: "passed",
        durationMs: 1,
        iterations: [
          {
            iteration: 0,
            status: "passed",
            steps: [{ index: 2, id: "a", type: "click", status: "passed", durationMs: 1, iteration: [0] }],
          },
          {
            iteration: 1,
            status: "passed",
            steps: [{ index: 2, id: "a", type: "click", status: "passed", durationMs: 1, iteration: [1] }],
          },
        ],
      },
    ];
    const steps = mergeSteps(initialRunView, stored);
    expect(steps.map((s) => [s.index, s.iteration])).toEqual([
      [0, []],
      [1, []],
      [2, [0]],
      [2, [1]],
    ]);
    expect(steps[1].iterations).toEqual([
      { iteration: 0, status: "passed" },
      { iteration: 1, status: "passed" },
    ]);
    expect(passedSteps(steps)).toBe(3);
    const tree = buildRunTree(doc, steps, documentStepNumbers(doc), false);
    expect(tree[1].iterations.map((it) => [it.n, it.status, it.steps.map((t) => [t.number, t.view?.status ?? t.absent])])).toEqual([
      [
        0,
        "passed",
        [
          ["2.1", "passed"],
          ["2.2", "not run"],
        ],
      ],
      [
        1,
        "passed",
        [
          ["2.1", "passed"],
          ["2.2", "not run"],
        ],
      ],
    ]);
    expect(treeExecutions(tree).map((s) => `${s.index}@${s.iteration.join(".")}`)).toEqual(["0@", "1@", "2@0", "2@1"]);
    expect(tree[2].absent).toBe("not run");
  });

  it("shows a loop that ran no iteration with its steps not run, and one still to come with its steps pending", () => {
    const ran: StepResult[] = [{ index: 1, id: "loop", type: "repeat", status: "passed", durationMs: 1, iterations: [] }];
    const done = buildRunTree(doc, mergeSteps(initialRunView, ran), documentStepNumbers(doc), false);
    expect(done[1].iterations).toEqual([]);
    expect(done[1].body.map((t) => t.absent)).toEqual(["not run", "not run"]);
    const live = buildRunTree(doc, [], documentStepNumbers(doc), true);
    expect(walkTree(live).map((t) => t.absent)).toEqual(["pending", "pending", "pending", "pending", "pending"]);
  });
});
