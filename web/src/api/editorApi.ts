// The test editor's calls: a test with its ETag, saves guarded by If-Match,
// validation, lifecycle actions, sharing, deletion, script export and the
// step-type registry (hub/api/tests.go, tests_lifecycle.go, tests_versions.go).
import { get, post, del, recordCall, request } from "./client";
import type { Registry, Test, TestStatus, Visibility } from "./tests";
import type { Answer, Body, Schema } from "./types";

// JsonObject, EditorDocument and LoadedTest are client-side: the editor
// holds any JSON the user types (the hub validates it), not the document's
// TestDocument.

/** A JSON object whose members the editor reads with type checks. */
export type JsonObject = Record<string, unknown>;

/**
 * The document as the editor holds it: any JSON the user may type, so every
 * member is read with a check. Steps are objects; the hub validates the rest.
 */
export interface EditorDocument {
  steps: JsonObject[];
  [field: string]: unknown;
}

/** A test's metadata, its current document and the ETag to save against. */
export interface LoadedTest {
  test: Test;
  document: EditorDocument;
  etag: string;
}

export type TestAnswer = Omit<Test, "document"> & { document?: EditorDocument };

/** loaded splits a test answer into the test, its document and its ETag. */
export function loaded(data: TestAnswer, headers: Headers): LoadedTest {
  const { document, ...test } = data;
  return { test, document: document ?? { steps: [] }, etag: headers.get("ETag") ?? "" };
}

const testPath = (id: string) => `/api/tests/${encodeURIComponent(id)}`;

/** GET /api/tests/:id with its ETag. */
export async function fetchTest(id: string): Promise<LoadedTest> {
  const res = await request<TestAnswer>("GET", testPath(id), undefined, recordCall);
  return loaded(res.data, res.headers);
}

function ifMatch(etag: string) {
  return etag ? { ...recordCall, headers: { "If-Match": etag } } : recordCall;
}

/** PUT /api/tests/:id: a document, a status, or both; 412 when etag is stale. */
export async function saveTest(
  id: string,
  body: { document?: EditorDocument; status?: TestStatus; note?: string },
  etag: string,
): Promise<LoadedTest> {
  const payload: JsonObject = { ...(body.document ?? {}) };
  if (body.status) payload.status = body.status;
  if (body.note) payload.note = body.note;
  const res = await request<TestAnswer>("PUT", testPath(id), payload, ifMatch(etag));
  return loaded(res.data, res.headers);
}

/** POST /api/tests/:id/validate */
export type ValidateResult = Schema<"Validation">;

export function validateDocument(id: string, document: EditorDocument): Promise<ValidateResult> {
  return post<ValidateResult>(`${testPath(id)}/validate`, document, recordCall);
}

/** POST /api/tests/:id/revisions: the next version as a Draft copy of a Ready one. */
export async function reviseTest(id: string, note = ""): Promise<LoadedTest> {
  const res = await request<TestAnswer>("POST", `${testPath(id)}/revisions`, note ? { note } : {}, recordCall);
  return loaded(res.data, res.headers);
}

/** POST /api/tests/:id/duplicate: a new Draft owned by the caller, named name ("<name> (copy)" when absent). */
export async function duplicateTest(id: string, name?: string): Promise<LoadedTest> {
  const res = await request<TestAnswer>("POST", `${testPath(id)}/duplicate`, name === undefined ? {} : { name }, recordCall);
  return loaded(res.data, res.headers);
}

/** PUT /api/tests/:id/sharing */
export async function setSharing(
  id: string,
  change: Omit<Body<"/api/tests/{id}/sharing", "put">, "visibility"> & { visibility?: Visibility },
): Promise<LoadedTest> {
  const res = await request<TestAnswer>("PUT", `${testPath(id)}/sharing`, change, recordCall);
  return loaded(res.data, res.headers);
}

/** DELETE /api/tests/:id: the test, its versions and its runs. */
export function deleteTest(id: string): Promise<null> {
  return del(testPath(id), recordCall);
}

/** POST /api/script */
export type ScriptResult = Answer<"/api/script", "post">;

/** exportScript renders a test; device, a Playwright device profile, makes the script use it. */
export function exportScript(testId: string, device?: string): Promise<ScriptResult> {
  return post<ScriptResult>("/api/script", device ? { testId, device } : { testId }, recordCall);
}

/** GET /api/registry */
export function fetchRegistry(): Promise<Registry> {
  return get<Registry>("/api/registry");
}
