// The steps of a run of a document with blocks, as a tree (runTree.ts): a
// block's row says how it went (the branch an if took, a loop's
// iterations), and its steps follow, indented. An if shows its then- and
// else-steps, those of the branch not taken greyed as "not run"; a loop one
// fold per iteration, the failed (or running) one open, the others closed.
import { useState } from "react";
import { isBlock, iterationWords } from "./outline";
import type { TreeIteration, TreeStep } from "./runTree";
import { StepRow, stepText } from "./RunStepRow";
import { AbsentStepRow } from "./runStepParts";
import { groupByCall } from "./runCalls";
import "./runTree.css";

interface TreeProps {
  testId: string;
  now: number;
  fileNames?: Record<string, string>;
  /** The head of a component call's steps: "Step 3.1 calls component Add a row v2" (callStepText), given its number. */
  callHead: (call: string, number: string) => string;
}

/** The tree's rows for one list of steps; a component call's steps nested under their call, as in the flat list. */
export function RunTree({ nodes, ...props }: TreeProps & { nodes: TreeStep[] }) {
  return (
    <ol className="run-steps run-tree">
      {groupByCall(nodes, (t) => t.doc.call).map((g) => {
        const rows = g.items.map((t) => <TreeRows key={t.key} node={t} {...props} />);
        if (g.call === null) return rows;
        const first = g.items[0];
        return (
          <li
            key={`call:${first.key}`}
            className="run-call"
            data-testid={`call-${g.call}${first.iteration.length ? `-i${iterationWords(first.iteration)}` : ""}`}
          >
            <div className="run-call-head">{props.callHead(g.call, first.number.split(".").slice(0, -1).join("."))}</div>
            <ol className="run-steps run-call-steps">{rows}</ol>
          </li>
        );
      })}
    </ol>
  );
}

/** A row's data-testid: step-<index + 1>, and -i<iteration> inside loops (step-5-i2.1). */
export function rowIdOf(t: Pick<TreeStep, "index" | "iteration">): string {
  return `step-${t.index + 1}${t.iteration.length ? `-i${iterationWords(t.iteration)}` : ""}`;
}

const BRANCH_WORDS: Record<string, string> = { then: "then", else: "else", none: "no branch: condition false" };

/** How a block went, in a few words on its row. */
function BlockNote({ node, rowId }: { node: TreeStep; rowId: string }) {
  if (node.doc.type === "if") {
    if (!node.branch) return null;
    return (
      <span className={`run-branch run-branch-${node.branch}`} data-testid={`${rowId}-branch`}>
        {BRANCH_WORDS[node.branch] ?? node.branch}
      </span>
    );
  }
  if (!node.view || node.view.status === "running") return null;
  const k = node.iterations.length;
  return (
    <span className="run-branch" data-testid={`${rowId}-iterations`}>
      {k === 0 ? "ran no iteration" : `${k} iteration${k === 1 ? "" : "s"}`}
    </span>
  );
}

function TreeRows({ node, ...props }: TreeProps & { node: TreeStep }) {
  const rowId = rowIdOf(node);
  const row = node.view ? (
    <StepRow
      testId={props.testId}
      step={node.view}
      number={node.number}
      doc={node.doc}
      now={props.now}
      fileNames={props.fileNames}
      rowId={rowId}
      iteration={node.iteration.length ? iterationWords(node.iteration) : undefined}
      note={isBlock(node.doc.type) ? <BlockNote node={node} rowId={rowId} /> : undefined}
    />
  ) : (
    <AbsentStepRow
      doc={node.doc}
      number={node.number}
      absent={node.absent ?? "not run"}
      text={stepText(node.doc, props.fileNames)}
      rowId={rowId}
    />
  );
  if (!isBlock(node.doc.type)) return row;
  return (
    <>
      {row}
      <li className="run-block-inner" data-testid={`${rowId}-inner`}>
        {node.doc.type === "if" ? (
          <>
            <Branch title="Then" taken={node.branch === "then"} decided={!!node.branch} steps={node.then} {...props} />
            {(node.doc.else?.length ?? 0) > 0 && (
              <Branch title="Else" taken={node.branch === "else"} decided={!!node.branch} steps={node.otherwise} {...props} />
            )}
          </>
        ) : (
          <>
            {node.iterations.map((it) => (
              <IterationFold key={it.key} loop={node} it={it} {...props} />
            ))}
            {node.iterations.length === 0 && <Branch title="Steps" taken={false} decided={false} steps={node.body} {...props} />}
          </>
        )}
      </li>
    </>
  );
}

/** An if's then- or else-steps (or a loop's steps before an iteration ran). */
function Branch({
  title,
  taken,
  decided,
  steps,
  ...props
}: TreeProps & { title: string; taken: boolean; decided: boolean; steps: TreeStep[] }) {
  return (
    <div className={`run-branch-group${decided && !taken ? " run-branch-not-taken" : ""}`}>
      <div className="run-block-head">
        {title}
        {decided && !taken && <span className="muted"> (not run)</span>}
      </div>
      {steps.length === 0 ? <p className="muted run-block-empty">No steps.</p> : <RunTree nodes={steps} {...props} />}
    </div>
  );
}

const ITERATION_WORDS: Record<string, string> = { running: "running", passed: "passed", failed: "failed", skipped: "skipped" };

/**
 * IterationFold is one iteration of a loop, folded: open when it failed or
 * is running, closed otherwise; a change of its status opens or closes it
 * again, a click in between is the reader's choice.
 */
function IterationFold({ loop, it, ...props }: TreeProps & { loop: TreeStep; it: TreeIteration }) {
  const want = it.status === "failed" || it.status === "running";
  const [open, setOpen] = useState(want);
  const [wanted, setWanted] = useState(want);
  if (want !== wanted) {
    setWanted(want);
    setOpen(want);
  }
  return (
    <details
      className={`run-iteration run-iteration-${it.status}`}
      open={open}
      data-testid={`iteration-${loop.index + 1}-${iterationWords(it.iteration)}`}
    >
      <summary
        onClick={(e) => {
          // The page keeps the fold's state, not the browser: its toggle events come late and would undo a fold the status changed.
          e.preventDefault();
          setOpen(!open);
        }}
      >
        Iteration {it.n + 1} — {ITERATION_WORDS[it.status] ?? it.status}
      </summary>
      {open && (it.steps.length === 0 ? <p className="muted run-block-empty">No steps.</p> : <RunTree nodes={it.steps} {...props} />)}
    </details>
  );
}
