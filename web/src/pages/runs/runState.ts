// The live run page's state, built as a pure reducer over the run's events
// (protocol/events.go). The hub sends every earlier event to a late
// subscriber and EventSource resumes with Last-Event-ID, so the same event
// may arrive twice (ignored by seq) and, in principle, out of order (the
// state is then rebuilt from the events sorted by seq).
import type { Locator } from "../../api";
import { isFinalStatus, type RunBox, type RunEvent, type RunStatus, type StepResult, type StepStatus } from "../../api/runs";
import { execKey } from "./outline";

export interface StepView {
  /** 0-based position in the document; the page shows index + 1. */
  index: number;
  id: string;
  type: string;
  status: "running" | StepStatus;
  durationMs: number | null;
  error: string;
  /**
   * Real retries: attempts after the first that acted again after an action
   * missed its element (step.retry numbers the attempt that starts). An
   * assertion's auto-waiting is no retry and sends no step.retry.
   */
  retries: number;
  /** The reason the last failed attempt gave, while the step goes on. */
  retryError: string;
  healedBy: Locator | null;
  /** Image artifacts of this step, in the order they came. */
  screenshots: string[];
  /** The step's own after-step or failure screenshot, on which box is drawn. */
  shot: string;
  /** Where the step's element was (step.finished), to draw on shot. */
  box: RunBox | null;
  /** The values the step used after interpolation, secrets as ***. */
  used: Record<string, string> | null;
  /** Why the step has no screenshot although the run asked for one. */
  screenshotError: string;
  /** When step.started came (the agent's clock), so a running step's time ticks. */
  startedAt: string | null;
  /**
   * Inside loops, which execution this is: one 0-based iteration per
   * enclosing loop, outermost first; empty outside loops. A step is one
   * StepView per (index, iteration).
   */
  iteration: number[];
  /** An if's branch: then, else or none; "" before it says. */
  branch: string;
  /** A loop's iterations and how each went, as the stored result says (null: not known). */
  iterations: { iteration: number; status: StepStatus }[] | null;
  /** The seq of the execution's first event: an artifact belongs to its step's latest execution. */
  seq: number;
}

export interface LogEntry {
  seq: number;
  time: string;
  level: string;
  message: string;
  step: number | null;
}

export interface ArtifactEntry {
  name: string;
  contentType: string;
  step: number | null;
  size: number;
}

export interface RunFinish {
  status: RunStatus;
  passed: number;
  total: number;
  durationMs: number;
  error: string;
}

export interface RunView {
  /** Every event applied, sorted by seq. */
  events: RunEvent[];
  lastSeq: number;
  /** How many times the run started (a run whose agent vanished is queued again once). */
  attempt: number;
  /** The retry attempt under way (docs/retries.md): 1, then 2 after the first run.retry, ... */
  runAttempt: number;
  /** The last run.retry's message: why the attempt under way runs ("attempt 1 failed: …"). */
  retryNote: string;
  version: number | null;
  /** Number of steps, from run.started. */
  total: number | null;
  /** Whether the browser window is really shown, from run.started (null when the agent does not say). */
  headed: boolean | null;
  /** The current attempt's steps, sorted by index. */
  steps: StepView[];
  logs: LogEntry[];
  /** The current attempt's artifacts. */
  artifacts: ArtifactEntry[];
  finished: RunFinish | null;
}

export const initialRunView: RunView = {
  events: [],
  lastSeq: 0,
  attempt: 0,
  runAttempt: 1,
  retryNote: "",
  version: null,
  total: null,
  headed: null,
  steps: [],
  logs: [],
  artifacts: [],
  finished: null,
};

/** The position where seq belongs in events sorted by seq, and whether it is there already. */
function findSeq(events: RunEvent[], seq: number): { at: number; found: boolean } {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid].seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return { at: lo, found: lo < events.length && events[lo].seq === seq };
}

const isImage = (contentType: string | undefined) => (contentType ?? "").startsWith("image/");

function emptyStep(index: number, iteration: number[], seq: number, view: RunView): StepView {
  // An artifact that came before its step's first event still belongs to it, unless an earlier execution took it.
  const taken = new Set(view.steps.filter((s) => s.index === index).flatMap((s) => s.screenshots));
  return {
    index,
    id: "",
    type: "",
    status: "running",
    durationMs: null,
    error: "",
    retries: 0,
    retryError: "",
    healedBy: null,
    shot: "",
    box: null,
    used: null,
    screenshotError: "",
    startedAt: null,
    iteration,
    branch: "",
    iterations: null,
    seq,
    screenshots: view.artifacts.filter((a) => a.step === index && isImage(a.contentType) && !taken.has(a.name)).map((a) => a.name),
  };
}

