// A data-driven run on its page: the data set and pool record it used
// (RunDataFacts, inside the run's facts), and the Rows table: each row's
// values, status, steps passed and duration, live from the row events.
// Opening a row shows its values, its steps with their errors and its
// screenshots (GET /api/runs/:id/rows/:row and the row's artifacts).
import { useState } from "react";
import { Link } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { ErrorBox, Loading, Modal, StatusBadge, formatDuration } from "../../components/ui";
import { AttemptSwitch, FlakyBadge, shownAttempt } from "./RunAttempts";
import type { Step } from "../../api";
import { fetchRunRow, isFinalStatus, rowArtifactUrl, type Run, type RunEvent, type StepResult } from "../../api/runs";
import { getDataSet, testDataKeys } from "../../api/testData";
import { dataPoolKeys, getDataPool } from "../../api/dataPools";
import { rowElapsed, rowsSummary, rowsView, type RowView } from "./rowState";
import { rowPreview } from "./DataRunFields";
import { numberOf } from "./runCalls";
import { allSteps, documentStepNumbers, execKey, iterationWords } from "./outline";
import { allResults } from "./runState";
import { NoScreenshot, StepOutput } from "./runStepParts";
import "./runData.css";
import { prunedWords } from "./PrunedNotice";

/** Whether a run runs once per row of a data set. */
export function isDataDriven(run: Run): boolean {
  return !!run.dataSetId || (run.rows?.length ?? 0) > 0;
}

function useDataSetName(id: string | undefined) {
  return useQuery({
    queryKey: testDataKeys.one(id ?? ""),
    queryFn: () => getDataSet(id ?? ""),
    enabled: !!id,
    retry: false,
    staleTime: 60_000,
  });
}

/** The data set and the pool record of a run, as entries of the run's facts (a <dl>). */
export function RunDataFacts({ run }: { run: Run }) {
  const set = useDataSetName(run.dataSetId);
  const poolBinding = run.document?.data?.pool;
  const poolId = run.pool?.id ?? poolBinding ?? "";
  const pool = useQuery({
    queryKey: dataPoolKeys.one(poolId),
    queryFn: () => getDataPool(poolId),
    enabled: !!poolId,
    retry: false,
    staleTime: 60_000,
  });
  const poolName = pool.data?.name ?? (pool.isError ? "a deleted data pool" : "…");
  return (
    <>
      {run.dataSetId && (
        <div>
          <dt>Data set</dt>
          <dd>
            <Link to={`/test-data/${run.dataSetId}`}>{set.data?.name ?? (set.isError ? "a deleted data set" : "…")}</Link>
            {run.rows && `, ${run.rows.length} row${run.rows.length === 1 ? "" : "s"}`}
          </dd>
        </div>
      )}
      {run.pool ? (
        <div data-testid="run-pool">
          <dt>Data pool</dt>
          <dd>
            <Link to={`/data-pools/${run.pool.id}`}>{poolName}</Link>, record {run.pool.record + 1} (
            {run.pool.mode === "consume" ? "consumed" : "leased"})
            {Object.keys(run.pool.values).length > 0 && (
              <span className="muted"> {rowPreview(Object.keys(run.pool.values), run.pool.values)}</span>
            )}
          </dd>
        </div>
      ) : (
        poolBinding && (
          <div data-testid="run-pool">
            <dt>Data pool</dt>
            <dd>
              <Link to={`/data-pools/${poolBinding}`}>{poolName}</Link>
              <span className="muted">
                : {isFinalStatus(run.status) ? "no record was taken" : "a record is taken when an agent picks the run up"}
              </span>
            </dd>
          </div>
        )
      )}
    </>
  );
}

