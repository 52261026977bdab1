// Calls for the test list, creating and importing tests, and version
// history (hub/api/tests.go, tests_list.go, tests_import.go,
// tests_versions.go, suites.go). Plain functions, usable by any screen as
// queryFn or mutationFn.
import { get, inProject, post, query, recordCall, request } from "./client";
import type { Test, TestList, TestVersion, Visibility } from "./tests";
import type { paths } from "./schema";
import type { Answer, Body, Schema } from "./types";

/** The visibility filter of GET /api/tests (hub/api/tests_list.go visibilityFilters). */
export type VisibilityFilter = NonNullable<TestListQuery["visibility"]>;
export const VISIBILITY_FILTERS: { value: VisibilityFilter; label: string }[] = [
  { value: "all", label: "All I can see" },
  { value: "shared", label: "Shared with the project" },
  { value: "private", label: "My private tests" },
  { value: "mine", label: "Owned by me" },
];

/** The sort orders of GET /api/tests (hub/store/testlist.go TestSorts). */
export type TestSort = NonNullable<TestListQuery["sort"]>;
export const TEST_SORTS: { value: TestSort; label: string }[] = [
  { value: "name", label: "Name A–Z" },
  { value: "-name", label: "Name Z–A" },
  { value: "-savedAt", label: "Last saved, newest first" },
  { value: "savedAt", label: "Last saved, oldest first" },
  { value: "passRate", label: "Pass rate, lowest first" },
  { value: "-passRate", label: "Pass rate, highest first" },
  { value: "-flakiness", label: "Flakiest first" },
];

/** The history filters of GET /api/tests: flaky=1 or quarantined=1 (docs/history.md). */
export type HealthFilter = "all" | "flaky" | "quarantined";
export const HEALTH_FILTERS: { value: HealthFilter; label: string }[] = [
  { value: "all", label: "Any" },
  { value: "flaky", label: "Flaky now" },
  { value: "quarantined", label: "Quarantined" },
];

type TestListQuery = NonNullable<paths["/api/tests"]["get"]["parameters"]["query"]>;

/** The list's filters as the UI holds them (client-side: testListQuery turns them into the query). */
export interface TestFilters {
  /** Matches name, suite or a tag. */
  q?: string;
  /** Only tests of this suite. */
  suite?: string;
  /** Only tests without a suite (cannot be combined with suite). */
  unsorted?: boolean;
  visibility?: VisibilityFilter;
  sort?: TestSort;
  /** Only tests called flaky now, or quarantined ones. */
  health?: HealthFilter;
  limit?: number;
  /** nextCursor of the previous page. */
  cursor?: string | null;
}

/** The query string of GET /api/tests for these filters; defaults are left out. */
export function testListQuery(f: TestFilters): string {
  return query({
    q: f.q?.trim(),
    suite: f.unsorted ? undefined : f.suite,
    unsorted: f.unsorted ? 1 : undefined,
    visibility: f.visibility && f.visibility !== "all" ? f.visibility : undefined,
    sort: f.sort && f.sort !== "name" ? f.sort : undefined,
    flaky: f.health === "flaky" ? 1 : undefined,
    quarantined: f.health === "quarantined" ? 1 : undefined,
    limit: f.limit,
    cursor: f.cursor,
  });
}

/** GET /api/tests: one page of the tests the caller can see in the current project. */
export function listTests(projectId: string, f: TestFilters = {}, signal?: AbortSignal): Promise<TestList> {
  return get<TestList>(`/api/tests${testListQuery(f)}`, inProject(projectId, { signal }));
}

/** hub/api/suites.go suiteJSON */
export type Suite = Schema<"Suite">;

/** GET /api/suites: the current project's suites. */
export async function listSuites(projectId: string, signal?: AbortSignal): Promise<Suite[]> {
  return (await get<{ suites: Suite[] }>("/api/suites", inProject(projectId, { signal }))).suites;
}

/** The new-test form's fields (client-side: createTest builds the POST /api/tests body from them). */
export interface NewTestInput {
  name: string;
  /** Empty for none. */
  suite?: string;
  visibility: Visibility;
}

/** POST /api/tests: a new Draft test at version 1 with no steps, owned by the caller. */
export function createTest(projectId: string, input: NewTestInput): Promise<Test> {
  const suite = input.suite?.trim();
  const body: Body<"/api/tests", "post"> = {
    dsl: 2,
    name: input.name.trim(),
    ...(suite ? { suite } : {}),
    steps: [],
    visibility: input.visibility,
  };
  return post<Test>("/api/tests", body, inProject(projectId));
}

/** One test created by an import. */
export type ImportedTest = Omit<Schema<"Imported">, "test"> & { test: Test };

/**
 * POST /api/tests/import answer (hub/api/tests_import.go). migratedFrom is
 * the DSL version the document was migrated from, "side" for a Selenium IDE
 * project, null when already current (narrowed: number | string in the
 * document). skipped: .side commands left out of their test.
 */
export type ImportResult = Omit<Answer<"/api/tests/import", "post", 201>, "test" | "tests" | "migratedFrom"> & {
  test: Test;
  migratedFrom: number | "side" | null;
  tests: ImportedTest[];
};

/** protocol.Skipped: a Selenium IDE command the import could not take; index counts from 0 in the test's commands. */
export type SkippedCommand = Schema<"Skipped">;

/** POST /api/tests/import with a file's text as the body: a DSL 1 or 2 document, or a Selenium IDE .side project. */
export async function importTests(projectId: string, text: string, environmentId = ""): Promise<ImportResult> {
  // With an environment, literal values equal to its secrets come back as ${secrets.NAME} (secretsReplaced counts them).
  const path = environmentId ? `/api/tests/import?environmentId=${encodeURIComponent(environmentId)}` : "/api/tests/import";
  const res = await request<ImportResult>("POST", path, undefined, inProject(projectId, { rawBody: text }));
  const data = res.data;
  return { ...data, tests: data.tests ?? [{ test: data.test, version: data.version }], skipped: data.skipped ?? [] };
}

function testPath(id: string): string {
  return `/api/tests/${encodeURIComponent(id)}`;
}

/** GET /api/tests/:id: the current version with its document and can. */
export function getTest(id: string, signal?: AbortSignal): Promise<Test> {
  return get<Test>(testPath(id), { ...recordCall, signal });
}

/** GET /api/tests/:id/versions: every version, as the hub orders them. */
export async function listVersions(id: string, signal?: AbortSignal): Promise<TestVersion[]> {
  return (await get<{ versions: TestVersion[] }>(`${testPath(id)}/versions`, { ...recordCall, signal })).versions;
}

/** GET /api/tests/:id/versions/:version: one version with its document. */
export function getVersion(id: string, version: number, signal?: AbortSignal): Promise<TestVersion> {
  return get<TestVersion>(`${testPath(id)}/versions/${version}`, { ...recordCall, signal });
}

/** POST /api/tests/:id/versions/:version/restore: adds a new Draft version with that version's content; answers the test. */
export function restoreVersion(id: string, version: number): Promise<Test> {
  return post<Test>(`${testPath(id)}/versions/${version}/restore`, undefined, recordCall);
}
