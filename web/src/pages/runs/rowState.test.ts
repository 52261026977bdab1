import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../api/runs";
import { rowElapsed, rowsSummary, rowsView } from "./rowState";

let seq = 0;
const ev = (kind: RunEvent["kind"], fields: Partial<RunEvent> = {}): RunEvent => ({
  runId: "run_1",
  seq: ++seq,
  time: "2026-11-02T10:00:00Z",
  kind,
  ...fields,
});
const queued = (row: number) => ({ row, status: "queued" as const, passed: 0, total: 0, durationMs: 0, values: {} });

describe("rowsView", () => {
  it("follows row.started, the row's steps and row.finished over the stored summaries", () => {
    const events = [
      ev("run.started", { total: 3 }),
      ev("row.started", { row: 0, total: 2, time: "2026-11-02T10:00:01Z" }),
      ev("row.started", { row: 2, total: 2 }),
      ev("step.finished", { row: 0, index: 0, status: "passed" }),
      ev("step.finished", { row: 2, index: 0, status: "failed" }),
      ev("row.finished", { row: 2, status: "failed", passed: 0, total: 2, durationMs: 900, error: "step 1 failed" }),
    ];
    const rows = rowsView(events, [queued(0), queued(1), queued(2)]);
    expect(rows.map((r) => [r.row, r.status, r.passed, r.done, r.total, r.error])).toEqual([
      [0, "running", 1, 1, 2, ""],
      [1, "queued", 0, 0, 0, ""],
      [2, "failed", 0, 2, 2, "step 1 failed"],
    ]);
    expect(rowElapsed(rows[0], Date.parse("2026-11-02T10:00:04Z"))).toBe(3000);
    expect(rowElapsed(rows[2], 0)).toBe(900);
    expect(rowsSummary(rows)).toBe("0 of 3 rows passed, 1 failed, 1 running, 1 waiting");
  });

  it("starts the rows over when an attempt starts again, and keeps a row the record says has finished", () => {
    const events = [
      ev("run.started", { total: 2 }),
      ev("row.started", { row: 0, total: 1 }),
      ev("row.finished", { row: 0, status: "failed", passed: 0, total: 1 }),
      ev("run.started", { total: 2 }),
      ev("row.started", { row: 1, total: 1 }),
    ];
    const stored = [queued(0), { row: 1, status: "passed" as const, passed: 1, total: 1, durationMs: 50, values: {} }];
    expect(rowsView(events, stored).map((r) => [r.row, r.status])).toEqual([
      [0, "queued"],
      [1, "passed"],
    ]);
  });
});
