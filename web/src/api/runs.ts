// Runs and what surrounds them: starting a run (POST /api/runs), a run's
// record (hub/api/runs.go runJSON), its live events (protocol/events.go,
// streamed by hub/api/events.go), the run history, the dashboard figures
// (hub/api/dashboard.go), the profile (hub/api/context.go) and the few
// lists the run screens borrow: environments to run against, whether an
// agent is needed, and the project's member names.
import { get, inProject, post, put, recordCall, request, query } from "./client";
import type { Locator, TestVersion } from "./tests";
import type { Answer, Body, Schema } from "./types";

export type RunStatus = "queued" | "running" | "passed" | "failed" | "error" | "cancelled";
export const RUN_STATUSES: RunStatus[] = ["queued", "running", "passed", "failed", "error", "cancelled"];

export type StepStatus = "passed" | "failed" | "skipped";

/** A run status that will not change any more (protocol.Final). */
export function isFinalStatus(status: string | null | undefined): boolean {
  return status === "passed" || status === "failed" || status === "error" || status === "cancelled";
}

/**
 * protocol.StepResult: one step's outcome in a run's result; attempts is 1 +
 * the step's real retries (an action that missed its element), not
 * auto-waiting. status narrowed: the document gives a string.
 */
export type StepResult = Omit<Schema<"StepResult">, "status"> & { status: StepStatus };

/**
 * protocol.Box: where a step's element was, in CSS pixels of the viewport
 * (what the step's screenshot shows), with the viewport's size and the
 * device pixel ratio.
 */
export type RunBox = Schema<"Box">;

/**
 * hub/api/runs.go runJSON. GET /api/runs/:id only: document (component
 * calls expanded, their steps carry call), data-driven runs' dataSetId and
 * rows, and the pool record taken. Narrowed: the document gives status as a
 * string and pool as unknown.
 */
export type Run = Omit<Schema<"Run">, "status" | "result" | "rows" | "pool"> & {
  status: RunStatus;
  result: { steps: StepResult[] };
  rows?: RowSummary[];
  pool?: RunPoolRecord;
};

/** hub/api/runs_rows.go rowSummaryJSON: one row of a data-driven run; row is its 0-based index in the data set. status narrowed (a string in the document). */
export type RowSummary = Omit<Schema<"RowSummary">, "status"> & { status: RunStatus };

/** GET /api/runs/:id/rows/:row (hub/api/runs_rows.go rowJSON): 202 while the run goes on. */
export type RunRow = Omit<Schema<"Row">, "status" | "steps"> & { status: RunStatus; steps: StepResult[] };

/**
 * The pool record a run took (hub/dispatch/job.go): record is its 0-based
 * index in the pool. Not in the document: Run.pool is untyped there.
 */
export interface RunPoolRecord {
  id: string;
  mode: "lease" | "consume";
  record: number;
  values: Record<string, string>;
}

export async function fetchRunRow(runId: string, row: number, signal?: AbortSignal): Promise<{ row: RunRow; final: boolean }> {
  const res = await request<RunRow>("GET", `/api/runs/${encodeURIComponent(runId)}/rows/${row}`, undefined, { ...recordCall, signal });
  return { row: res.data, final: res.status === 200 };
}

/** A row's artifact: the name as the row's step results give it (the hub adds the row's prefix). */
export function rowArtifactUrl(runId: string, row: number, name: string): string {
  return `/api/runs/${encodeURIComponent(runId)}/rows/${row}/artifacts/${encodeURIComponent(name)}`;
}

/** GET /api/runs */
export type RunList = Omit<Schema<"RunList">, "runs"> & { runs: Run[] };

export type RunEventKind =
  | "run.started"
  | "step.started"
  | "step.retry"
  | "step.finished"
  | "artifact"
  | "log"
  | "run.finished"
  | "row.started"
  | "row.finished"
  | "run.retry";
export const RUN_EVENT_KINDS: RunEventKind[] = [
  "run.started",
  "step.started",
  "step.retry",
  "step.finished",
  "artifact",
  "log",
  "run.finished",
  "row.started",
  "row.finished",
  "run.retry",
];

/**
 * protocol.Event: one thing that happened in a run; the fields beyond the first four belong to some kinds only.
 * Not from the document: the events come as a text/event-stream
 * (GET /api/runs/:id/events), whose payload the document does not describe.
 */
export interface RunEvent {
  runId: string;
  seq: number;
  time: string;
  kind: RunEventKind;
  /**
   * A data-driven run's row (0-based) the event is about: row.started
   * (total: steps) and row.finished (status, passed, total, durationMs,
   * error) and every step, artifact and log event of that row.
   */
  row?: number;
  /** step.*: the step's 0-based position in the document (in the pre-order walk of its tree when it has blocks). */
  index?: number;
  /** step.*: the step's id in the document. */
  id?: string;
  /** step.*: the step type. */
  type?: string;
  /**
   * step.*: inside loops, which execution of the step this is: one 0-based
   * iteration per enclosing loop, outermost first (docs/flow.md).
   */
  iteration?: number[];
  /** step.finished of an if: the branch it took (then, else, or none when the condition was false and it has no else). */
  branch?: string;
  status?: string;
  durationMs?: number;
  error?: string;
  /** step.retry: the number of the attempt that starts (2 for the first retry). */
  attempt?: number;
  /**
   * A retried run's attempt (docs/retries.md): on run.retry the attempt
   * that starts, on every event of attempt 2 and later that attempt.
   */
  runAttempt?: number;
  /** step.finished: the fallback locator that found the element when the first did not. */
  healedBy?: Locator;
  screenshot?: string;
  /** step.finished: where the step's element was, to draw on its screenshot. */
  box?: RunBox;
  /** step.finished: the values the step used after interpolation, secrets as ***. */
  used?: Record<string, string>;
  /** step.finished: why the step has no screenshot although the run asked for one. */
  screenshotError?: string;
  /** run.started: whether the browser window is really shown (false on an agent without a display). */
  headed?: boolean;
  /** artifact */
  name?: string;
  contentType?: string;
  /** artifact and log: the step index, if any. */
  step?: number;
  size?: number;
  /** log */
  level?: string;
  message?: string;
  /** run.started */
  version?: number;
  passed?: number;
  total?: number;
}

