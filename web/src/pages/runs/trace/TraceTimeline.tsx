// The trace's timeline: the step executions in the order they ran, as a
// listbox (one tab stop; the arrow keys, Home, End and the page keys move
// the selection), each with its number, status, duration, a bar placing
// it in the run's time, and markers for console errors and failed
// requests. Windowed: a run of 200 steps renders the ones in view.
import { useId, type KeyboardEvent } from "react";
import { StatusBadge, formatDuration } from "../../../components/ui";
import type { TraceStep } from "../../../api/traceApi";
import { execLabel } from "../compare/compareModel";
import type { StepMarks } from "./traceModel";
import { Windowed } from "./Windowed";

const ROW = 52;
const HEIGHT = 520;
const PAGE = 8;

/** "3.1 · iteration 2": a step execution's number as the run page says it. */
export function stepLabel(s: TraceStep, number: (index: number) => string): string {
  return execLabel(s.index, s.iteration, number);
}

export function TraceTimeline({
  steps,
  marks,
  selected,
  onSelect,
  number,
  describe,
}: {
  steps: TraceStep[];
  marks: StepMarks[];
  selected: number;
  onSelect: (pos: number) => void;
  number: (index: number) => string;
  describe: (index: number) => string;
}) {
  const id = useId();
  const optionId = (p: number) => `${id}-step-${p}`;
  // The bars' scale: from the run's start to the end of its last step.
  const span = Math.max(1, ...steps.map((s) => s.startMs + s.durationMs));
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const last = steps.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: selected + 1,
      ArrowUp: selected - 1,
      Home: 0,
      End: last,
      PageDown: selected + PAGE,
      PageUp: selected - PAGE,
    };
    if (!(e.key in moves) || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    onSelect(Math.min(last, Math.max(0, moves[e.key])));
  };
  return (
    <Windowed
      count={steps.length}
      rowHeight={ROW}
      height={HEIGHT}
      keepInView={selected}
      outer={{
        role: "listbox",
        "aria-label": "Steps of the trace",
        tabIndex: 0,
        "aria-activedescendant": selected >= 0 ? optionId(selected) : undefined,
        className: "trace-timeline",
        onKeyDown: onKey,
      }}
      row={(p) => {
        const s = steps[p];
        const m = marks[p];
        const text = describe(s.index);
        return (
          <div
            key={p}
            id={optionId(p)}
            role="option"
            aria-selected={p === selected}
            data-testid={`trace-step-${p}`}
            className={`trace-step trace-step-${s.status}${p === selected ? " trace-step-selected" : ""}`}
            style={{ height: ROW }}
            onClick={() => onSelect(p)}
          >
            <span className="trace-step-line">
              <span className="trace-step-num">
                <span className="sr-only">Step </span>
                {stepLabel(s, number)}
              </span>
              <code className="run-step-type">{s.type}</code>
              <span className="trace-step-text" title={text}>
                {text}
              </span>
            </span>
            <span className="trace-step-line">
              <StatusBadge status={s.status} />
              <span className="trace-step-duration">{formatDuration(s.durationMs)}</span>
              {m.errors > 0 && (
                <span className="trace-mark trace-mark-error" title={`${m.errors} console error${m.errors === 1 ? "" : "s"}`}>
                  <span aria-hidden="true">⚠ </span>
                  {m.errors}
                  <span className="sr-only"> console error{m.errors === 1 ? "" : "s"}</span>
                </span>
              )}
              {m.failedRequests > 0 && (
                <span
                  className="trace-mark trace-mark-request"
                  title={`${m.failedRequests} failed request${m.failedRequests === 1 ? "" : "s"}`}
                >
                  <span aria-hidden="true">⇅ </span>
                  {m.failedRequests}
                  <span className="sr-only"> failed request{m.failedRequests === 1 ? "" : "s"}</span>
                </span>
              )}
              <span className="trace-bar" aria-hidden="true">
                <span style={{ left: `${(100 * s.startMs) / span}%`, width: `${Math.max(0.5, (100 * s.durationMs) / span)}%` }} />
              </span>
            </span>
          </div>
        );
      }}
    />
  );
}