/** The Rows section of a data-driven run. */
export function RunRows({
  run,
  events,
  now,
  docSteps,
  describe,
}: {
  run: Run;
  events: RunEvent[];
  now: number;
  docSteps: Step[];
  describe: (s: Step | undefined) => string;
}) {
  const rows = rowsView(events, run.rows);
  const set = useDataSetName(run.dataSetId);
  const [open, setOpen] = useState<number | null>(null);
  // The values each row ran with (the run keeps them); the set's column order when it still has them.
  const values = new Map((run.rows ?? []).map((r) => [r.row, r.values ?? {}]));
  const columnsOf = (v: Record<string, string>) => {
    const known = (set.data?.columns ?? []).filter((c) => c in v);
    return known.length ? [...known, ...Object.keys(v).filter((c) => !known.includes(c))] : Object.keys(v);
  };
  const opened = open === null ? undefined : rows.find((r) => r.row === open);
  return (
    <section aria-labelledby="run-rows-heading">
      <h2 id="run-rows-heading">Rows</h2>
      <p className="muted" data-testid="rows-summary">
        {rowsSummary(rows)}. Each row ran in its own browser session.
      </p>
      <table className="table run-rows">
        <thead>
          <tr>
            <th scope="col">Row</th>
            <th scope="col">Values</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Steps passed
            </th>
            <th scope="col" className="num">
              Duration
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const elapsed = rowElapsed(r, now);
            return (
              <tr key={r.row} className={`run-row run-row-${r.status}`} data-testid={`row-${r.row + 1}`}>
                <td>
                  <button type="button" className="link-button" onClick={() => setOpen(r.row)} aria-label={`Open row ${r.row + 1}`}>
                    Row {r.row + 1}
                  </button>
                </td>
                <td className="run-row-values">{rowPreview(columnsOf(values.get(r.row) ?? {}), values.get(r.row))}</td>
                <td>
                  <StatusBadge status={r.status} />
                  <FlakyBadge run={r} />
                  {r.error && r.status !== "passed" && <span className="run-row-message">{r.error}</span>}
                </td>
                <td className="num">{r.total > 0 || isFinalStatus(r.status) ? `${r.passed}/${r.total}` : "—"}</td>
                <td className="num">{elapsed === null ? "—" : formatDuration(elapsed)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {opened && <RowDetail run={run} live={opened} docSteps={docSteps} describe={describe} onClose={() => setOpen(null)} />}
    </section>
  );
}

function RowDetail({
  run,
  live,
  docSteps,
  describe,
  onClose,
}: {
  run: Run;
  live: RowView;
  docSteps: Step[];
  describe: (s: Step | undefined) => string;
  onClose: () => void;
}) {
  const n = live.row + 1;
  // The row's live status is in the key: when it changes, the row is read again.
  const q = useQuery({
    queryKey: ["run-row", run.runId, live.row, live.status],
    queryFn: ({ signal }) => fetchRunRow(run.runId, live.row, signal),
    refetchInterval: (query) => (query.state.data && !query.state.data.final ? 3_000 : false),
  });
  const [shot, setShot] = useState<string | null>(null);
  // A retried row's attempt chosen (docs/retries.md); null: the last, the row's own result.
  const [attemptChoice, setAttemptChoice] = useState<number | null>(null);
  const row = q.data?.row;
  const attempt = shownAttempt(row?.attemptResults ?? [], attemptChoice);
  const steps = attempt ? attempt.steps : (row?.steps ?? []);
  // With blocks, a row's steps are a tree: its executions are listed in the order they ran, numbered as an outline.
  const numbers = documentStepNumbers(docSteps);
  const flat = allSteps(docSteps);
  return (
    <Modal title={`Row ${n}`} wide onClose={onClose}>
      <div className="modal-body run-row-detail">
        {q.isPending && <Loading label={`Loading row ${n}`} />}
        {q.isError && <ErrorBox error={q.error} title={`Row ${n} could not be loaded`} />}
        {row && shot && (
          <div className="run-row-shot">
            <div className="row">
              <button type="button" onClick={() => setShot(null)}>
                ← Back to row {n}
              </button>
              <span className="muted mono">{shot}</span>
              <span className="spacer" />
              <a href={rowArtifactUrl(run.runId, live.row, shot)} target="_blank" rel="noreferrer">
                Open the image in a new tab
              </a>
            </div>
            <img src={rowArtifactUrl(run.runId, live.row, shot)} alt={`Screenshot of row ${n}: ${shot}`} />
          </div>
        )}
        {row && !shot && (
          <>
            <p>
              <StatusBadge status={row.status} /> <FlakyBadge run={{ flaky: !!row.flaky, attemptResults: row.attemptResults }} />{" "}
              {row.total > 0 && (
                <span>
                  {row.passed} of {row.total} step{row.total === 1 ? "" : "s"} passed
                </span>
              )}
              {row.durationMs > 0 && <span className="muted"> in {formatDuration(row.durationMs)}</span>}
            </p>
            {row.error && <p className="run-error">{row.error}</p>}
            <h3>Values</h3>
            <table className="table run-row-values-table">
              <tbody>
                {Object.entries(row.values).map(([k, v]) => (
                  <tr key={k}>
                    <th scope="row" className="mono">
                      {k}
                    </th>
                    <td className="mono">{v}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {attempt && <AttemptSwitch attempts={row.attemptResults ?? []} shown={attempt} onShow={setAttemptChoice} />}
            <h3>Steps</h3>
            {run.artifactsPrunedAt && <p className="muted">{prunedWords(run.artifactsPrunedAt)}</p>}
            {steps.length === 0 ? (
              <p className="muted">{q.data?.final ? "No step ran." : "No step has finished yet."}</p>
            ) : (
              <ol className="run-steps">
                {allResults(steps).map((s) => (
                  <RowStep
                    key={execKey(s.index, s.iteration)}
                    step={run.artifactsPrunedAt ? { ...s, screenshot: undefined } : s}
                    number={numberOf(numbers, s.index)}
                    doc={flat[s.index]}
                    describe={describe}
                    runId={run.runId}
                    row={live.row}
                    onOpen={setShot}
                  />
                ))}
              </ol>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}

function RowStep({
  step,
  number,
  doc,
  describe,
  runId,
  row,
  onOpen,
}: {
  step: StepResult;
  /** The step's number as the editor shows it. */
  number: string;
  doc: Step | undefined;
  describe: (s: Step | undefined) => string;
  runId: string;
  row: number;
  onOpen: (name: string) => void;
}) {
  const iteration = step.iteration?.length ? iterationWords(step.iteration) : "";
  const n = `${step.index + 1}${iteration ? `-i${iteration}` : ""}`;
  const text = describe(doc);
  return (
    <li className={`run-step run-step-${step.status}`} data-testid={`row-step-${n}`}>
      <span className="run-step-num">
        <span className="sr-only">Step </span>
        {number}
      </span>
      <div className="run-step-main">
        <div className="run-step-head">
          <code className="run-step-type">{step.type || doc?.type}</code>
          {text && <span className="run-step-text">{text}</span>}
          {iteration && <span className="run-branch">iteration {iteration}</span>}
        </div>
        <StepOutput type={step.type || doc?.type || ""} used={step.used ?? null} />
        {step.error && <p className="run-error">{step.error}</p>}
        <NoScreenshot why={step.screenshotError ?? ""} />
        {step.screenshot && (
          <div className="run-thumbs">
            <button
              type="button"
              className="run-thumb"
              aria-label={`Open screenshot of step ${number}${iteration ? `, iteration ${iteration}` : ""}`}
              onClick={() => onOpen(step.screenshot ?? "")}
            >
              <img src={rowArtifactUrl(runId, row, step.screenshot)} alt="" loading="lazy" />
            </button>
          </div>
        )}
      </div>
      <div className="run-step-side">
        <StatusBadge status={step.status} />
        <span className="run-step-duration">{step.status === "skipped" && !step.durationMs ? "" : formatDuration(step.durationMs)}</span>
      </div>
    </li>
  );
}
