// Authoring with the caller's desktop agent (hub/api/authoring.go):
// recordings whose captured steps stream live, pickers that describe the
// element clicked in the agent's browser with every candidate locator, and
// snippets tried in a page. Starts are project-scoped (x-project-id); a
// session's own routes are record calls.
import { get, inProject, post, recordCall, request } from "./client";
import type { Locator, Step } from "./tests";
import type { Body, Schema } from "./types";

export type RecordingStatus = "starting" | "recording" | "stopped" | "error";

/**
 * hub/authoring RecordingView: steps are DSL 2, the first the navigate to
 * the start URL. Narrowed: the document gives status as a string.
 */
export type Recording = Omit<Schema<"RecordingView">, "status" | "steps"> & { status: RecordingStatus; steps: Step[] };

// StepEvent and StatusEvent are not from the document: they come on the
// recording's text/event-stream, whose payloads it does not describe.

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

/** POST /api/record/start body; url narrowed to required (optional in the document, the hub needs it or an environment's base URL). */
export type RecordStart = Omit<Body<"/api/record/start", "post">, "url"> & { url: string };

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
export type RankedLocator = Schema<"RankedLocator">;

/**
 * protocol.PickedElement. Widened: attributes and frame are a Go map and
 * slice, which the hub sends as null when empty, though the document says
 * they are always an object and an array.
 */
export type PickedElement = Omit<Schema<"PickedElement">, "attributes" | "frame"> & {
  attributes: Schema<"PickedElement">["attributes"] | null;
  frame: Locator[] | null;
};

/** protocol.PickedTarget; frame widened to null as in PickedElement. */
export type PickedTarget = Omit<Schema<"PickedTarget">, "frame"> & { frame: Locator[] | null };

/**
 * hub/authoring PickerView. Narrowed: the document gives status and mode
 * as strings.
 */
export type Picker = Omit<Schema<"PickerView">, "status" | "mode" | "element" | "target"> & {
  status: PickerStatus;
  mode: PickerMode;
  element: PickedElement | null;
  target: PickedTarget | null;
};

/** Where a picker or a tried script runs: a running recording's page, or a fresh one at url (the fields POST /api/pick/start and POST /api/scripts/try share). */
export type PageChoice = Pick<Body<"/api/pick/start", "post">, "url" | "recordingId" | "environmentId">;

const pickPath = (id: string) => `/api/pick/${encodeURIComponent(id)}`;

export function startPicker(projectId: string, body: Body<"/api/pick/start", "post">): Promise<Picker> {
  return post<Picker>("/api/pick/start", body, inProject(projectId));
}

export function fetchPicker(id: string): Promise<Picker> {
  return get<Picker>(pickPath(id), recordCall);
}

export function setPickerMode(id: string, mode: PickerMode): Promise<Picker> {
  const body: Body<"/api/pick/{id}/mode", "post"> = { mode };
  return post<Picker>(`${pickPath(id)}/mode`, body, recordCall);
}

export async function closePicker(id: string): Promise<void> {
  await request<null>("POST", `${pickPath(id)}/close`, {}, recordCall);
}

/** POST /api/scripts/try */
export type TryResult = Schema<"TryResult">;

/** POST /api/scripts/try body; code narrowed to required (optional in the document). */
export type TryScript = Omit<Body<"/api/scripts/try", "post">, "code"> & { code: string };

export function tryScript(projectId: string, body: TryScript): Promise<TryResult> {
  return post<TryResult>("/api/scripts/try", body, inProject(projectId));
}

// The live view of any authoring session (hub/api/sessions_view.go).

/** One `event: frame` of a session's view: a JPEG (base64) and how its pixels map to the page. */
export interface ViewFrame {
  seq: number;
  data: string;
  width: number;
  height: number;
  pageWidth: number;
  pageHeight: number;
  scrollX: number;
  scrollY: number;
  /** The JavaScript dialog open on the page (the picture does not show it). */
  dialog?: ViewDialog;
  /** The session's open tabs in opening order, the one shown current (kinds tab and closeTab take their index). */
  tabs?: ViewTab[];
  /** The file choice the page waits for (its file input was clicked); answered with a `files` input. */
  fileChooser?: ViewFileChooser;
}

/** An open tab of the live view's session. */
export interface ViewTab {
  title: string;
  url: string;
  current: boolean;
}

/** A file choice the live view's page waits for: one file, or several when multiple. */
export interface ViewFileChooser {
  multiple: boolean;
}

/** A JavaScript dialog open on the live view's page; answered with a `dialog` input. */
export interface ViewDialog {
  type: "alert" | "confirm" | "prompt" | "beforeunload";
  message: string;
  defaultPrompt?: string;
}

const sessionPath = (id: string) => `/api/sessions/${encodeURIComponent(id)}`;

/** The address of a session's live view (Server-Sent Events of frames). */
export const sessionViewUrl = (id: string) => `${sessionPath(id)}/view`;

/** POST /api/sessions/{id}/input body: x and y in the last frame's pixels. */
export type ViewInput = Body<"/api/sessions/{id}/input", "post">;

export async function sendViewInput(id: string, body: ViewInput): Promise<void> {
  await request<null>("POST", `${sessionPath(id)}/input`, body, recordCall);
}

/** One `event: file.offered` of a recording's stream: a file the page chose waits for the person's answer. */
export interface FileOfferedEvent {
  offerId: string;
  name: string;
  size: number;
}

/** One `event: file.settled`: the offer was answered, lapsed (expired) or its recording ended. */
export interface FileSettledEvent {
  offerId: string;
  outcome: "accepted" | "declined" | "expired" | "ended" | "withdrawn";
  fileId: string | null;
}

/** POST /api/sessions/{id}/files/{offerId}: accept uploads the offered file to the project's files. */
export async function answerFileOffer(sessionId: string, offerId: string, accept: boolean): Promise<void> {
  const body: Body<"/api/sessions/{id}/files/{offerId}", "post"> = { accept };
  await request<unknown>("POST", `${sessionPath(sessionId)}/files/${encodeURIComponent(offerId)}`, body, recordCall);
}
