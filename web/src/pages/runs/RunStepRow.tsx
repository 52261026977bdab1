// One step of a run on its page: number, type, line, what it used, its
// retries, healing, error and status. The flat list of a run without
// blocks and the tree of a run with blocks (RunTree.tsx) show their steps
// with it.
import type { ReactNode } from "react";
import { Link } from "react-router";
import { StatusBadge, formatDuration } from "../../components/ui";
import type { Step } from "../../api";
import type { JsonObject } from "../../api/editorApi";
import { describeStep } from "../editor/stepText";
import { describeLocator, stepElapsed, type StepView } from "./runState";
import { NoScreenshot, StepOutput } from "./runStepParts";

/** What a step does, in words: its description, or the editor's line for it (blocks too). */
export function stepText(step: Step | undefined, fileNames?: Record<string, string>): string {
  if (!step) return "";
  if (step.description) return step.description;
  return describeStep(step as unknown as JsonObject, undefined, undefined, fileNames);
}

export function StepRow({
  testId,
  step,
  number,
  doc,
  now,
  fileNames,
  rowId,
  iteration,
  note,
}: {
  testId: string;
  step: StepView;
  /** The step's number as the editor shows it. */
  number: string;
  doc: Step | undefined;
  now: number;
  /** Project files by id, for upload steps' lines. */
  fileNames?: Record<string, string>;
  /** The row's data-testid, step-<index + 1> by default. */
  rowId?: string;
  /** Inside loops, the iteration in words ("2", "2.1"), said to screen readers. */
  iteration?: string;
  /** A block's outcome in words: its branch, its iterations. */
  note?: ReactNode;
}) {
  const n = step.index + 1;
  const id = rowId ?? `step-${n}`;
  const text = stepText(doc, fileNames);
  // A step expanded from a component opens its call in the editor.
  const stepId = doc?.call || step.id || doc?.id || "";
  const elapsed = stepElapsed(step, now);
  return (
    <li className={`run-step run-step-${step.status}`} data-testid={id}>
      <span className="run-step-num">
        <span className="sr-only">Step </span>
        {number}
        {iteration && <span className="sr-only">, iteration {iteration}</span>}
      </span>
      <div className="run-step-main">
        <div className="run-step-head">
          <code className="run-step-type">{step.type || doc?.type}</code>
          {text && <span className="run-step-text">{text}</span>}
          {note}
        </div>
        <StepOutput type={step.type || doc?.type || ""} used={step.used} testId={`${id}-used`} />
        {step.retries > 0 && (
          <p className="run-step-retries">
            retried {step.retries}×
            {step.status === "running" && step.retryError && <span className="muted"> (last attempt: {step.retryError})</span>}
          </p>
        )}
        {step.healedBy && (
          <p className="run-step-healed">
            Healed: found by the fallback locator <code>{describeLocator(step.healedBy)}</code>; put it first in the test.
          </p>
        )}
        {step.error && <p className="run-error">{step.error}</p>}
        {step.status === "failed" && doc?.soft && (
          <p className="run-step-soft" role="note">
            Soft assertion: its failure is recorded and the run went on; the run still fails.
          </p>
        )}
        <NoScreenshot why={step.screenshotError} />
        {step.status === "failed" && stepId && (
          <p className="run-step-fix">
            <Link to={`/tests/${encodeURIComponent(testId)}?step=${encodeURIComponent(stepId)}`}>Open step {number} in the editor</Link>
          </p>
        )}
      </div>
      <div className="run-step-side">
        <StatusBadge status={step.status} />
        <span className="run-step-duration" data-testid={`${id}-duration`}>
          {elapsed === null || (step.status === "skipped" && !elapsed) ? "" : formatDuration(elapsed)}
        </span>
      </div>
    </li>
  );
}
