// A step's DOM snapshot, shown as the page was: read as text and put in an
// iframe sandboxed without scripts, under a policy that loads nothing
// (traceModel.snapshotDoc), the step's target outlined and scrolled into
// view, the locator's other matches dashed; "Before" shows the DOM before
// the step when the trace kept it (the failed step).
import { useMemo, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { ErrorBox, Loading } from "../../../components/ui";
import { artifactUrl } from "../../../api/runs";
import { fetchSnapshot, traceKeys, type TraceStep } from "../../../api/traceApi";
import { snapshotDoc } from "./traceModel";

export function SnapshotFrame({ runId, step, place }: { runId: string; step: TraceStep; place: string }) {
  const [before, setBefore] = useState(false);
  const name = (before ? step.before : step.snapshot) ?? "";
  const q = useQuery({
    queryKey: traceKeys.snapshot(runId, name),
    queryFn: ({ signal }) => fetchSnapshot(runId, name, signal),
    enabled: name !== "",
    staleTime: Infinity,
  });
  const doc = useMemo(() => (q.data === undefined ? "" : snapshotDoc(q.data)), [q.data]);
  const frame = useRef<HTMLIFrameElement>(null);
  const title = `The page ${before ? "before" : "after"} ${place}`;

  // The iframe is same-origin (allow-same-origin, no scripts): the page
  // scrolls to the target, and keeps links and forms from leaving it.
  const onLoad = () => {
    const d = frame.current?.contentDocument;
    if (!d) return;
    d.addEventListener("click", (e) => e.preventDefault(), true);
    d.addEventListener("submit", (e) => e.preventDefault(), true);
    const target = d.querySelector("[data-ta-target]") ?? d.querySelector("[data-ta-match]");
    target?.scrollIntoView?.({ block: "center", inline: "nearest" });
  };

  if (!step.snapshot && !step.before) {
    return (
      <p className="muted trace-empty" data-testid="trace-no-snapshot">
        {step.light
          ? "No DOM snapshot: the trace keeps snapshots of failed runs only (trace: failures)."
          : "No DOM snapshot was kept for this step."}
      </p>
    );
  }
  return (
    <div className="trace-snapshot">
      <div className="trace-snapshot-bar">
        <span className="muted">{title}</span>
        {step.before && (
          <button type="button" aria-pressed={before} onClick={() => setBefore(!before)}>
            Before
          </button>
        )}
        {name && (
          <a href={artifactUrl(runId, name)} target="_blank" rel="noreferrer">
            Open in a new tab
          </a>
        )}
        <span className="trace-legend">
          <span className="trace-legend-target">target</span> <span className="trace-legend-match">other matches</span>
        </span>
      </div>
      {!name ? (
        <p className="muted trace-empty">No snapshot {before ? "before" : "after"} this step was kept.</p>
      ) : q.isPending ? (
        <Loading label="Loading the snapshot" />
      ) : q.isError ? (
        <ErrorBox error={q.error} title="The snapshot could not be loaded" />
      ) : (
        <iframe
          key={name}
          ref={frame}
          title={title}
          className="trace-snapshot-frame"
          sandbox="allow-same-origin"
          srcDoc={doc}
          onLoad={onLoad}
        />
      )}
    </div>
  );
}
