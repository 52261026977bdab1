// The run page's "Trace" section (issue 30, docs/trace.md "The run
// page"): a timeline of the run's step executions and, for the selected
// one, its screenshot, its DOM snapshot, and the console lines and
// requests of it and the steps around it. The failed step is selected on
// open; filters narrow the lists to errors and failed requests.
import { useEffect, useMemo, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { ErrorBox, Loading } from "../../../components/ui";
import { artifactUrl, type RunBox } from "../../../api/runs";
import { fetchRunTrace, traceKeys, traceZipUrl, type RunTrace } from "../../../api/traceApi";
import { ShotImage } from "../runStepParts";
import type { StepView } from "../runState";
import { execKey } from "../outline";
import { ConsoleList, NetworkTable } from "./TraceLists";
import { SnapshotFrame } from "./SnapshotFrame";
import { TraceTimeline, stepLabel } from "./TraceTimeline";
import { initialSelection, isConsoleError, isFailedRequest, listRows, stepMarks, traceKey } from "./traceModel";
import "./trace.css";

export interface TracePanelProps {
  runId: string;
  /** The run's step executions as the run page has them: their screenshots. */
  executions: StepView[];
  /** A step's number by index, as the run page numbers it (outline numbers with blocks). */
  number: (index: number) => string;
  /** What a step does, in words, by index. */
  describe: (index: number) => string;
  /** A step execution to select (its execKey), asked from outside (the comparison); at tells two asks apart. */
  focus?: TraceFocus | null;
  /** A retried run's attempt whose trace to show (docs/retries.md); 1 when absent. */
  attempt?: number;
}

export interface TraceFocus {
  key: string;
  at: number;
}

export function TracePanel(props: TracePanelProps) {
  const q = useQuery({
    queryKey: traceKeys.trace(props.runId, props.attempt),
    queryFn: ({ signal }) => fetchRunTrace(props.runId, signal, props.attempt),
    staleTime: Infinity,
  });
  const trace = q.data;
  // Asked to show a step: the section comes into view.
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (props.focus) ref.current?.scrollIntoView?.({ block: "start", behavior: "smooth" });
  }, [props.focus]);
  return (
    <section aria-labelledby="run-trace-heading" className="run-trace" ref={ref}>
      <h2 id="run-trace-heading">Trace</h2>
      {q.isPending ? (
        <Loading label="Loading the trace" />
      ) : q.isError ? (
        <ErrorBox error={q.error} title="The trace could not be loaded" />
      ) : !trace || trace.mode === "off" || (trace.steps ?? []).length === 0 ? (
        <p className="muted" data-testid="trace-none">
          {trace?.mode === "off" ? "No trace: this run ran with the trace off." : "No trace was recorded for this run."}
        </p>
      ) : (
        <TraceView trace={trace} {...props} />
      )}
    </section>
  );
}

function TraceView({ trace, runId, executions, number, describe, focus }: TracePanelProps & { trace: RunTrace }) {
  const steps = trace.steps;
  const [picked, setPicked] = useState<number | null>(null);
  // A step asked from outside is selected once per ask; the timeline's own selection goes on from there.
  const [asked, setAsked] = useState<TraceFocus | null | undefined>(null);
  if (focus && focus !== asked) {
    setAsked(focus);
    const p = steps.findIndex((s) => traceKey(s) === focus.key);
    if (p >= 0) setPicked(p);
  }
  const [errorsOnly, setErrorsOnly] = useState(false);
  const [failedOnly, setFailedOnly] = useState(false);
  const [all, setAll] = useState(false);
  const selected = picked ?? initialSelection(steps);
  const step = steps[selected];

  const marks = useMemo(() => stepMarks(steps), [steps]);
  const consoleRows = useMemo(
    () => listRows(steps, selected, (s) => s.console, all, errorsOnly ? isConsoleError : null),
    [steps, selected, all, errorsOnly],
  );
  const networkRows = useMemo(
    () => listRows(steps, selected, (s) => s.network, all, failedOnly ? isFailedRequest : null),
    [steps, selected, all, failedOnly],
  );
  const shots = useMemo(() => {
    const m = new Map<string, { name: string; box: RunBox | null }>();
    for (const e of executions) {
      const name = e.shot || e.screenshots[0];
      if (name) m.set(execKey(e.index, e.iteration), { name, box: name === e.shot ? e.box : null });
    }
    return m;
  }, [executions]);

  const label = (p: number) => stepLabel(steps[p], number);
  const place = `step ${label(selected)}`;
  const shot = shots.get(traceKey(step));
  const where = all ? "in the run" : "in this step or the steps around it";
  return (
    <>
      <p className="trace-intro muted">
        Recorded with the trace {trace.mode === "on" ? "on: everything, every step" : "on failures"}.{" "}
        <a href={traceZipUrl(runId)} download>
          Download the trace (zip)
        </a>
      </p>
      <div className="trace-layout">
        <TraceTimeline steps={steps} marks={marks} selected={selected} onSelect={setPicked} number={number} describe={describe} />
        <section className="trace-detail" aria-label={`Selected ${place}`}>
          <h3 className="trace-detail-head">
            Step {label(selected)} <code className="run-step-type">{step.type}</code> <span className="muted">{describe(step.index)}</span>
          </h3>
          <div className="trace-pictures">
            <section aria-label="Screenshot" className="trace-shot">
              {shot ? (
                <ShotImage src={artifactUrl(runId, shot.name)} alt={`Screenshot of ${place}`} box={shot.box} />
              ) : (
                <p className="muted trace-empty">No screenshot of this step.</p>
              )}
            </section>
            <section aria-label="DOM snapshot" className="trace-dom">
              <SnapshotFrame key={traceKey(step)} runId={runId} step={step} place={place} />
            </section>
          </div>
          <div className="trace-filters" role="group" aria-label="Filters">
            <label>
              <input type="checkbox" checked={errorsOnly} onChange={(e) => setErrorsOnly(e.target.checked)} /> Errors only
            </label>
            <label>
              <input type="checkbox" checked={failedOnly} onChange={(e) => setFailedOnly(e.target.checked)} /> Failed requests only
            </label>
            <label>
              <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> Show all steps
            </label>
          </div>
          {(step.dropped ?? 0) > 0 && (
            <p className="notice" role="note">
              {step.dropped} more console lines or requests of this step were left out (over 2,000 each).
            </p>
          )}
          <section aria-labelledby="trace-console-heading">
            <h4 id="trace-console-heading">Console ({consoleRows.length})</h4>
            <ConsoleList
              key={traceKey(step)}
              rows={consoleRows}
              stepOf={label}
              empty={`No console ${errorsOnly ? "error" : "line"} ${where}.`}
            />
          </section>
          <section aria-labelledby="trace-network-heading">
            <h4 id="trace-network-heading">Network ({networkRows.length})</h4>
            <NetworkTable
              key={traceKey(step)}
              rows={networkRows}
              stepOf={label}
              empty={`No ${failedOnly ? "failed request" : "request"} ${where}.`}
            />
          </section>
        </section>
      </div>
    </>
  );
}
