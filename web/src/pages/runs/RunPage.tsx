// One run (/runs/:id): its header, live progress from the event stream
// while it runs, and the stored result once it has finished. The page state
// is runViewReducer over the events (runState.ts); the stored record
// (GET /api/runs/:id) fills in what the events have not told (yet).
import { useEffect, useLayoutEffect, useReducer, useRef, useState, type CSSProperties } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ErrorBox, Loading, Modal, PageHeader, StatusBadge, When, formatDate, formatDuration } from "../../components/ui";
import { QuarantinedRunBanner } from "./QuarantinedRun";
import type { Step } from "../../api";
import {
  artifactUrl,
  cancelRun,
  fetchRun,
  fetchRunDocument,
  isFinalStatus,
  startRun,
  type Run,
  type RunBox,
  type RunEvent,
  type RunStatus,
} from "../../api/runs";
import {
  FILM,
  filmView,
  initialRunView,
  mergeSteps,
  runStatusOf,
  runViewReducer,
  zoomOn,
  type LogEntry,
  type RunFinish,
  type RunView,
} from "./runState";
import { useFollowProject, useWorkspace } from "../../session";
import { useRunStream, type StreamState } from "./useRunStream";
import { envName, useEnvironmentNames, useStarterName } from "./runBits";
import { callStepText, groupByCall, numberOf } from "./runCalls";
import { Filmstrip, PendingSteps, ShotImage, shotPlace, type FilmShot } from "./runStepParts";
import { StepRow, stepText } from "./RunStepRow";
import { allSteps, documentStepNumbers, hasBlocks, iterationWords } from "./outline";
import { buildRunTree, passedSteps, treeExecutions } from "./runTree";
import { RunTree } from "./RunTree";
import { componentKeys, listComponents } from "../../api/components";
import { useFileNames } from "../../api/files";
import "./runs.css";
import { keys, listAgents } from "../../api/admin";
import { RunDataFacts, RunRows, isDataDriven } from "./RunRows";
import { rowsView } from "./rowState";
import { TracePanel, type TraceFocus } from "./trace/TracePanel";
import { ComparePanel } from "./compare/ComparePanel";
import { isTraceArtifact, type TraceMode } from "../../api/traceApi";
import { AttemptSwitch, FlakyBadge, RetryNotice, shownAttempt } from "./RunAttempts";
import { PrunedNotice, PrunedSection } from "./PrunedNotice";

export { stepText };

export function RunPage() {
  const { id = "" } = useParams();
  // A new run starts from an empty state.
  return <RunDetail key={id} id={id} />;
}

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [active]);
  return now;
}

function RunDetail({ id }: { id: string }) {
  const qc = useQueryClient();
  const runQ = useQuery({
    queryKey: ["run", id],
    queryFn: ({ signal }) => fetchRun(id, signal),
    // The events say most of what changes; polling catches the rest (assigned, re-queued).
    refetchInterval: (q) => (q.state.data && !q.state.data.final ? 10_000 : false),
  });
  useFollowProject(runQ.data?.run.projectId);
  const [view, dispatch] = useReducer(runViewReducer, initialRunView);
  const stream = useRunStream(
    id,
    runQ.data !== undefined,
    (e: RunEvent) => {
      dispatch(e);
      if (e.kind === "run.started" || e.kind === "run.finished") void qc.invalidateQueries({ queryKey: ["run", id] });
    },
    async () => {
      const r = await fetchRun(id);
      qc.setQueryData(["run", id], r);
      return r.final;
    },
  );

  if (runQ.isPending) return <Loading label="Loading the run" />;
  if (runQ.isError) {
    return (
      <>
        <PageHeader title="Run" />
        <ErrorBox error={runQ.error} />
      </>
    );
  }
  return <RunBody run={runQ.data.run} view={view} stream={stream} />;
}

function finishOf(run: Run, viewFinish: RunFinish | null): RunFinish | null {
  if (viewFinish) return viewFinish;
  if (!isFinalStatus(run.status)) return null;
  return { status: run.status, passed: run.passed, total: run.total, durationMs: run.durationMs, error: run.error ?? "" };
}

