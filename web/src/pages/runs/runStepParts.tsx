// Parts of a run's steps shared by the run page and a row's steps: what a
// step used and produced (a script's value and console, the value
// setVariable captured), a missing screenshot said on the step, the steps
// still to come of a live run, the filmstrip of the run's screenshots, and
// a screenshot with its element outlined (the lightbox's, the trace's).
import { useState, type ReactNode } from "react";
import { StatusBadge } from "../../components/ui";
import type { Step } from "../../api";
import type { RunBox } from "../../api/runs";
import { boxOnImage, consoleLines, usedWords } from "./runState";

/** What the step used and produced, and a script's console lines. */
export function StepOutput({ type, used, testId }: { type: string; used: Record<string, string> | null; testId?: string }) {
  const words = usedWords(type, used);
  const lines = consoleLines(used);
  return (
    <>
      {words.length > 0 && (
        <p className="run-step-used" data-testid={testId}>
          {words.map((u) => (
            <span key={u.label}>
              {u.label} <span className="mono">{u.value}</span>
            </span>
          ))}
        </p>
      )}
      {lines.length > 0 && (
        <pre className="run-step-console" aria-label="Console">
          {lines.join("\n")}
        </pre>
      )}
    </>
  );
}

/** A screenshot the run asked for and the step does not have, said on the step. */
export function NoScreenshot({ why }: { why: string }) {
  if (!why) return null;
  return (
    <p className="run-step-noshot" role="note">
      {why.startsWith("no screenshot") ? `N${why.slice(1)}` : why}
    </p>
  );
}

/** The steps of a live run that have not started yet, greyed below the running one. */
export function PendingSteps({
  steps,
  numbers,
  describe,
}: {
  steps: { index: number; doc: Step }[];
  numbers: (index: number) => string;
  describe: (s: Step | undefined) => string;
}) {
  if (steps.length === 0) return null;
  return (
    <ol className="run-steps run-steps-pending" aria-label="Steps to come">
      {steps.map(({ index, doc }) => {
        const text = describe(doc);
        return <AbsentStepRow key={index} doc={doc} number={numbers(index)} absent="pending" text={text} rowId={`pending-${index + 1}`} />;
      })}
    </ol>
  );
}

/** One picture of the filmstrip. */
/** A step that has not run: still to come in a live run, or not run (a branch not taken, a block that did not run). */
export function AbsentStepRow({
  doc,
  number,
  absent,
  text,
  rowId,
}: {
  doc: Step;
  number: string;
  absent: "pending" | "not run";
  text: string;
  rowId: string;
}) {
  return (
    <li className={`run-step run-step-pending run-step-${absent === "pending" ? "to-come" : "not-run"}`} data-testid={rowId}>
      <span className="run-step-num">
        <span className="sr-only">Step </span>
        {number}
      </span>
      <div className="run-step-main">
        <div className="run-step-head">
          <code className="run-step-type">{doc.type}</code>
          {text && <span className="run-step-text">{text}</span>}
        </div>
      </div>
      <div className="run-step-side">
        <StatusBadge status={absent} />
      </div>
    </li>
  );
}

export interface FilmShot {
  name: string;
  /** The step's index, and its number as the editor shows it. */
  step: number;
  number: string;
  /** Inside loops, the execution's iteration in words ("2", "2.1"); "" outside loops. */
  iteration?: string;
  status: string;
  /** The first screenshot of its step (else the second, third ...). */
  nth: number;
}

/** "step 3.1", or "step 3.1, iteration 2" for an execution inside loops. */
export function shotPlace(s: Pick<FilmShot, "number" | "iteration">): string {
  return `step ${s.number}${s.iteration ? `, iteration ${s.iteration}` : ""}`;
}

/**
 * Filmstrip shows the run's screenshots in a horizontal strip of pictures
 * large enough to read, each with its step's number and status; a click
 * opens it in the lightbox.
 */
export function Filmstrip({
  shots,
  picture,
  onOpen,
}: {
  shots: FilmShot[];
  picture: (s: FilmShot) => ReactNode;
  onOpen: (name: string) => void;
}) {
  if (shots.length === 0) return null;
  return (
    <section aria-labelledby="run-film-heading" className="run-film">
      <h2 id="run-film-heading">Screenshots</h2>
      <ol className="run-filmstrip">
        {shots.map((s) => (
          <li
            key={s.name}
            className={`run-film-item run-film-${s.status}`}
            data-testid={`film-${s.step + 1}${s.iteration ? `-i${s.iteration}` : ""}`}
          >
            <button
              type="button"
              className="run-thumb run-film-shot"
              aria-label={s.nth === 0 ? `Open screenshot of ${shotPlace(s)}` : `Open screenshot ${s.nth + 1} of ${shotPlace(s)}`}
              onClick={() => onOpen(s.name)}
            >
              {picture(s)}
            </button>
            <span className="run-film-caption">
              <span className="run-film-num">
                Step {s.number}
                {s.iteration && ` · iteration ${s.iteration}`}
              </span>{" "}
              <StatusBadge status={s.status} />
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** A screenshot with its step's element outlined, when the box fits the image. */
export function ShotImage({ src, alt, box, lazy }: { src: string; alt: string; box: RunBox | null; lazy?: boolean }) {
  // The image's size, once loaded: the box may come after the image (step.finished follows its artifact).
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const rect = size ? boxOnImage(box, size.width, size.height) : null;
  return (
    <span className="run-shot-frame">
      <img
        src={src}
        alt={alt}
        loading={lazy ? "lazy" : undefined}
        onLoad={(e) => setSize({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
      />
      {rect && (
        <span
          className="run-shot-box"
          data-testid="element-box"
          style={{ left: `${rect.left}%`, top: `${rect.top}%`, width: `${rect.width}%`, height: `${rect.height}%` }}
        />
      )}
    </span>
  );
}