/**
 * POST /api/runs for one test. Narrowed from the document's RunRequest
 * (shared with batches, every field optional): testId, headed and
 * screenshots are always sent. screenshots true: a screenshot after every
 * step; false: only of failures. dataSetId: another data set than the test
 * binds (runs once per row); rows: the rows (0-based) to run, absent: every row.
 */
export type StartRunInput = Pick<Body<"/api/runs", "post">, "environmentId" | "dataSetId" | "agentId" | "labels" | "trace" | "retries"> & {
  testId: string;
  headed: boolean;
  screenshots: boolean;
  rows?: number[];
};

/** POST /api/runs answer for one test (the document's answer is a union with a batch's). */
export type RunStarted = Exclude<Answer<"/api/runs", "post", 201>, { batchId: string }> & { status: RunStatus };

export function startRun(input: StartRunInput, projectId: string): Promise<RunStarted> {
  return post("/api/runs", input, inProject(projectId));
}

/** GET /api/runs/:id: 202 while queued or running, 200 once finished. */
export async function fetchRun(id: string, signal?: AbortSignal): Promise<{ run: Run; final: boolean }> {
  const res = await request<Run>("GET", `/api/runs/${encodeURIComponent(id)}`, undefined, { ...recordCall, signal });
  return { run: res.data, final: res.status === 200 };
}

export interface RunFilters {
  testId?: string;
  status?: string;
  cursor?: string;
  limit?: number;
}

export function listRuns(projectId: string, f: RunFilters): Promise<RunList> {
  return get(`/api/runs${query({ testId: f.testId, status: f.status, cursor: f.cursor, limit: f.limit })}`, inProject(projectId));
}

export function cancelRun(id: string): Promise<Answer<"/api/runs/{id}/cancel", "post", 202>> {
  return post(`/api/runs/${encodeURIComponent(id)}/cancel`, undefined, recordCall);
}

export function runEventsUrl(id: string): string {
  return `/api/runs/${encodeURIComponent(id)}/events`;
}

export function artifactUrl(runId: string, name: string): string {
  return `/api/runs/${encodeURIComponent(runId)}/artifacts/${encodeURIComponent(name)}`;
}

/** The document of the test version a run executed (for step descriptions). */
export function fetchRunDocument(testId: string, version: number): Promise<TestVersion> {
  return get(`/api/tests/${encodeURIComponent(testId)}/versions/${version}`, recordCall);
}

/**
 * hub/api/environments.go environmentJSON, the part the start dialog shows:
 * protected means its secrets go only to runs of Ready tests started by a
 * Test Manager or Admin (TestCan.runProtected).
 */
export type EnvironmentChoice = Pick<Schema<"Environment">, "id" | "projectId" | "name" | "protected">;

/**
 * The query key of a project's environment choices. It starts with
 * "environments", so saving or deleting an environment (which invalidates
 * ["environments"]) refreshes the run dialog and the run tables too.
 */
export const environmentChoicesKey = (projectId: string | null | undefined) => ["environments", "choices", projectId ?? ""] as const;

export async function listEnvironmentChoices(projectId: string): Promise<EnvironmentChoice[]> {
  const res = await get<{ environments: EnvironmentChoice[] }>("/api/environments", inProject(projectId));
  return res.environments;
}

/** hub/api/dashboard.go countsJSON: passRate is passed / total, 0 with no runs. */
export type RunCounts = Schema<"Counts">;

/** One day (UTC, YYYY-MM-DD) of finished runs. */
export type DayCounts = Schema<"Day">;

/** hub/api/dashboard.go figureJSON */
export type TestFigure = Schema<"Figure">;

/** GET /api/dashboard: runs finished in the last 30 days the caller can see; runsPerDay has only days with runs, oldest first. */
export type Dashboard = Schema<"Dashboard">;

export function fetchDashboard(projectId: string): Promise<Dashboard> {
  return get("/api/dashboard", inProject(projectId));
}

/** GET /api/profile */
export type Profile = Omit<Schema<"Profile">, "recentRuns"> & { recentRuns: Run[] };

export function fetchProfile(): Promise<Profile> {
  return get("/api/profile");
}

/**
 * POST /api/auth/password: 204; the hub signs the user's other sessions out
 * and, with revokeTokens, revokes their API tokens (their CI agents disconnect).
 */
export function changePassword(currentPassword: string, newPassword: string, revokeTokens = false): Promise<null> {
  const body: Body<"/api/auth/password", "post"> = { currentPassword, newPassword };
  if (revokeTokens) body.revokeTokens = true;
  return post("/api/auth/password", body);
}

/** PUT /api/profile: changes the user's name; 422 with an issue at "name" when it is not valid. */
export function saveProfileName(name: string): Promise<Schema<"SavedProfile">> {
  const body: Body<"/api/profile", "put"> = { name };
  return put("/api/profile", body);
}
