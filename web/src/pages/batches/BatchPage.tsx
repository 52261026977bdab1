// A batch (/batches/:id): runs of many tests started at once. It polls GET
// /api/batches/:id every second until every run is final: progress, the
// summary (passed, failed, errors, total duration), each run with its test,
// status and steps passed, and "Run again" / "Run the failed ones again",
// which start a new batch with the same options.
import { Link, useNavigate, useParams } from "react-router";
import { useMutation, useQuery } from "@tanstack/react-query";
import { ErrorBox, IssueList, Loading, PageHeader, StatusBadge, When, formatDuration } from "../../components/ui";
import { QuarantinedBadge } from "../runs/QuarantinedRun";
import { fetchBatch, rerunBatch, type Batch } from "../../api/batches";
import { isFinalStatus } from "../../api/runs";
import { BatchProgress } from "./BatchProgress";
import { envName, passedOfTotal, runDuration, useEnvironmentNames, useStarterName } from "../runs/runBits";
import { FlakyBadge } from "../runs/RunAttempts";
import "./batches.css";

export const BATCH_POLL_MS = 1000;

/** batchTitle names a batch by where its tests came from. */
export function batchTitle(b: Pick<Batch, "source" | "suite" | "total">): string {
  if (b.source === "suite") return b.suite ? `Suite ${b.suite}` : "Unsorted tests";
  if (b.source === "rerun") return `Run again: ${b.total} ${b.total === 1 ? "test" : "tests"}`;
  return `${b.total} ${b.total === 1 ? "test" : "tests"}`;
}

/** batchSummary says how the batch stands, in words. */
export function batchSummary(b: Pick<Batch, "counts" | "total" | "passed" | "failed">): string {
  const parts = [`${b.passed} passed`, `${b.counts.failed} failed`];
  if (b.counts.error) parts.push(`${b.counts.error} error${b.counts.error === 1 ? "" : "s"}`);
  if (b.counts.cancelled) parts.push(`${b.counts.cancelled} cancelled`);
  if (b.counts.quarantined) parts.push(`${b.counts.quarantined} quarantined`);
  const waiting = b.counts.queued + b.counts.running;
  if (waiting) parts.push(`${waiting} to go`);
  return `${parts.join(", ")} of ${b.total}`;
}

export function BatchPage() {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const batch = useQuery({
    queryKey: ["batch", id],
    queryFn: ({ signal }) => fetchBatch(id, signal),
    refetchInterval: (q) => (q.state.data && isFinalStatus(q.state.data.status) ? false : BATCH_POLL_MS),
  });
  const rerun = useMutation({
    mutationFn: (failedOnly: boolean) => rerunBatch(id, failedOnly),
    onSuccess: (res) => navigate(`/batches/${res.batchId}`),
  });
  const envs = useEnvironmentNames(batch.data?.projectId);
  const starter = useStarterName();

  if (batch.isPending) return <Loading label="Loading the batch" />;
  if (!batch.data) return <ErrorBox error={batch.error} title="The batch could not be loaded" />;
  const b = batch.data;
  const final = isFinalStatus(b.status);
  const done = b.total - b.counts.queued - b.counts.running;

  return (
    <div className="batch-page">
      <PageHeader
        title={
          <>
            {batchTitle(b)} <StatusBadge status={b.status} />
          </>
        }
        subtitle={
          <>
            Started by {starter(b)} <When at={b.createdAt} />
            {b.schedule && (
              <>
                {" "}
                · by schedule <Link to="/schedules">{b.schedule.name}</Link>
              </>
            )}
            {b.rerunOf && (
              <>
                {" "}
                · again from <Link to={`/batches/${b.rerunOf}`}>the earlier batch</Link>
              </>
            )}
          </>
        }
      >
        <button type="button" onClick={() => rerun.mutate(false)} disabled={rerun.isPending || b.total === 0}>
          Run again
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => rerun.mutate(true)}
          disabled={rerun.isPending || b.failed === 0}
          title={b.failed === 0 ? "No finished run of this batch failed" : undefined}
        >
          Run the failed ones again
        </button>
        <a
          className="button"
          href={`/api/batches/${encodeURIComponent(b.id)}/junit`}
          download
          title={final ? "The results as JUnit XML, for CI tools" : "Runs not finished yet are reported as skipped"}
        >
          Download JUnit XML
        </a>
      </PageHeader>
      <ErrorBox error={rerun.error} title="The runs were not started" />
      <IssueList error={rerun.error} />

      <section className={`batch-summary batch-summary-${b.status}`} aria-label="Summary">
        <BatchProgress b={b} />
        <p className="batch-counts" role="status">
          {batchSummary(b)}
        </p>
        <dl className="batch-facts">
          <div>
            <dt>Duration</dt>
            <dd>{formatDuration(b.durationMs)}</dd>
          </div>
          <div>
            <dt>Environment</dt>
            <dd>{b.environmentId ? envName(b.environmentId, envs.data) : "none"}</dd>
          </div>
          <div>
            <dt>Browser</dt>
            <dd>
              {b.options.headed ? "headed" : "headless"}, screenshots of {b.options.screenshots ? "every step" : "failures"}
            </dd>
          </div>
          <div>
            <dt>{final ? "Finished" : "Progress"}</dt>
            <dd>{final ? <When at={b.finishedAt} /> : `${done} of ${b.total} finished`}</dd>
          </div>
        </dl>
      </section>

      <table className="table batch-runs">
        <caption className="sr-only">Runs of this batch</caption>
        <thead>
          <tr>
            <th scope="col">Test</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Passed
            </th>
            <th scope="col" className="num">
              Duration
            </th>
            <th scope="col">Run</th>
          </tr>
        </thead>
        <tbody>
          {b.runs.map((r) => (
            <tr key={r.runId} className={`batch-run-${r.status}`}>
              <td>
                <Link to={`/tests/${r.testId}`}>{r.testName}</Link> <span className="muted">v{r.version}</span>
                {r.error && <div className="batch-error">{r.error}</div>}
              </td>
              <td>
                <StatusBadge status={r.status} />
                <FlakyBadge run={r} />
                <QuarantinedBadge quarantined={r.quarantined} />
              </td>
              <td className="num">{passedOfTotal(r)}</td>
              <td className="num">{runDuration(r)}</td>
              <td>
                <Link to={`/runs/${r.runId}`} aria-label={`Open the run of ${r.testName}`}>
                  Open run
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
