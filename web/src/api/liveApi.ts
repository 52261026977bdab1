// The editor's live session (hub/api/sessions_live.go): a page kept open on
// the caller's agent on which the editor runs one step, up to a step or
// from a step on, with the current (maybe unsaved) document. Opening is
// project-scoped (x-project-id); the session's own routes are record calls.
import { get, inProject, post, recordCall, request } from "./client";
import type { Body, Schema } from "./types";

export type LiveStatus = "starting" | "ready" | "running" | "paused" | "closed" | "error";

/** hub/authoring LiveView; status narrowed. */
export type LiveSession = Omit<Schema<"LiveView">, "status"> & { status: LiveStatus };

export type StepMark = Schema<"StepMark">;

export type LiveRunBody = Body<"/api/sessions/{id}/run", "post">;

const sessionPath = (id: string) => `/api/sessions/${encodeURIComponent(id)}`;

export function openLive(projectId: string, body: Body<"/api/sessions", "post">): Promise<LiveSession> {
  return post<LiveSession>("/api/sessions", body, inProject(projectId));
}

export function fetchLive(id: string): Promise<LiveSession> {
  return get<LiveSession>(sessionPath(id), recordCall);
}

export function runLive(id: string, body: LiveRunBody): Promise<LiveSession> {
  return post<LiveSession>(`${sessionPath(id)}/run`, body, recordCall);
}

export async function closeLive(id: string): Promise<void> {
  await request<null>("POST", `${sessionPath(id)}/close`, {}, recordCall);
}

/** The address of a screenshot a live session's step took. */
export const liveScreenshotUrl = (id: string, name: string) => `${sessionPath(id)}/screenshots/${encodeURIComponent(name)}`;

/** live reports whether a session still holds its page. */
export const liveOpen = (s: LiveSession | null): s is LiveSession => !!s && s.status !== "closed" && s.status !== "error";
