// A retried run's attempts (issue 31, docs/retries.md): the Flaky badge of
// a run that failed and then passed, and the switch between its attempts
// on the run page, each with its own steps, screenshots and trace.
import type { Run } from "../../api/runs";

export type AttemptResult = NonNullable<Run["attemptResults"]>[number];

/** FlakyBadge marks a run that passed after a failed attempt; nothing for any other run. */
export function FlakyBadge({ run }: { run: Pick<Run, "flaky"> & { attemptResults?: Run["attemptResults"] } }) {
  if (!run.flaky) return null;
  const n = run.attemptResults?.length ?? 0;
  return (
    <span className="badge run-flaky" title={n > 1 ? `Passed after ${n} attempts` : "Passed after a retry"}>
      Flaky
    </span>
  );
}

/** shownAttempt is the attempt the page shows: the one chosen, else the last (the run's own result). */
export function shownAttempt(attempts: readonly AttemptResult[], chosen: number | null): AttemptResult | null {
  if (attempts.length < 2) return null;
  return attempts.find((a) => a.attempt === chosen) ?? attempts[attempts.length - 1];
}

/** AttemptSwitch chooses the attempt to show: "Attempt 1 · failed", "Attempt 2 · passed". */
export function AttemptSwitch({
  attempts,
  shown,
  onShow,
}: {
  attempts: readonly AttemptResult[];
  shown: AttemptResult;
  onShow: (attempt: number) => void;
}) {
  return (
    <section aria-labelledby="run-attempts-heading" className="run-attempts">
      <h2 id="run-attempts-heading">Attempts</h2>
      <div role="group" aria-label="Attempts" className="run-attempt-switch">
        {attempts.map((a) => (
          <button
            key={a.attempt}
            type="button"
            aria-pressed={a.attempt === shown.attempt}
            className={`run-attempt run-attempt-${a.status}`}
            onClick={() => onShow(a.attempt)}
          >
            Attempt {a.attempt} · {a.status}
          </button>
        ))}
      </div>
      {shown.status !== "passed" && shown.error && (
        <p className="run-attempt-error" data-testid="attempt-error">
          Attempt {shown.attempt} {shown.status}: {shown.error}
        </p>
      )}
      {shown.attempt !== attempts[attempts.length - 1].attempt && (
        <p className="muted">The steps, screenshots and trace below are attempt {shown.attempt}&apos;s.</p>
      )}
    </section>
  );
}

/** RetryNotice says, while a run is retried, which attempt is running and why. */
export function RetryNotice({ attempt, of, note }: { attempt: number; of: number; note: string }) {
  if (attempt < 2) return null;
  return (
    <p className="notice run-retrying" role="status">
      <strong>
        Attempt {attempt} of {of} running.
      </strong>{" "}
      {note}
    </p>
  );
}
