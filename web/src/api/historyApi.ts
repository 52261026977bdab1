// A test's history, flakiness and quarantine (hub/api/history.go,
// quarantine.go; docs/history.md).
import { get, recordCall, request } from "./client";
import { loaded, type LoadedTest, type TestAnswer } from "./editorApi";
import type { Schema } from "./types";

/** One finished run in a test's history (newest first in every list). */
export type HistoryRun = Schema<"HistoryRun">;
/** The test list's summary of a test's last runs. */
export type ListHistory = Schema<"ListHistory">;
/** GET /api/tests/:id/history */
export type TestHistory = Schema<"TestHistory">;
/** A test's quarantine: while set, its failures fail no batch. */
export type Quarantine = Schema<"Quarantine">;

function historyPath(id: string, what: string): string {
  return `/api/tests/${encodeURIComponent(id)}/${what}`;
}

/** GET /api/tests/:id/history: the last 100 finished runs, rates, flaky call, duration trend. */
export function getTestHistory(testId: string, signal?: AbortSignal): Promise<TestHistory> {
  return get<TestHistory>(historyPath(testId, "history"), { signal });
}

/** The longest quarantine reason the hub takes. */
export const MAX_QUARANTINE_REASON = 500;

/**
 * PUT /api/tests/:id/quarantine with a reason (1 to 500 characters), or
 * DELETE it with null (Test Manager, Admin): the test as it is now.
 */
export async function setQuarantine(testId: string, reason: string | null): Promise<LoadedTest> {
  const res =
    reason === null
      ? await request<TestAnswer>("DELETE", historyPath(testId, "quarantine"), undefined, recordCall)
      : await request<TestAnswer>("PUT", historyPath(testId, "quarantine"), { reason }, recordCall);
  return loaded(res.data, res.headers);
}

/** A rate (0..1, or null for a test never judged) as "83%" or "—". */
export function percent(rate: number | null | undefined): string {
  return rate == null ? "—" : `${Math.round(rate * 100)}%`;
}
