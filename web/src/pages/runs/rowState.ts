// The rows of a data-driven run as the page shows them: each row's stored
// summary (GET /api/runs/:id rows) brought up to date by the run's events
// (row.started, step.finished of the row, row.finished), a pure function of
// both so the table follows the stream live.
import { isFinalStatus, type RowSummary, type RunEvent, type RunStatus } from "../../api/runs";

export interface RowView {
  /** 0-based index in the data set; the page shows row + 1. */
  row: number;
  status: RunStatus;
  passed: number;
  /** Steps of the row (from row.started, then row.finished). */
  total: number;
  /** Steps finished so far (passed or not). */
  done: number;
  durationMs: number | null;
  error: string;
  /** When row.started came (the agent's clock), so a running row's time ticks. */
  startedAt: string | null;
  /** It failed, then passed on a retry (docs/retries.md), as the stored summary says. */
  flaky: boolean;
}

function fromSummary(s: RowSummary): RowView {
  const final = isFinalStatus(s.status);
  return {
    row: s.row,
    status: s.status,
    passed: s.passed,
    total: s.total,
    done: final ? s.total : s.passed,
    durationMs: final || s.durationMs > 0 ? s.durationMs : null,
    error: s.error ?? "",
    startedAt: null,
    flaky: s.flaky ?? false,
  };
}

function blank(row: number): RowView {
  return { row, status: "queued", passed: 0, total: 0, done: 0, durationMs: null, error: "", startedAt: null, flaky: false };
}

const asRunStatus = (s: string | undefined): RunStatus => (isFinalStatus(s) ? (s as RunStatus) : "error");

/**
 * rowsView folds the events of the current attempt (those after the last
 * run.started: an attempt that starts again starts its rows over) into the
 * stored summaries. A row the record says has finished stays finished when
 * the events seen so far have not told it yet.
 */
export function rowsView(events: RunEvent[], stored: RowSummary[] = []): RowView[] {
  let from = 0;
  events.forEach((e, i) => {
    if (e.kind === "run.started") from = i + 1;
  });
  const live = new Map<number, RowView>();
  for (const e of events.slice(from)) {
    if (typeof e.row !== "number") continue;
    const cur = live.get(e.row) ?? { ...blank(e.row), status: "running" as RunStatus };
    switch (e.kind) {
      case "row.started":
        live.set(e.row, { ...blank(e.row), status: "running", total: e.total ?? 0, startedAt: e.time ?? null });
        break;
      case "step.finished":
        live.set(e.row, { ...cur, done: cur.done + 1, passed: cur.passed + (e.status === "passed" ? 1 : 0) });
        break;
      case "run.retry":
        // The row runs again (docs/retries.md): its steps count from nothing.
        live.set(e.row, { ...cur, done: 0, passed: 0 });
        break;
      case "row.finished":
        live.set(e.row, {
          ...cur,
          status: asRunStatus(e.status),
          passed: e.passed ?? cur.passed,
          total: e.total ?? cur.total,
          done: e.total ?? cur.done,
          durationMs: e.durationMs ?? cur.durationMs,
          error: e.error ?? "",
        });
        break;
      default:
        if (!live.has(e.row)) live.set(e.row, cur);
    }
  }
  const out = new Map<number, RowView>();
  for (const s of stored) out.set(s.row, fromSummary(s));
  for (const [row, v] of live) {
    const old = out.get(row);
    if (old && isFinalStatus(old.status) && !isFinalStatus(v.status)) continue;
    out.set(row, old ? { ...v, total: v.total || old.total, flaky: old.flaky } : v);
  }
  // The planned order (stored) first, then rows only the events named.
  const order = stored.map((s) => s.row);
  const extra = [...out.keys()].filter((r) => !order.includes(r)).sort((a, b) => a - b);
  return [...order, ...extra].map((r) => out.get(r) ?? blank(r));
}

/** A running row's time so far, from its row.started to now; its duration once finished. */
export function rowElapsed(r: RowView, now: number): number | null {
  if (r.status !== "running") return r.durationMs;
  if (!r.startedAt) return null;
  const t = Date.parse(r.startedAt);
  return Number.isNaN(t) ? null : Math.max(0, now - t);
}

/** "3 of 5 rows passed, 1 failed, 1 running". */
export function rowsSummary(rows: RowView[]): string {
  const count = (s: RunStatus) => rows.filter((r) => r.status === s).length;
  const parts = [`${count("passed")} of ${rows.length} row${rows.length === 1 ? "" : "s"} passed`];
  for (const s of ["failed", "error", "cancelled", "running", "queued"] as RunStatus[]) {
    const n = count(s);
    if (n > 0) parts.push(`${n} ${s === "queued" ? "waiting" : s}`);
  }
  return parts.join(", ");
}