/** byExecution orders steps by index, then iteration. */
function byExecution(a: StepView, b: StepView): number {
  if (a.index !== b.index) return a.index - b.index;
  for (let k = 0; k < Math.min(a.iteration.length, b.iteration.length); k++) {
    if (a.iteration[k] !== b.iteration[k]) return a.iteration[k] - b.iteration[k];
  }
  return a.iteration.length - b.iteration.length;
}

/**
 * updateStep applies fn to the execution of step `index` the event names
 * (its iteration inside loops), creating it when no event named it before.
 */
function updateStep(view: RunView, e: RunEvent, index: number, fn: (s: StepView) => StepView): StepView[] {
  const iteration = e.iteration ?? [];
  const key = execKey(index, iteration);
  const at = view.steps.findIndex((s) => execKey(s.index, s.iteration) === key);
  if (at >= 0) return view.steps.map((s, i) => (i === at ? fn(s) : s));
  return [...view.steps, fn(emptyStep(index, iteration, e.seq, view))].sort(byExecution);
}

/** latestOf is the position in steps of the execution of step `index` that started last, or -1. */
function latestOf(steps: StepView[], index: number): number {
  let at = -1;
  steps.forEach((s, i) => {
    if (s.index === index && (at < 0 || s.seq > steps[at].seq)) at = i;
  });
  return at;
}

function withName(s: StepView, e: RunEvent): StepView {
  return { ...s, id: e.id ?? s.id, type: e.type ?? s.type };
}

function addName(list: string[], name: string | undefined): string[] {
  return name && !list.includes(name) ? [...list, name] : list;
}

const asStepStatus = (s: string | undefined): StepStatus => (s === "passed" || s === "failed" || s === "skipped" ? s : "failed");
const asRunStatus = (s: string | undefined): RunStatus => (isFinalStatus(s) ? (s as RunStatus) : "error");

/** apply folds one event (the newest so far) into the view. */
function apply(view: RunView, e: RunEvent): RunView {
  // A data-driven run's rows have their own steps and screenshots (rowState.ts): the run has none of its own.
  if (typeof e.row === "number" && e.kind !== "log") return view;
  const index = typeof e.index === "number" ? e.index : null;
  switch (e.kind) {
    case "run.started":
      // A new attempt starts over: its steps and artifacts replace the last one's.
      return {
        ...view,
        attempt: view.attempt + 1,
        // On another agent the retries start over.
        runAttempt: 1,
        retryNote: "",
        version: e.version ?? view.version,
        total: e.total ?? view.total,
        headed: typeof e.headed === "boolean" ? e.headed : null,
        steps: [],
        artifacts: [],
        finished: null,
      };
    case "run.retry":
      // The failed attempt's steps and artifacts give way to the next one's (each attempt is kept in the run's attemptResults).
      return {
        ...view,
        runAttempt: e.runAttempt ?? view.runAttempt + 1,
        retryNote: e.message ?? "",
        steps: [],
        artifacts: [],
        finished: null,
      };
    case "step.started":
      if (index === null) return view;
      return {
        ...view,
        steps: updateStep(view, e, index, (s) => ({
          ...withName(s, e),
          status: "running",
          durationMs: null,
          error: "",
          startedAt: e.time ?? null,
        })),
      };
    case "step.retry":
      if (index === null) return view;
      return {
        ...view,
        steps: updateStep(view, e, index, (s) => ({
          ...withName(s, e),
          retries: Math.max(s.retries, (e.attempt ?? 2) - 1),
          retryError: e.error ?? s.retryError,
        })),
      };
    case "step.finished":
      if (index === null) return view;
      return {
        ...view,
        steps: updateStep(view, e, index, (s) => ({
          ...withName(s, e),
          status: asStepStatus(e.status),
          branch: e.branch ?? s.branch,
          durationMs: e.durationMs ?? s.durationMs,
          error: e.error ?? "",
          healedBy: e.healedBy ?? s.healedBy,
          screenshots: addName(s.screenshots, e.screenshot),
          shot: e.screenshot ?? s.shot,
          box: e.box ?? s.box,
          used: e.used ?? s.used,
          screenshotError: e.screenshotError ?? "",
        })),
      };
    case "artifact": {
      if (!e.name) return view;
      const a: ArtifactEntry = { name: e.name, contentType: e.contentType ?? "", step: e.step ?? null, size: e.size ?? 0 };
      // Artifacts name their step's index only: inside a loop, they belong to its execution under way, the latest.
      const at = a.step !== null && isImage(a.contentType) ? latestOf(view.steps, a.step) : -1;
      return {
        ...view,
        artifacts: [...view.artifacts, a],
        steps: at >= 0 ? view.steps.map((s, i) => (i === at ? { ...s, screenshots: addName(s.screenshots, a.name) } : s)) : view.steps,
      };
    }
    case "log":
      return {
        ...view,
        logs: [...view.logs, { seq: e.seq, time: e.time, level: e.level ?? "info", message: e.message ?? "", step: e.step ?? null }],
      };
    case "run.finished":
      return {
        ...view,
        finished: {
          status: asRunStatus(e.status),
          passed: e.passed ?? 0,
          total: e.total ?? view.total ?? 0,
          durationMs: e.durationMs ?? 0,
          error: e.error ?? "",
        },
      };
    default:
      return view;
  }
}