function RunBody({ run, view, stream }: { run: Run; view: RunView; stream: StreamState }) {
  const qc = useQueryClient();
  const status = runStatusOf(view, run.status);
  const finish = finishOf(run, view.finished);
  const active = status === "queued" || status === "running";
  const now = useNow(status === "running");
  const starter = useStarterName();

  const docQ = useQuery({
    queryKey: ["run-document", run.testId, run.version],
    queryFn: () => fetchRunDocument(run.testId, run.version),
    staleTime: Infinity,
    retry: false,
  });
  const envQ = useEnvironmentNames(run.projectId, !!run.environmentId);
  const cancel = useMutation({
    mutationFn: () => cancelRun(run.runId),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["run", run.runId] }),
  });
  const navigate = useNavigate();
  const again = useMutation({
    mutationFn: () =>
      startRun(
        {
          testId: run.testId,
          environmentId: run.environmentId ?? undefined,
          headed: run.options.headed,
          screenshots: run.options.screenshots,
          ...(run.options.trace ? { trace: run.options.trace } : {}),
          ...(run.options.retries ? { retries: run.options.retries } : {}),
          ...(run.options.device ? { device: run.options.device } : {}),
          // The same rows of the same data set.
          ...(run.dataSetId ? { dataSetId: run.dataSetId, rows: run.rows?.map((r) => r.row) } : {}),
          // The same agent choice.
          ...(run.agentId ? { agentId: run.agentId } : run.labels?.length ? { labels: run.labels } : {}),
        },
        run.projectId,
      ),
    onSuccess: (r) => {
      void qc.invalidateQueries({ queryKey: ["runs"] });
      void navigate(`/runs/${r.runId}`);
    },
  });
  // The lightbox shows the screenshot of this name.
  const [shot, setShot] = useState<string | null>(null);
  // The step execution the comparison asks the Trace section to select.
  const [traceFocus, setTraceFocus] = useState<TraceFocus | null>(null);
  // A retried run's attempt chosen (docs/retries.md); null: the last, the run's own result.
  const [attemptChoice, setAttemptChoice] = useState<number | null>(null);
  const attempts = active ? [] : (run.attemptResults ?? []);
  const attempt = shownAttempt(attempts, attemptChoice);
  const earlier = attempt && attempt !== attempts[attempts.length - 1] ? attempt : null;

  // The run's own document has component calls expanded, so its indexes match the steps'.
  const testSteps: Step[] = docQ.data?.document?.steps ?? [];
  const docSteps: Step[] = run.document?.steps ?? testSteps;
  // With blocks, the document is a tree: flat[i] is the step of index i (pre-order).
  const blocks = hasBlocks(docSteps);
  const flat = blocks ? allSteps(docSteps) : docSteps;
  // Numbered as the editor numbers the test's steps: 2.3 is the third step of the call (or block) that is step 2.
  const numbers = documentStepNumbers(docSteps);
  const num = (i: number) => numberOf(numbers, i);
  const calls = flat.some((d) => d.call);
  const compQ = useQuery({
    queryKey: componentKeys.list(run.projectId),
    queryFn: ({ signal }) => listComponents(run.projectId, signal),
    enabled: calls,
    staleTime: 60_000,
    retry: false,
  });
  const componentNames: Record<string, string> = Object.fromEntries((compQ.data ?? []).map((c) => [c.id, c.name]));
  const fileNames = useFileNames(
    run.projectId,
    flat.some((d) => d.type === "upload"),
  );
  // An earlier attempt shows its stored steps; the events tell the last one's.
  const steps = earlier ? mergeSteps(initialRunView, earlier.steps) : mergeSteps(view, run.result.steps);
  const tree = blocks ? buildRunTree(docSteps, steps, numbers, active) : null;
  // Executions in the order they ran: a loop's iterations in turn.
  const ordered = tree ? treeExecutions(tree) : steps;
  const dataDriven = isDataDriven(run);
  const total = finish?.total ?? (dataDriven ? (run.rows?.length ?? view.total ?? run.total) : (view.total ?? (flat.length || run.total)));
  const passed = finish
    ? finish.passed
    : dataDriven
      ? rowsView(view.events, run.rows).filter((r) => r.status === "passed").length
      : passedSteps(steps);
  const startedAt = run.startedAt ? new Date(run.startedAt).getTime() : null;
  const duration = finish ? finish.durationMs : status === "running" && startedAt !== null ? Math.max(0, now - startedAt) : null;
  // The trace's own artifacts are shown in the Trace section.
  const otherArtifacts = view.artifacts.filter((a) => (a.step === null || !a.contentType.startsWith("image/")) && !isTraceArtifact(a.name));
  const gallery: Shot[] = ordered.flatMap((s) =>
    s.screenshots.map((name, nth) => ({
      name,
      step: s.index,
      number: num(s.index),
      iteration: s.iteration.length ? iterationWords(s.iteration) : "",
      status: s.status,
      nth,
      text: stepText(flat[s.index], fileNames),
      box: name === s.shot ? s.box : null,
    })),
  );
  // A live run's steps still to come, once its document is known (the tree shows them in place).
  const started = new Set(steps.map((s) => s.index));
  const pending = active && !tree ? docSteps.map((doc, index) => ({ index, doc })).filter((p) => !started.has(p.index)) : [];
  const headedLost = run.options.headed && view.headed === false;
  // Retention removed its screenshots and trace (docs/retention.md): say so instead of broken pictures.
  const pruned = run.artifactsPrunedAt ?? null;

  return (
    <div className="run-page">
      <PageHeader
        title={
          <>
            Run of <Link to={`/tests/${run.testId}`}>{run.testName}</Link>
          </>
        }
        subtitle={<span className="mono">{run.runId}</span>}
      >
        {active && (
          <button type="button" className="danger" onClick={() => cancel.mutate()} disabled={cancel.isPending || cancel.isSuccess}>
            {cancel.isPending || cancel.isSuccess ? "Cancelling…" : "Cancel run"}
          </button>
        )}
        {!active && (
          <button type="button" onClick={() => again.mutate()} disabled={again.isPending}>
            {again.isPending ? "Starting…" : "Run again"}
          </button>
        )}
        <Link className="button" to={`/runs?testId=${encodeURIComponent(run.testId)}`}>
          Runs of this test
        </Link>
      </PageHeader>
      <ErrorBox error={cancel.error} title="The run could not be cancelled" />
      <ErrorBox error={again.error} title="The run could not be started again" />
      <QuarantinedRunBanner run={run} />
      {headedLost && (
        <p className="notice run-headed-lost" role="alert">
          <strong>Headed was asked for but this agent has no display: the browser ran without a window.</strong> Start the agent on a
          computer with a desktop session to watch the browser.
        </p>
      )}

      <dl className="run-facts panel">
        <div>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={status} />
            <FlakyBadge run={run} /> {active && <LiveState state={stream} />}
          </dd>
        </div>
        <div>
          <dt>Version</dt>
          <dd>v{run.version}</dd>
        </div>
        <div>
          <dt>Environment</dt>
          <dd>{run.environmentId ? envName(run.environmentId, envQ.data ?? (envQ.isError ? {} : undefined)) : "No environment"}</dd>
        </div>
        <div>
          <dt>Started by</dt>
          <dd>{starter(run)}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>
            {run.startedAt ? <When at={run.startedAt} /> : <span className="muted">not yet (queued {formatDate(run.createdAt)})</span>}
          </dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{duration === null ? "—" : formatDuration(duration)}</dd>
        </div>
        <div>
          <dt>{dataDriven ? "Rows passed" : "Steps passed"}</dt>
          <dd data-testid="run-passed">
            {passed}/{total}
          </dd>
        </div>
        <div>
          <dt>Options</dt>
          <dd>
            {run.options.headed ? (headedLost ? "Headed asked, ran headless" : "Headed") : "Headless"}; screenshots of{" "}
            {run.options.screenshots ? "every step" : "failures only"}
            {run.options.device && `; as a ${run.options.device}`}
            {run.options.trace && `; ${TRACE_WORDS[run.options.trace]}`}
            {run.options.retries > 0 && `; ${run.options.retries} ${run.options.retries === 1 ? "retry" : "retries"} on failure`}
          </dd>
        </div>
        <RunDataFacts run={run} />
      </dl>

      {status === "queued" && <QueuedNotice run={run} />}
      {active && stream === "reconnecting" && (
        <p className="notice" role="status">
          The connection to the hub was lost; reconnecting. Progress made meanwhile will show when it is back.
        </p>
      )}
      {finish && <ResultBox finish={finish} unit={dataDriven ? "row" : "step"} />}
      <PrunedNotice at={pruned} />
      {active && <RetryNotice attempt={view.runAttempt} of={run.options.retries + 1} note={view.retryNote} />}
      {attempt && !dataDriven && <AttemptSwitch attempts={attempts} shown={attempt} onShow={setAttemptChoice} />}

      {dataDriven && <RunRows run={run} events={view.events} now={now} docSteps={docSteps} describe={stepText} />}
      {!dataDriven && !pruned && (
        <Filmstrip
          shots={gallery}
          onOpen={setShot}
          picture={(f: FilmShot) => (
            <FilmPicture src={artifactUrl(run.runId, f.name)} box={gallery.find((g) => g.name === f.name)?.box ?? null} />
          )}
        />
      )}
      <section aria-labelledby="run-steps-heading" hidden={dataDriven}>
        <h2 id="run-steps-heading">Steps</h2>
        {tree && (
          <RunTree
            nodes={tree}
            testId={run.testId}
            now={now}
            fileNames={fileNames}
            callHead={(call, number) => callStepText(call, allSteps(testSteps), componentNames, number)}
          />
        )}
        {tree ? null : steps.length === 0 ? (
          <p className="muted">{active ? "No step has started yet." : "No step ran."}</p>
        ) : (
          <ol className="run-steps">
            {groupByCall(steps, (s) => docSteps[s.index]?.call).map((g) => {
              const rows = g.items.map((s) => (
                <StepRow
                  key={s.index}
                  testId={run.testId}
                  step={s}
                  number={num(s.index)}
                  doc={docSteps[s.index]}
                  now={now}
                  fileNames={fileNames}
                />
              ));
              if (g.call === null) return rows;
              return (
                <li key={`call:${g.items[0].index}`} className="run-call" data-testid={`call-${g.call}`}>
                  <div className="run-call-head">
                    {callStepText(g.call, testSteps, componentNames, num(g.items[0].index).split(".")[0])}
                  </div>
                  <ol className="run-steps run-call-steps">{rows}</ol>
                </li>
              );
            })}
          </ol>
        )}
        <PendingSteps steps={pending} numbers={num} describe={stepText} />
        {active && !tree && total > steps.length && pending.length === 0 && (
          <p className="muted">
            {total - steps.length} more step{total - steps.length === 1 ? "" : "s"} to go.
          </p>
        )}
      </section>

      {finish && !dataDriven && (status === "failed" || status === "error") && (
        <ComparePanel
          runId={run.runId}
          number={num}
          describe={(i) => stepText(flat[i], fileNames)}
          attempt={attempts[attempts.length - 1]?.attempt ?? 1}
          onShowInTrace={
            pruned
              ? undefined // no trace to show it in
              : (key) => {
                  setAttemptChoice(null); // the comparison is of the last attempt
                  setTraceFocus({ key, at: Date.now() });
                }
          }
        />
      )}
      {finish && !dataDriven && pruned && <PrunedSection at={pruned} title="Trace" />}
      {finish && !dataDriven && !pruned && (
        <TracePanel
          key={attempt?.attempt ?? 1}
          runId={run.runId}
          attempt={attempt?.attempt ?? 1}
          executions={ordered}
          number={num}
          describe={(i) => stepText(flat[i], fileNames)}
          focus={traceFocus}
        />
      )}

      {otherArtifacts.length > 0 && !pruned && (
        <section aria-labelledby="run-artifacts-heading">
          <h2 id="run-artifacts-heading">Artifacts</h2>
          <ul>
            {otherArtifacts.map((a) => (
              <li key={a.name}>
                <a href={artifactUrl(run.runId, a.name)} target="_blank" rel="noreferrer">
                  {a.name}
                </a>{" "}
                <span className="muted">
                  {a.contentType}
                  {a.step !== null && `, step ${num(a.step)}`}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}

      <LogSection logs={view.logs} number={num} />

      {shot && <Lightbox runId={run.runId} shots={gallery} name={shot} onShow={setShot} onClose={() => setShot(null)} />}
    </div>
  );
}

function LiveState({ state }: { state: StreamState }) {
  const text = state === "live" ? "live" : state === "reconnecting" ? "reconnecting…" : state === "connecting" ? "connecting…" : "";
  if (!text) return null;
  return (
    <span className={`run-live run-live-${state}`} aria-live="polite">
      {text}
    </span>
  );
}

function QueuedNotice({ run }: { run: Run }) {
  const ws = useWorkspace();
  const starter = useStarterName();
  const mine = run.startedBy === ws.user.id;
  // The banner's query: approving a pairing refreshes both.
  const agentQ = useQuery({ queryKey: keys.agents, queryFn: listAgents, select: (a) => a.needed, refetchInterval: 10_000, enabled: mine });
  return (
    <div className="notice run-waiting" role="status">
      <strong>Waiting for an agent.</strong>{" "}
      {mine ? (
        <>
          The run starts when one of your agents picks it up.{" "}
          {run.waiting && agentQ.data === false && <span className="run-waiting-why">It is {run.waiting}. </span>}
          {agentQ.data === true && (
            <>
              None of your agents is connected: <Link to="/agents">pair a computer or start its agent</Link>.
            </>
          )}
        </>
      ) : (
        <>It starts when an agent of {starter(run)}, who started it, picks it up.</>
      )}
    </div>
  );
}

/** The run's trace mode, as its facts say it. */
const TRACE_WORDS: Record<TraceMode, string> = { failures: "trace on failure", on: "trace of every step", off: "trace off" };

const resultWords: Record<RunStatus, string> = {
  passed: "Passed",
  failed: "Failed: a step found a problem",
  error: "Error: the run could not complete (agent, browser or data trouble, not the test)",
  cancelled: "Cancelled",
  queued: "Queued",
  running: "Running",
};

function ResultBox({ finish, unit = "step" }: { finish: RunFinish; unit?: "step" | "row" }) {
  return (
    <section className={`run-result run-result-${finish.status}`} aria-labelledby="run-result-heading">
      <h2 id="run-result-heading">Result</h2>
      <p>
        <strong>{unit === "row" && finish.status === "failed" ? "Failed: a row found a problem" : resultWords[finish.status]}.</strong>{" "}
        {finish.passed} of {finish.total} {unit}
        {finish.total === 1 ? "" : "s"} passed in {formatDuration(finish.durationMs)}.
      </p>
      {finish.error && <p className="run-error">{finish.error}</p>}
    </section>
  );
}

/** A filmstrip picture: the part of the screenshot around the step's element, readable as it is. */
function FilmPicture({ src, box }: { src: string; box: RunBox | null }) {
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const v = size ? filmView(box, size.width, size.height) : null;
  return (
    <span className="run-film-window" style={{ width: FILM.width, height: FILM.height }}>
      <img
        src={src}
        alt=""
        loading="lazy"
        style={v ? { width: v.imgWidth, left: v.imgLeft, top: v.imgTop } : undefined}
        onLoad={(e) => setSize({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
      />
      {v?.box && (
        <span
          className="run-shot-box"
          data-testid="element-box"
          style={{ left: v.box.left, top: v.box.top, width: v.box.width, height: v.box.height }}
        />
      )}
    </span>
  );
}

/** One screenshot of the lightbox and the filmstrip. */
interface Shot extends FilmShot {
  text: string;
  box: RunBox | null;
}

/**
 * Lightbox shows one screenshot large, its element outlined, with a zoom
 * on the element, and steps through all the run's screenshots with
 * previous and next (the arrow keys too).
 */
function Lightbox({
  runId,
  shots,
  name,
  onShow,
  onClose,
}: {
  runId: string;
  shots: Shot[];
  name: string;
  onShow: (name: string) => void;
  onClose: () => void;
}) {
  const at = Math.max(
    0,
    shots.findIndex((s) => s.name === name),
  );
  const cur = shots[at] as Shot | undefined;
  const prev = at > 0 ? shots[at - 1] : null;
  const next = at < shots.length - 1 ? shots[at + 1] : null;
  const [zoom, setZoom] = useState(false);
  // The zoom's window fits the dialog: a window wider than the room left was squeezed, its right part cut off.
  const body = useRef<HTMLDivElement>(null);
  const [room, setRoom] = useState(720);
  useLayoutEffect(() => {
    const w = body.current?.clientWidth ?? 0;
    if (w > 0) setRoom(Math.min(720, w - 2));
  }, [zoom]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === "ArrowLeft" && prev) onShow(prev.name);
      else if (e.key === "ArrowRight" && next) onShow(next.name);
      else return;
      e.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [prev, next, onShow]);
  if (!cur) return null;
  const url = artifactUrl(runId, cur.name);
  const z = zoom && cur.box ? zoomOn(cur.box, room, 400) : null;
  const zoomStyle: CSSProperties | undefined =
    z && cur.box
      ? {
          width: z.width,
          height: z.height,
          backgroundImage: `url("${url}")`,
          backgroundSize: `${cur.box.viewportWidth * z.scale}px ${cur.box.viewportHeight * z.scale}px`,
          backgroundPosition: `${z.x}px ${z.y}px`,
        }
      : undefined;
  const where = shotPlace(cur);
  return (
    <Modal title={`Screenshot of ${where}`} wide onClose={onClose}>
      <div className="modal-body run-shot" ref={body}>
        <div className="run-shot-nav">
          <button type="button" onClick={() => prev && onShow(prev.name)} disabled={!prev} aria-keyshortcuts="ArrowLeft">
            ← Previous
          </button>
          <span className="muted" data-testid="shot-position">
            {at + 1} of {shots.length}
          </span>
          <button type="button" onClick={() => next && onShow(next.name)} disabled={!next} aria-keyshortcuts="ArrowRight">
            Next →
          </button>
          {cur.box && (
            <button type="button" aria-pressed={zoom} onClick={() => setZoom(!zoom)}>
              {zoom ? "Whole screenshot" : "Zoom on the element"}
            </button>
          )}
        </div>
        {cur.text && <p className="run-shot-text">{cur.text}</p>}
        {zoomStyle ? (
          <div className="run-shot-zoom" role="img" aria-label={`The element of ${where}, enlarged`} style={zoomStyle}>
            {z && cur.box && (
              <span
                className="run-shot-box run-shot-box-zoomed"
                data-testid="element-box-zoomed"
                style={{
                  left: cur.box.x * z.scale + z.x,
                  top: cur.box.y * z.scale + z.y,
                  width: cur.box.width * z.scale,
                  height: cur.box.height * z.scale,
                }}
              />
            )}
          </div>
        ) : (
          <ShotImage key={cur.name} src={url} alt={`Screenshot of ${where}${cur.text ? `: ${cur.text}` : ""}`} box={cur.box} />
        )}
        <p>
          <a href={url} target="_blank" rel="noreferrer">
            Open the image in a new tab
          </a>{" "}
          <span className="muted mono">{cur.name}</span>
        </p>
      </div>
    </Modal>
  );
}

function timeOfDay(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString();
}

function LogSection({ logs, number }: { logs: LogEntry[]; number: (index: number) => string }) {
  if (logs.length === 0) return null;
  const warnings = logs.filter((l) => l.level === "warn" || l.level === "error").length;
  return (
    <details className="run-log">
      <summary>
        Log ({logs.length} line{logs.length === 1 ? "" : "s"}
        {warnings > 0 && `, ${warnings} warning${warnings === 1 ? "" : "s"} or error${warnings === 1 ? "" : "s"}`})
      </summary>
      <ol>
        {logs.map((l) => (
          <li key={l.seq} className={`run-log-${l.level}`}>
            <time dateTime={l.time}>{timeOfDay(l.time)}</time> <span className="run-log-level">{l.level}</span>
            {l.step !== null && <span className="muted"> step {number(l.step)}</span>} <span className="run-log-message">{l.message}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}
