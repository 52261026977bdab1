// The run page's tree for a document with blocks (docs/flow.md): the run's
// expanded document laid out with the executions the events and the stored
// result told of. An if shows the branch it took, its steps run, the other
// branch's steps "not run"; a loop shows one group per iteration, each with
// that iteration's executions. Steps not reached yet are "pending" while
// the run goes on.
import type { Step } from "../../api";
import { countSteps, execKey, isBlock, isLoop } from "./outline";
import type { StepView } from "./runState";

/** What a step without an execution shows: still to come, or not run (a branch not taken, a block skipped). */
export type Absent = "pending" | "not run";

export type IterationStatus = "running" | "passed" | "failed" | "skipped";

export interface TreeStep {
  /** Unique in the tree: the step's index and iteration. */
  key: string;
  index: number;
  /** The iterations of the loops around it; empty outside loops. */
  iteration: number[];
  doc: Step;
  number: string;
  /** Its execution, or null and why not. */
  view: StepView | null;
  absent: Absent | null;
  /** An if's branch (then, else, none), "" before it is known. */
  branch: string;
  /** An if's then-steps and else-steps. */
  then: TreeStep[];
  otherwise: TreeStep[];
  /** A loop's iterations, in order. */
  iterations: TreeIteration[];
  /** A loop's steps when no iteration ran (yet): shown greyed. */
  body: TreeStep[];
}

export interface TreeIteration {
  key: string;
  /** 0-based, as the events say. */
  n: number;
  /** The whole iteration: the enclosing loops' and this one's. */
  iteration: number[];
  status: IterationStatus;
  steps: TreeStep[];
}

/**
 * buildRunTree lays out doc (the run's expanded document) with execs (one
 * per step execution, mergeSteps). numbers are the steps' outline numbers
 * by index; active says the run goes on (steps not reached are pending,
 * not "not run").
 */
export function buildRunTree(doc: Step[], execs: StepView[], numbers: string[], active: boolean): TreeStep[] {
  const byKey = new Map<string, StepView>();
  // A step's iterations in its innermost loop, by its index and the outer loops' iterations.
  const inLoop = new Map<string, number[]>();
  for (const s of execs) {
    byKey.set(execKey(s.index, s.iteration), s);
    if (s.iteration.length === 0) continue;
    const outer = execKey(s.index, s.iteration.slice(0, -1));
    inLoop.set(outer, [...(inLoop.get(outer) ?? []), s.iteration[s.iteration.length - 1]]);
  }
  const missing: Absent = active ? "pending" : "not run";

  const list = (steps: Step[], first: number, iter: number[], absent: Absent | null): TreeStep[] => {
    const out: TreeStep[] = [];
    let i = first;
    for (const s of steps) {
      out.push(node(s, i, iter, absent));
      i += countSteps([s]);
    }
    return out;
  };

  // absent: null while the executions decide, else why the whole list did not run.
  const node = (step: Step, index: number, iter: number[], absent: Absent | null): TreeStep => {
    const view = absent === null ? (byKey.get(execKey(index, iter)) ?? null) : null;
    const t: TreeStep = {
      key: execKey(index, iter),
      index,
      iteration: iter,
      doc: step,
      number: numbers[index] ?? String(index + 1),
      view,
      absent: view ? null : (absent ?? missing),
      branch: view?.branch ?? "",
      then: [],
      otherwise: [],
      iterations: [],
      body: [],
    };
    if (!isBlock(step.type)) return t;
    const thenSteps = step.steps ?? [];
    const elseSteps = step.else ?? [];
    const nThen = countSteps(thenSteps);
    // Inside a block that did not run, nothing ran; one still to come has its steps to come.
    const inside: Absent = absent ?? (view && view.status !== "running" ? "not run" : missing);
    if (step.type === "if") {
      let branch = t.branch;
      // The events tell an if's branch when it finishes; its branch's first step starting tells it before.
      if (!branch && nThen > 0 && byKey.has(execKey(index + 1, iter))) branch = "then";
      else if (!branch && elseSteps.length > 0 && byKey.has(execKey(index + 1 + nThen, iter))) branch = "else";
      t.branch = absent === null ? branch : "";
      t.then = list(thenSteps, index + 1, iter, t.branch === "then" ? null : t.branch ? "not run" : inside);
      t.otherwise = list(elseSteps, index + 1 + nThen, iter, t.branch === "else" ? null : t.branch ? "not run" : inside);
      return t;
    }
    if (!isLoop(step.type)) return t;
    const ns = new Set<number>((view?.iterations ?? []).map((it) => it.iteration));
    // An iteration starts with its first step.
    if (absent === null && nThen > 0) for (const n of inLoop.get(execKey(index + 1, iter)) ?? []) ns.add(n);
    const stored = new Map((view?.iterations ?? []).map((it) => [it.iteration, it.status]));
    t.iterations = [...ns]
      .sort((a, b) => a - b)
      .map((n) => {
        const it = [...iter, n];
        const steps = list(thenSteps, index + 1, it, null);
        return { key: `${execKey(index, iter)}#${n}`, n, iteration: it, status: stored.get(n) ?? iterationStatus(steps), steps };
      });
    if (t.iterations.length === 0) t.body = list(thenSteps, index + 1, iter, inside);
    return t;
  };

  return list(doc, 0, [], null);
}

/** How an iteration went, from its steps' executions (the stored result says it once the run is over). */
function iterationStatus(steps: TreeStep[]): IterationStatus {
  const views = walkTree(steps).flatMap((t) => (t.view ? [t.view] : []));
  if (views.some((v) => v.status === "failed")) return "failed";
  if (views.some((v) => v.status === "running") || steps.some((t) => t.absent === "pending")) return "running";
  if (views.length > 0 && views.every((v) => v.status === "skipped")) return "skipped";
  return "passed";
}

/**
 * walkTree lists the tree's nodes in the order they ran: a block, then
 * its branches' steps (then, else), or its iterations' in turn.
 */
export function walkTree(nodes: TreeStep[]): TreeStep[] {
  const out: TreeStep[] = [];
  const walk = (list: TreeStep[]) => {
    for (const t of list) {
      out.push(t);
      walk(t.then);
      walk(t.otherwise);
      for (const it of t.iterations) walk(it.steps);
      walk(t.body);
    }
  };
  walk(nodes);
  return out;
}

/** The executions of the tree in the order they ran (the filmstrip's order). */
export function treeExecutions(nodes: TreeStep[]): StepView[] {
  return walkTree(nodes).flatMap((t) => (t.view ? [t.view] : []));
}

/**
 * passedSteps counts the steps that ran and passed every time they ran
 * (as the agent counts passed): a step inside a loop counts once.
 */
export function passedSteps(execs: StepView[]): number {
  const passed = new Set<number>();
  const failed = new Set<number>();
  for (const s of execs) {
    if (s.status === "passed") passed.add(s.index);
    else if (s.status === "failed") failed.add(s.index);
  }
  return [...passed].filter((i) => !failed.has(i)).length;
}