/** runViewFromEvents builds the view from scratch from events in any order, duplicates included. */
export function runViewFromEvents(events: RunEvent[]): RunView {
  return events.reduce(runViewReducer, initialRunView);
}

/**
 * runViewReducer adds one event: a seq seen before changes nothing (the
 * same state comes back), a newer one is applied, an older one that was
 * missing makes the view be rebuilt in seq order.
 */
export function runViewReducer(view: RunView, e: RunEvent): RunView {
  if (typeof e.seq !== "number" || !Number.isFinite(e.seq)) return view;
  if (e.seq > view.lastSeq) {
    return { ...apply(view, e), events: [...view.events, e], lastSeq: e.seq };
  }
  const { at, found } = findSeq(view.events, e.seq);
  if (found) return view;
  const events = [...view.events.slice(0, at), e, ...view.events.slice(at)];
  const rebuilt = events.reduce(apply, initialRunView);
  return { ...rebuilt, events, lastSeq: view.lastSeq };
}

/** The run's status as the events tell it, or `fallback` (the stored record's) before they say anything. */
export function runStatusOf(view: RunView, fallback: RunStatus): RunStatus {
  if (view.finished) return view.finished.status;
  if (isFinalStatus(fallback)) return fallback;
  return view.attempt > 0 ? "running" : fallback;
}

/** A stored step result as a step of the view. */
export function stepFromResult(r: StepResult): StepView {
  return {
    index: r.index,
    id: r.id,
    type: r.type,
    status: r.status,
    durationMs: r.durationMs,
    error: r.error ?? "",
    retries: Math.max(0, (r.attempts ?? 1) - 1),
    retryError: "",
    healedBy: r.healedBy ?? null,
    screenshots: r.screenshot ? [r.screenshot] : [],
    shot: r.screenshot ?? "",
    box: r.box ?? null,
    used: r.used ?? null,
    screenshotError: r.screenshotError ?? "",
    startedAt: null,
    iteration: r.iteration ?? [],
    branch: r.branch ?? "",
    iterations: r.iterations ? r.iterations.map((it) => ({ iteration: it.iteration, status: asStepStatus(it.status) })) : null,
    seq: 0,
  };
}

/**
 * allResults lists a result tree's step results, parents before their
 * steps (protocol.AllResults): a run without blocks has its list as it is.
 */
export function allResults(steps: StepResult[]): StepResult[] {
  const out: StepResult[] = [];
  const walk = (list: StepResult[]) => {
    for (const r of list) {
      out.push(r);
      walk((r.steps ?? []) as StepResult[]);
      for (const it of r.iterations ?? []) walk(it.steps as StepResult[]);
    }
  };
  walk(steps);
  return out;
}

/**
 * mergeSteps shows the steps the events told of, completed by the stored
 * result (GET /api/runs/:id), which is all there is when the events were
 * not (yet) received. A result tree gives one step per execution, by
 * (index, iteration), sorted so.
 */
