// A run's trace (issue 30, docs/trace.md): what the agent recorded around
// each execution of a step (console, network, DOM snapshots), as
// GET /api/runs/:id/trace lists it (protocol/trace.go), and the snapshots,
// served as text/html artifacts. The shapes are the hub's OpenAPI document's.
import { ApiError, get, recordCall } from "./client";
import type { Schema } from "./types";

/** The run option trace: on, failures (the default) or off. */
export type TraceMode = Schema<"Trace">["mode"];

/**
 * protocol.ConsoleEntry: a console message, an uncaught page error or a
 * browser's own log line; timeMs since the run (its row) started.
 */
export type ConsoleEntry = Schema<"ConsoleEntry">;

/**
 * protocol.NetworkEntry: one request a page made; status absent when no
 * answer came; failure: dns, refused, blocked, cors, aborted, timeout, or
 * the browser's own words.
 */
export type NetworkEntry = Schema<"NetworkEntry">;

/**
 * protocol.TraceStep: the trace of one execution of a step. snapshot and
 * before name the DOM artifacts after and before it (absent when not
 * kept); light: only console and network were kept; dropped: entries
 * left out over 2,000 per list.
 */
export type TraceStep = Schema<"TraceStep">;

/**
 * GET /api/runs/:id/trace: the steps in the order they ran, the mode,
 * dropped (trace artifacts over the run's budget) and, on a data-driven
 * run, the rows that have a trace.
 */
export type RunTrace = Schema<"Trace">;

export const traceKeys = {
  trace: (runId: string, attempt = 1) => ["run-trace", runId, attempt] as const,
  snapshot: (runId: string, name: string) => ["run-trace", runId, "snapshot", name] as const,
};

/** fetchRunTrace answers the run's trace (a retried run's attempt's, docs/retries.md), or null when the hub has none for it (404). */
export async function fetchRunTrace(runId: string, signal?: AbortSignal, attempt = 1): Promise<RunTrace | null> {
  const query = attempt > 1 ? `?attempt=${attempt}` : "";
  try {
    return await get<RunTrace>(`/api/runs/${encodeURIComponent(runId)}/trace${query}`, { ...recordCall, signal });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

/** The download of every trace artifact and screenshot of the run, for offline reading. */
export const traceZipUrl = (runId: string) => `/api/runs/${encodeURIComponent(runId)}/trace.zip`;

/**
 * fetchSnapshot reads a DOM snapshot artifact as text (the hub serves it as
 * text/html, not JSON), for the run page to show in a sandboxed iframe.
 */
export async function fetchSnapshot(runId: string, name: string, signal?: AbortSignal): Promise<string> {
  const path = `/api/runs/${encodeURIComponent(runId)}/artifacts/${encodeURIComponent(name)}`;
  let res: Response;
  try {
    res = await fetch(path, { credentials: "same-origin", signal });
  } catch (e) {
    if (e instanceof DOMException && e.name === "AbortError") throw e;
    throw new ApiError(0, "The hub cannot be reached. Check that it is running and try again.", "network");
  }
  const text = await res.text();
  if (!res.ok) {
    let msg = `${res.status} ${res.statusText}`;
    let code = "";
    try {
      const body = JSON.parse(text) as { error?: unknown; code?: unknown };
      if (typeof body.error === "string") msg = body.error;
      if (typeof body.code === "string") code = body.code;
    } catch {
      // Not the hub's JSON error: the status says it.
    }
    throw new ApiError(res.status, msg, code);
  }
  return text;
}

/**
 * isTraceArtifact: protocol.IsTraceArtifact, a trace's or a snapshot's artifact (the run page lists them in the trace, not as
 * artifacts), a retried attempt's a<N>- prefix aside (docs/retries.md).
 */
export function isTraceArtifact(name: string): boolean {
  const base = name.replace(/^a[0-9]-/, "");
  return (base.startsWith("trace-") && base.endsWith(".json")) || (base.startsWith("dom-") && base.endsWith(".html"));
}
