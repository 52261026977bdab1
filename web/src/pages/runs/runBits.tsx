// Small pieces the run screens share: the run table of the history, the
// profile and the dashboard, and the words for a run's figures.
import { Link } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { StatusBadge, When, formatDuration } from "../../components/ui";
import { QuarantinedBadge } from "./QuarantinedRun";
import { useWorkspace } from "../../session";
import { environmentChoicesKey, isFinalStatus, listEnvironmentChoices, type Run } from "../../api/runs";
import { FlakyBadge } from "./RunAttempts";

/**
 * "3/5": steps passed of the steps run, or "2/3 rows" for a data-driven run
 * (its passed and total count rows); a dash before the run finished.
 */
export function passedOfTotal(run: Pick<Run, "status" | "passed" | "total" | "dataSetId">): string {
  if (!isFinalStatus(run.status)) return "—";
  return `${run.passed}/${run.total}${run.dataSetId ? " rows" : ""}`;
}

export function runDuration(run: Pick<Run, "status" | "durationMs">): string {
  if (run.status === "queued") return "—";
  if (run.status === "running") return "running…";
  return formatDuration(run.durationMs);
}

/** The project's environment names by id. */
export function useEnvironmentNames(projectId: string | null | undefined, enabled = true) {
  return useQuery({
    queryKey: environmentChoicesKey(projectId),
    queryFn: () => listEnvironmentChoices(projectId ?? ""),
    enabled: !!projectId && enabled,
    staleTime: 60_000,
    select: (envs) => Object.fromEntries(envs.map((e) => [e.id, e.name])) as Record<string, string>,
  });
}

/** Who started a run, in words: their name, "you", or "a former member" once the account is gone. */
export function useStarterName(): (run: Pick<Run, "startedBy" | "startedByName">) => string {
  const ws = useWorkspace();
  return (run) => {
    if (run.startedBy && run.startedBy === ws.user.id) return `${ws.user.name} (you)`;
    return run.startedByName ?? "a former member";
  };
}

/** An environment's name; "…" while the names load. */
export function envName(id: string, names: Record<string, string> | undefined): string {
  if (!names) return "…";
  return names[id] ?? "a deleted environment";
}

export interface RunTableColumns {
  test?: boolean;
  environment?: boolean;
  startedBy?: boolean;
  /** A link to the batch a run was started in. */
  batch?: boolean;
}

/**
 * RunTable lists runs: run, test, status, steps (or rows) passed, duration,
 * environment, who started it and when. Projects other than the current
 * one show no environment or starter names.
 */
export function RunTable({
  runs,
  caption,
  columns = { test: true, environment: true, startedBy: true },
  environments,
}: {
  runs: Run[];
  caption?: string;
  columns?: RunTableColumns;
  environments?: Record<string, string>;
}) {
  const starter = useStarterName();
  return (
    <table className="table run-table">
      {caption && <caption className="sr-only">{caption}</caption>}
      <thead>
        <tr>
          <th scope="col">Run</th>
          {columns.test && <th scope="col">Test</th>}
          <th scope="col">Status</th>
          <th scope="col" className="num">
            Passed
          </th>
          <th scope="col" className="num">
            Duration
          </th>
          {columns.environment && <th scope="col">Environment</th>}
          {columns.startedBy && <th scope="col">Started by</th>}
          {columns.batch && <th scope="col">Batch</th>}
          <th scope="col">Started</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <tr key={r.runId}>
            <td>
              <Link to={`/runs/${r.runId}`} className="mono">
                {r.runId}
              </Link>
            </td>
            {columns.test && (
              <td>
                <Link to={`/tests/${r.testId}`}>{r.testName}</Link> <span className="muted">v{r.version}</span>
              </td>
            )}
            <td>
              <StatusBadge status={r.status} />
              <FlakyBadge run={r} />
              <QuarantinedBadge quarantined={r.quarantined} />
            </td>
            <td className="num">{passedOfTotal(r)}</td>
            <td className="num">{runDuration(r)}</td>
            {columns.environment && (
              <td>{r.environmentId ? envName(r.environmentId, environments) : <span className="muted">none</span>}</td>
            )}
            {columns.startedBy && <td>{starter(r)}</td>}
            {columns.batch && (
              <td>
                {r.batchId ? (
                  <Link to={`/batches/${r.batchId}`} aria-label={`Batch of the run ${r.runId}`}>
                    Batch
                  </Link>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
            )}
            <td>
              <When at={r.createdAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