export function mergeSteps(view: RunView, stored: StepResult[]): StepView[] {
  const byIndex = new Map<string, StepView>();
  for (const r of allResults(stored)) byIndex.set(execKey(r.index, r.iteration), stepFromResult(r));
  for (const s of view.steps) {
    const key = execKey(s.index, s.iteration);
    const old = byIndex.get(key);
    if (!old) {
      byIndex.set(key, s);
      continue;
    }
    let shots = s.screenshots;
    for (const n of old.screenshots) shots = addName(shots, n);
    byIndex.set(key, {
      ...s,
      id: s.id || old.id,
      type: s.type || old.type,
      // A step still running in the events but finished in the record was finished by a later event not yet seen.
      status: s.status === "running" ? old.status : s.status,
      durationMs: s.durationMs ?? old.durationMs,
      error: s.error || old.error,
      retries: Math.max(s.retries, old.retries),
      healedBy: s.healedBy ?? old.healedBy,
      screenshots: shots,
      shot: s.shot || old.shot,
      box: s.box ?? old.box,
      used: s.used ?? old.used,
      screenshotError: s.screenshotError || old.screenshotError,
      branch: s.branch || old.branch,
      iterations: old.iterations ?? s.iterations,
    });
  }
  return [...byIndex.values()].sort(byExecution);
}

/** "label Email", "role button "Sign in"": a locator in words. */
export function describeLocator(l: Locator): string {
  const name = l.name ? ` "${l.name}"` : "";
  return `${l.kind} ${JSON.stringify(l.value)}${name}`;
}

/** A running step's time so far, from its step.started to now; its duration once finished. */
export function stepElapsed(s: StepView, now: number): number | null {
  if (s.status !== "running") return s.durationMs;
  if (!s.startedAt) return null;
  const t = Date.parse(s.startedAt);
  return Number.isNaN(t) ? null : Math.max(0, now - t);
}

/** A rectangle in percent of an image's width and height. */
export interface PercentRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * boxOnImage maps a step's box onto its screenshot, in percent of the
 * image, so the drawing fits the image at any size it is shown. The
 * screenshot is the viewport at the device pixel ratio; an image of another
 * size (a full-page or element capture) gets no box (null), nor does a box
 * wholly outside the viewport. The part outside is cut off.
 */
export function boxOnImage(box: RunBox | null, naturalWidth: number, naturalHeight: number): PercentRect | null {
  if (!box || !(box.viewportWidth > 0) || !(box.viewportHeight > 0) || !(box.width > 0) || !(box.height > 0)) return null;
  const dpr = box.dpr > 0 ? box.dpr : 1;
  // Rounding of the viewport and the ratio may leave a pixel or two.
  const near = (a: number, b: number) => Math.abs(a - b) <= Math.max(2, dpr);
  if (!near(naturalWidth, box.viewportWidth * dpr) || !near(naturalHeight, box.viewportHeight * dpr)) return null;
  const x1 = Math.max(0, box.x);
  const y1 = Math.max(0, box.y);
  const x2 = Math.min(box.viewportWidth, box.x + box.width);
  const y2 = Math.min(box.viewportHeight, box.y + box.height);
  if (x2 <= x1 || y2 <= y1) return null;
  const pct = (v: number, of: number) => Math.round((v / of) * 10000) / 100;
  return {
    left: pct(x1, box.viewportWidth),
    top: pct(y1, box.viewportHeight),
    width: pct(x2 - x1, box.viewportWidth),
    height: pct(y2 - y1, box.viewportHeight),
  };
}

/** How to show a zoom on the element: a window of width x height CSS pixels onto the image scaled by `scale`, offset by x, y. */
export interface ZoomView {
  width: number;
  height: number;
  scale: number;
  /** The image's left and top edge inside the window (zero or negative). */
  x: number;
  y: number;
}

/**
 * zoomOn frames the element's box with `margin` viewport pixels around it,
 * enlarged as much as fits a window of maxWidth x maxHeight CSS pixels, at
 * most 4 times. The whole box always fits: an element too large to show
 * twice is shown smaller (it used to be shown twice, its right or bottom
 * edge cut off). Positions are relative to the screenshot shown at the
 * viewport's size times scale.
 */
