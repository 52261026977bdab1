// Components: reusable groups of steps with numbered versions, called from
// tests by a callComponent step pinned to a version (hub/api/components.go).
// Each type mirrors a response struct there (named in the comment).
import type { Answer, Body, Schema } from "./types";
import { del, get, inProject, post, put, recordCall } from "./client";
import type { Step } from "./tests";

/** Query keys; each starts with "components" so invalidating it refreshes every component screen. */
export const componentKeys = {
  list: (projectId: string) => ["components", projectId, "list"] as const,
  detail: (id: string) => ["components", "detail", id] as const,
  version: (id: string, version: number) => ["components", "version", id, version] as const,
  impact: (id: string) => ["components", "impact", id] as const,
};

/** componentInputJSON: a variable of the component; default null means a caller must give it. */
export type ComponentInput = Schema<"ComponentInput">;

/** componentSummaryJSON: one row of GET /api/components. */
export type ComponentSummary = Schema<"ComponentSummary">;

/** componentVersionJSON */
export type ComponentVersion = Schema<"ComponentVersion">;

/** componentUsageJSON: a test version that calls the component. */
export type ComponentUsage = Schema<"ComponentUsage">;

/** componentJSON: GET /api/components/:id */
export type Component = Schema<"Component">;

/** components.Change: one row of a step-level diff; op narrowed (a string in the document). */
export type ComponentChange = Omit<Schema<"Change">, "op" | "before" | "after"> & {
  op: "same" | "change" | "remove" | "add";
  before?: Step;
  after?: Step;
};

/** callerJSON: a test calling the component and what upgrading it to the latest version changes. */
export type ComponentCaller = Omit<Schema<"Caller">, "diff"> & { diff: ComponentChange[] };

/** GET /api/components/:id/impact */
export type ComponentImpact = Omit<Answer<"/api/components/{id}/impact", "get">, "callers"> & { callers: ComponentCaller[] };

/** upgradeResultJSON */
export type UpgradeResult = Schema<"UpgradeResult">;

/**
 * An input as POST bodies take it: default left out for a required input.
 * Not the document's ComponentInput: the document uses the answer's type
 * for bodies too (default and description required), but the hub takes
 * them optional.
 */
export type ComponentInputSave = Pick<Schema<"ComponentInput">, "name"> & { default?: string; description?: string };

type ComponentBody = Body<"/api/components", "post">;

/** POST /api/components from a contiguous range of a test's steps (a client-side split of the document's ComponentBody). */
export type NewComponentFromTest = Pick<ComponentBody, "name" | "description"> & {
  inputs?: ComponentInputSave[];
  testId: string;
  stepIds: string[];
};

/** POST /api/components from scratch; steps as the editor holds them (the hub validates them). */
export type NewComponentFromSteps = Pick<ComponentBody, "name" | "description"> & {
  inputs?: ComponentInputSave[];
  steps: unknown[];
};

/** POST /api/components answer: test is set when the source test got a new version calling the component. */
export type CreatedComponent = Answer<"/api/components", "post", 201>;

/** POST /api/components/:id/versions body; inputs absent keeps the latest version's; steps as the editor holds them. */
export type NewComponentVersion = Pick<Body<"/api/components/{id}/versions", "post">, "note"> & {
  steps: unknown[];
  inputs?: ComponentInputSave[];
};

const path = (id: string) => `/api/components/${encodeURIComponent(id)}`;

export const listComponents = async (projectId: string, signal?: AbortSignal) =>
  (await get<{ components: ComponentSummary[] }>("/api/components", inProject(projectId, { signal }))).components;
export const createComponent = (projectId: string, body: NewComponentFromTest | NewComponentFromSteps) =>
  post<CreatedComponent>("/api/components", body, inProject(projectId));
export const getComponent = (id: string, signal?: AbortSignal) => get<Component>(path(id), { ...recordCall, signal });
/** PUT /api/components/:id: rename or describe. */
export const updateComponent = (id: string, change: Body<"/api/components/{id}", "put">) => put<Component>(path(id), change, recordCall);
/** DELETE /api/components/:id: 409 component_in_use while a current test version or a component calls it. */
export const deleteComponent = (id: string) => del(path(id), recordCall);
export const publishComponentVersion = (id: string, body: NewComponentVersion) =>
  post<ComponentVersion>(`${path(id)}/versions`, body, recordCall);
export const getComponentVersion = (id: string, version: number, signal?: AbortSignal) =>
  get<ComponentVersion>(`${path(id)}/versions/${version}`, { ...recordCall, signal });
export const getComponentImpact = (id: string, signal?: AbortSignal) =>
  get<ComponentImpact>(`${path(id)}/impact`, { ...recordCall, signal });
/** POST /api/components/:id/upgrade: each test's calls move to the latest version, one result per test. */
export const upgradeComponentCallers = async (id: string, testIds: string[]) =>
  (await post<{ results: UpgradeResult[] }>(`${path(id)}/upgrade`, { testIds }, recordCall)).results;

/** inputsForSave writes inputs as the hub takes them: trimmed, an empty default kept only when given. */
export function inputsForSave(inputs: ComponentInput[]): ComponentInputSave[] {
  return inputs
    .filter((i) => i.name.trim() !== "")
    .map((i) => ({
      name: i.name.trim(),
      ...(i.default !== null ? { default: i.default } : {}),
      ...(i.description.trim() ? { description: i.description.trim() } : {}),
    }));
}
