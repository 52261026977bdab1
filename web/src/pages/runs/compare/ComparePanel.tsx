// The run page's "Since it last passed" section (issue 30, docs/trace.md
// "Since it last passed: the run page"): a failed run compared with the
// last passed run of its test on the same environment
// (GET /api/runs/:id/compare): the run compared with, the step where they
// diverged, its two screenshots with a pixel overlay, the requests whose
// outcome changed, the new console errors and the document's diff.
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { ErrorBox, Loading, formatDate } from "../../../components/ui";
import { ApiError } from "../../../api/client";
import { compareKeys, fetchComparison, type RunComparison } from "../../../api/compareApi";
import { fetchRunTrace, traceKeys } from "../../../api/traceApi";
import { fetchRegistry } from "../../../api/editorApi";
import { execKey } from "../outline";
import { StepDiff } from "../../components/ImpactView";
import { traceKey } from "../trace/traceModel";
import { ChangedRequests, Diverged, NewConsoleErrors, Screenshots } from "./CompareParts";
import { prunedWords } from "../PrunedNotice";
import "../../components/components.css";
import "./compare.css";

export interface ComparePanelProps {
  runId: string;
  /** A step's number by index, as the run page numbers it. */
  number: (index: number) => string;
  /** What a step does, in words, by index. */
  describe: (index: number) => string;
  /** Selects a step execution (its execKey) in the Trace section. */
  onShowInTrace?: (key: string) => void;
  /** The attempt the comparison reads: a retried run's last (docs/retries.md); 1 when it was not retried. */
  attempt?: number;
}

/** The one line a refusal of the hub shows instead of the comparison. */
function refusal(e: unknown): string | null {
  if (!(e instanceof ApiError)) return null;
  if (e.status === 409) return "This run is compared once it has finished.";
  if (e.status === 404) return "No comparison is available for this run.";
  if (e.status === 422) return `Not compared: ${e.message}`;
  return null;
}

export function ComparePanel(props: ComparePanelProps) {
  const q = useQuery({
    queryKey: compareKeys.compare(props.runId),
    queryFn: ({ signal }) => fetchComparison(props.runId, signal),
    staleTime: Infinity,
    retry: false,
  });
  const line = q.isError ? refusal(q.error) : null;
  return (
    <section aria-labelledby="run-compare-heading" className="run-compare">
      <h2 id="run-compare-heading">Since it last passed</h2>
      {q.isPending ? (
        <Loading label="Comparing with the last passed run" />
      ) : line ? (
        <p className="muted" data-testid="compare-none">
          {line}
        </p>
      ) : q.isError ? (
        <ErrorBox error={q.error} title="The comparison could not be loaded" />
      ) : (
        <Comparison c={q.data} {...props} />
      )}
    </section>
  );
}

function Comparison({ c, runId, number, describe, onShowInTrace, attempt = 1 }: ComparePanelProps & { c: RunComparison }) {
  // The trace's query, shared with the Trace section: the button shows only when the trace holds the step.
  const trace = useQuery({
    queryKey: traceKeys.trace(runId, attempt),
    queryFn: ({ signal }) => fetchRunTrace(runId, signal, attempt),
    staleTime: Infinity,
    enabled: !!onShowInTrace && !!c.diverged?.status,
  });
  const registry = useQuery({ queryKey: ["registry"], queryFn: fetchRegistry, staleTime: Infinity, enabled: !!c.document });
  const b = c.baseline;
  if (!b) {
    return (
      <p className="muted" data-testid="compare-none">
        {c.note || "No passed run of this test on this environment before this one."}
      </p>
    );
  }
  const other = b.status === "passed" ? "the last passed run" : "the run compared with";
  const d = c.diverged;
  const key = d ? execKey(d.index, d.iteration) : "";
  // A step this run did not run is in no trace of it.
  const inTrace = !!d?.status && !!trace.data?.steps?.some((s) => traceKey(s) === key);
  return (
    <>
      <p className="cmp-baseline" data-testid="compare-baseline">
        Compared with{" "}
        <Link to={`/runs/${encodeURIComponent(b.runId)}`} title={b.runId}>
          the {b.status === "passed" ? "passed " : ""}run of {formatDate(b.startedAt ?? b.finishedAt)}
        </Link>
        , version {b.version}
        {b.status !== "passed" && ` (${b.status})`}.
      </p>
      {b.artifactsPrunedAt && (
        <p className="muted" data-testid="compare-pruned">
          Of {other}: {prunedWords(b.artifactsPrunedAt)}
        </p>
      )}
      {c.artifactsPrunedAt && <p className="muted">Of this run: {prunedWords(c.artifactsPrunedAt)}</p>}
      {d ? (
        <>
          <Diverged
            d={d}
            other={other}
            number={number}
            describe={describe}
            onShow={inTrace && onShowInTrace ? () => onShowInTrace(key) : undefined}
          />
          <Screenshots runId={runId} baselineId={b.runId} d={d} other={other} />
        </>
      ) : (
        <p className="muted">The two runs ran the same steps with the same statuses.</p>
      )}
      <ChangedRequests rows={c.requests ?? []} more={c.requestsDropped} number={number} />
      <NewConsoleErrors rows={c.consoleErrors ?? []} more={c.consoleDropped} number={number} />
      <section aria-labelledby="cmp-document-heading">
        <h3 id="cmp-document-heading">Document changes</h3>
        {c.document ? (
          <>
            <p>
              {c.document.version === c.document.baselineVersion
                ? `Both ran version ${c.document.version}, edited in between (a Draft saved again).`
                : `This run ran version ${c.document.version}; ${other} ran version ${c.document.baselineVersion}.`}
            </p>
            <StepDiff
              diff={c.document.diff ?? []}
              registry={registry.data}
              label={
                c.document.version === c.document.baselineVersion
                  ? `Changes to version ${c.document.version} since ${other}`
                  : `Changes from version ${c.document.baselineVersion} to ${c.document.version}`
              }
            />
          </>
        ) : (
          <p className="muted">Same steps (version {b.version}).</p>
        )}
      </section>
    </>
  );
}