export function zoomOn(box: RunBox, maxWidth: number, maxHeight: number, margin = 16): ZoomView | null {
  if (!(box.viewportWidth > 0) || !(box.viewportHeight > 0) || !(box.width > 0) || !(box.height > 0)) return null;
  const x1 = Math.max(0, box.x - margin);
  const y1 = Math.max(0, box.y - margin);
  const x2 = Math.min(box.viewportWidth, box.x + box.width + margin);
  const y2 = Math.min(box.viewportHeight, box.y + box.height + margin);
  if (x2 <= x1 || y2 <= y1) return null;
  // Rounded down, so the framed box fits at the scale the page uses.
  const scale = Math.floor(Math.min(4, maxWidth / (x2 - x1), maxHeight / (y2 - y1)) * 100) / 100;
  const r = (v: number) => Math.round(v * 100) / 100;
  // Rounded up: the window holds the whole framed box.
  const up = (v: number) => Math.ceil(v * 100) / 100;
  return {
    width: Math.min(maxWidth, up((x2 - x1) * scale)),
    height: Math.min(maxHeight, up((y2 - y1) * scale)),
    scale,
    x: r(0 - x1 * scale),
    y: r(0 - y1 * scale),
  };
}

/**
 * What a step used, in words: "typed ann@example.com", "expected Welcome";
 * and what it produced: a script's "value" (as Try shows it), the value
 * setVariable "captured". A script's console lines are not among them
 * (consoleLines).
 */
export function usedWords(type: string, used: Record<string, string> | null): { label: string; value: string }[] {
  if (!used) return [];
  const valueLabel: Record<string, string> = { fill: "typed", select: "chose", setVariable: "set to" };
  const label = (k: string): string => {
    switch (k) {
      case "url":
        return type === "request" ? "called" : "opened";
      case "status":
        return "answered";
      case "message":
        return "logged";
      case "value":
        return valueLabel[type] ?? "value";
      case "expected":
        return "expected";
      case "key":
        return "pressed";
      case "ms":
        return "waited (ms)";
      case "name":
        return "name";
      case "result":
        return type === "setVariable" ? "captured" : "value";
      default:
        return k;
    }
  };
  const order = ["method", "url", "headers", "status", "answer", "message", "value", "key", "expected", "ms", "name", "result"];
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  return (
    Object.keys(used)
      .filter((k) => k !== "console")
      // setVariable with a value stores that value: said once.
      .filter((k) => !(k === "result" && type === "setVariable" && used.value !== undefined && used.value === used.result))
      .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
      .map((k) => ({ label: label(k), value: used[k] }))
  );
}

/** The console lines a script step logged ("[log] rows 3" each), from its used values. */
export function consoleLines(used: Record<string, string> | null): string[] {
  const c = used?.console;
  return c ? c.split("\n") : [];
}

/** The filmstrip's picture: its size in CSS pixels and the page's scale in it. */
export const FILM = { width: 320, height: 200, scale: 0.6 };

/** Where a filmstrip picture shows its screenshot (all in CSS pixels of the picture). */
export interface FilmView {
  /** The image's size and offset in the picture. */
  imgWidth: number;
  imgLeft: number;
  imgTop: number;
  /** The element's outline in the picture, when the step has one that shows. */
  box: { left: number; top: number; width: number; height: number } | null;
}

/**
 * filmView frames a screenshot for the filmstrip at a readable scale (text
 * at 0.6 of its size, not the quarter a whole 1280 px page shrunk to 320
 * would leave): the part of the page around the step's element, or its top
 * left corner when the step has none. naturalWidth is the image's width;
 * the box's dpr maps image pixels to page pixels.
 */
export function filmView(box: RunBox | null, naturalWidth: number, naturalHeight: number): FilmView {
  const dpr = box && box.dpr > 0 ? box.dpr : 1;
  const pageW = naturalWidth / dpr;
  const pageH = naturalHeight / dpr;
  const s = FILM.scale;
  const w = FILM.width / s; // the window, in page pixels
  const h = FILM.height / s;
  let x = 0;
  let y = 0;
  const fits = boxOnImage(box, naturalWidth, naturalHeight) !== null;
  if (box && fits) {
    const clamp = (v: number, max: number) => Math.max(0, Math.min(v, Math.max(0, max)));
    x = clamp(box.x + box.width / 2 - w / 2, pageW - w);
    y = clamp(box.y + box.height / 2 - h / 2, pageH - h);
  }
  const r = (v: number) => Math.round(v * 100) / 100 || 0; // no -0
  return {
    imgWidth: r(pageW * s),
    imgLeft: r(-x * s),
    imgTop: r(-y * s),
    box: box && fits ? { left: r((box.x - x) * s), top: r((box.y - y) * s), width: r(box.width * s), height: r(box.height * s) } : null,
  };
}
