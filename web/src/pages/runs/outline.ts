// A run's document is a tree when it has blocks (docs/flow.md): an if's
// steps and else-steps, a loop's steps, nested. A step's index is its place
// in the pre-order walk of the tree (protocol.AllSteps: a block, then its
// steps, then its else-steps), and steps are numbered as an outline
// (protocol.DocumentStepNumbers): block 3's steps are 3.1, 3.2.
import type { Step } from "../../api";
import { stepNumbers } from "./runCalls";

const BLOCKS = new Set(["if", "repeat", "forEach"]);

/** Whether a step of this type holds steps (protocol.IsBlock). */
export function isBlock(type: string | undefined): boolean {
  return BLOCKS.has(type ?? "");
}

export function isLoop(type: string | undefined): boolean {
  return type === "repeat" || type === "forEach";
}

/** Whether a document has blocks: a run of one without shows as a flat list. */
export function hasBlocks(steps: Step[]): boolean {
  return steps.some((s) => isBlock(s.type));
}

/** A block's steps then its else-steps, in the order they are indexed and numbered. */
function inner(s: Step): Step[] {
  return isBlock(s.type) ? [...(s.steps ?? []), ...(s.else ?? [])] : [];
}

/** allSteps lists the tree's steps in pre-order (protocol.AllSteps): allSteps(doc)[i] is the step of index i. */
export function allSteps(steps: Step[]): Step[] {
  const out: Step[] = [];
  const walk = (list: Step[]) => {
    for (const s of list) {
      out.push(s);
      walk(inner(s));
    }
  };
  walk(steps);
  return out;
}

/** countSteps counts the steps of a list with those inside its blocks (protocol.CountSteps). */
export function countSteps(steps: Step[]): number {
  return steps.reduce((n, s) => n + 1 + countSteps(inner(s)), 0);
}

/**
 * documentStepNumbers numbers the steps of an expanded document by index,
 * as protocol.DocumentStepNumbers: the test's steps 1, 2, 3; the steps
 * inside block 3 are 3.1, 3.2 (then-steps first, then else-steps); the
 * steps of a component call as stepNumbers says (2.1, 2.2). A document
 * without blocks is numbered exactly as stepNumbers numbers it.
 */
export function documentStepNumbers(steps: Step[]): string[] {
  const out: string[] = [];
  const number = (list: Step[], prefix: string) => {
    stepNumbers(list.map((s) => s.call)).forEach((n, i) => {
      out.push(prefix + n);
      if (isBlock(list[i].type)) number(inner(list[i]), `${prefix}${n}.`);
    });
  };
  number(steps, "");
  return out;
}

/**
 * iterationWords says an iteration for people, 1-based: "3" for the
 * iteration the events call [2], "2.1" inside nested loops (as the
 * agent's error messages say it).
 */
export function iterationWords(iteration: number[]): string {
  return iteration.map((n) => String(n + 1)).join(".");
}

/** execKey names one execution of a step: its index, and its iteration inside loops. */
export function execKey(index: number, iteration: number[] | undefined): string {
  return iteration && iteration.length > 0 ? `${index}@${iteration.join(".")}` : String(index);
}
