// Authoring with the caller's desktop agent (hub/api/authoring.go):
// recordings whose captured steps stream live, pickers that describe the
// element clicked in the agent's browser with every candidate locator, and
// snippets tried in a page. Starts are project-scoped (x-project-id); a
// session's own routes are record calls.
import { get, inProject, post, recordCall, request } from "./client";
import type { Locator, Step } from "./tests";

export type RecordingStatus = "starting" | "recording" | "stopped" | "error";

/** hub/authoring RecordingView */
export interface Recording {
  id: string;
  status: RecordingStatus;
  url: string;
  /** DSL 2 steps; the first is the navigate to the start URL. */
  steps: Step[];
  error: string | null;
  environmentId: string | null;
  testId: string | null;
  createdAt: string;
}

/** One `event: step` of a recording's stream: a seq seen before replaces that step; removed withdraws it. */
export interface StepEvent {
  seq: number;
  step?: Step;
  removed?: boolean;
}

/** One `event: status` of a recording's stream. */
export interface StatusEvent {
  status: RecordingStatus;
  url: string;
  error: string | null;
}

export interface RecordStart {
  url: string;
  environmentId?: string;
  testId?: string;
  headed?: boolean;
}

const recordPath = (id: string) => `/api/record/${encodeURIComponent(id)}`;

export function startRecording(projectId: string, body: RecordStart): Promise<Recording> {
  return post<Recording>("/api/record/start", body, inProject(projectId));
}

export function fetchRecording(id: string): Promise<Recording> {
  return get<Recording>(recordPath(id), recordCall);
}

export function stopRecording(id: string): Promise<Recording> {
  return post<Recording>(`${recordPath(id)}/stop`, {}, recordCall);
}

/** The address of a recording's live stream (Server-Sent Events). */
export const recordingEventsUrl = (id: string) => `${recordPath(id)}/events`;

/** The address of a recording's page as a PNG; n makes each refresh a new address. */
export const recordingPreviewUrl = (id: string, n: number) => `${recordPath(id)}/preview?n=${n}`;

export type PickerMode = "pick" | "inspect" | "off";
export type PickerStatus = "starting" | "ready" | "picked" | "closed" | "error";

/** protocol.RankedLocator: a candidate, its score (lower is better) and how many elements it matches now. */
export interface RankedLocator extends Locator {
  score: number;
  matches: number;
}

/** protocol.PickedElement */
export interface PickedElement {
  tag: string;
  text: string;
  role: string;
  name: string;
  attributes: Record<string, string> | null;
  box?: { x: number; y: number; width: number; height: number } | null;
  frame: Locator[] | null;
}

/** protocol.PickedTarget */
export interface PickedTarget {
  locators: RankedLocator[];
  frame: Locator[] | null;
  fingerprint?: Record<string, string> | null;
}

/** hub/authoring PickerView */
export interface Picker {
  id: string;
  status: PickerStatus;
  mode: PickerMode;
  element: PickedElement | null;
  target: PickedTarget | null;
  error: string | null;
}

/** Where a picker or a tried script runs: a running recording's page, or a fresh one at url. */
export interface PageChoice {
  url?: string;
  recordingId?: string;
  environmentId?: string;
}

const pickPath = (id: string) => `/api/pick/${encodeURIComponent(id)}`;

export function startPicker(projectId: string, body: PageChoice & { headed?: boolean }): Promise<Picker> {
  return post<Picker>("/api/pick/start", body, inProject(projectId));
}

export function fetchPicker(id: string): Promise<Picker> {
  return get<Picker>(pickPath(id), recordCall);
}

export function setPickerMode(id: string, mode: PickerMode): Promise<Picker> {
  return post<Picker>(`${pickPath(id)}/mode`, { mode }, recordCall);
}

export async function closePicker(id: string): Promise<void> {
  await request<null>("POST", `${pickPath(id)}/close`, {}, recordCall);
}

/** POST /api/scripts/try */
export interface TryResult {
  value: unknown;
  console: { level: string; text: string }[];
  error: { message: string } | null;
  durationMs: number;
}

export function tryScript(projectId: string, body: PageChoice & { code: string; timeoutMs?: number }): Promise<TryResult> {
  return post<TryResult>("/api/scripts/try", body, inProject(projectId));
}
