// The parts of the run page's "Since it last passed" section: the step
// where the runs diverged, its two screenshots with the pixel overlay,
// the requests whose outcome changed and the new console errors.
import { useState } from "react";
import { StatusBadge } from "../../../components/ui";
import { artifactUrl } from "../../../api/runs";
import {
  comparePixelsUrl,
  type CompareConsoleError,
  type CompareDiverged,
  type CompareRequest,
  type ComparePixels,
} from "../../../api/compareApi";
import { sourcePlace } from "../trace/traceModel";
import { divergeWords, execLabel, outcomeWords, pixelWords } from "./compareModel";

type Number = (index: number) => string;

/** The step execution where the runs diverged, both statuses, why, and a way to it in the trace. */
export function Diverged({
  d,
  other,
  number,
  describe,
  onShow,
}: {
  d: CompareDiverged;
  /** The run compared with, in words ("the last passed run"). */
  other: string;
  number: Number;
  describe: (index: number) => string;
  /** Selects the step in the Trace section; absent when the trace does not hold it. */
  onShow?: () => void;
}) {
  const label = execLabel(d.index, d.iteration, number);
  return (
    <section aria-labelledby="cmp-diverged-heading" className="cmp-diverged">
      <h3 id="cmp-diverged-heading">Where the runs diverged</h3>
      <p className="cmp-diverged-step" data-testid="cmp-diverged-step">
        Step {label} <code className="run-step-type">{d.type}</code> <span className="muted">{describe(d.index)}</span>
      </p>
      <p className="cmp-diverged-reason" data-testid="cmp-diverged-reason">
        <strong>{divergeWords(d, other)}.</strong>
      </p>
      <p className="cmp-diverged-statuses">
        This run: {d.status ? <StatusBadge status={d.status} /> : <span className="muted">not run</span>}; {other}:{" "}
        {d.baselineStatus ? <StatusBadge status={d.baselineStatus} /> : <span className="muted">not run</span>}
        {onShow && (
          <>
            {" "}
            <button type="button" onClick={onShow}>
              Show step {label} in the trace
            </button>
          </>
        )}
      </p>
    </section>
  );
}

/** The two screenshots of the diverging step side by side; "Show differences" lays the pixel overlay on this run's. */
export function Screenshots({ runId, baselineId, d, other }: { runId: string; baselineId: string; d: CompareDiverged; other: string }) {
  const [overlay, setOverlay] = useState(false);
  if (!d.screenshot && !d.baselineScreenshot) return null;
  const pixels: ComparePixels | null = d.screenshot && d.baselineScreenshot ? d.pixels : null;
  return (
    <section aria-labelledby="cmp-shots-heading" className="cmp-shots-section">
      <h3 id="cmp-shots-heading">Screenshots of that step</h3>
      {pixels ? (
        <p className="cmp-shots-tools">
          <label className="inline">
            <input type="checkbox" checked={overlay} onChange={(e) => setOverlay(e.target.checked)} /> Show differences
          </label>{" "}
          <span data-testid="cmp-pixels">{pixelWords(pixels)}.</span>
        </p>
      ) : (
        d.screenshot && d.baselineScreenshot && <p className="muted">The screenshots differ in size: their pixels are not compared.</p>
      )}
      <div className="cmp-shots">
        <figure>
          <figcaption>This run</figcaption>
          {d.screenshot ? (
            <span className="cmp-shot-frame">
              <img src={artifactUrl(runId, d.screenshot)} alt="Screenshot of this run" />
              {overlay && pixels && <img className="cmp-shot-overlay" src={comparePixelsUrl(runId)} alt="Pixels that differ, in magenta" />}
            </span>
          ) : (
            <p className="muted">No screenshot.</p>
          )}
        </figure>
        <figure>
          <figcaption>{other.charAt(0).toUpperCase() + other.slice(1)}</figcaption>
          {d.baselineScreenshot ? (
            <span className="cmp-shot-frame">
              <img src={artifactUrl(baselineId, d.baselineScreenshot)} alt={`Screenshot of ${other}`} />
            </span>
          ) : (
            <p className="muted">No screenshot.</p>
          )}
        </figure>
      </div>
    </section>
  );
}

const dropped = (n: number | undefined, what: string) =>
  (n ?? 0) > 0 ? (
    <p className="muted">
      {n} more {what} left out.
    </p>
  ) : null;

/** The requests whose outcome changed: before (the baseline) and now. */
export function ChangedRequests({ rows, more, number }: { rows: CompareRequest[]; more?: number; number: Number }) {
  return (
    <section aria-labelledby="cmp-requests-heading">
      <h3 id="cmp-requests-heading">Requests whose status changed ({rows.length})</h3>
      {rows.length === 0 ? (
        <p className="muted">No request changed its outcome.</p>
      ) : (
        <table className="cmp-requests" aria-label="Requests whose status changed">
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col">Method</th>
              <th scope="col">URL</th>
              <th scope="col">Before</th>
              <th scope="col">Now</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => {
              const now = outcomeWords(r.status, r.failure);
              const bad = !!r.failure || r.status === 0 || r.status >= 400;
              return (
                <tr key={i} className={bad ? "cmp-request-bad" : undefined}>
                  <td>{execLabel(r.index, r.iteration, number)}</td>
                  <td>{r.method}</td>
                  <td className="cmp-url" title={r.url}>
                    {r.url}
                  </td>
                  <td>{outcomeWords(r.baselineStatus, r.baselineFailure)}</td>
                  <td>{now}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {dropped(more, "changed requests were")}
    </section>
  );
}

/** The console errors of this run that no error of the baseline has. */
export function NewConsoleErrors({ rows, more, number }: { rows: CompareConsoleError[]; more?: number; number: Number }) {
  return (
    <section aria-labelledby="cmp-console-heading">
      <h3 id="cmp-console-heading">New console errors ({rows.length})</h3>
      {rows.length === 0 ? (
        <p className="muted">No new console error.</p>
      ) : (
        <ul className="cmp-console" aria-label="New console errors">
          {rows.map((c, i) => {
            const place = sourcePlace(c);
            return (
              <li key={i}>
                <span className="cmp-console-text">{c.text}</span>{" "}
                {place && (
                  <span className="muted mono" title={c.url}>
                    {place}
                  </span>
                )}{" "}
                <span className="muted">step {execLabel(c.index, c.iteration, number)}</span>
              </li>
            );
          })}
        </ul>
      )}
      {dropped(more, "new console errors were")}
    </section>
  );
}
