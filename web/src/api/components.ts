// Components: reusable groups of steps with numbered versions, called from
// tests by a callComponent step pinned to a version (hub/api/components.go).
// Each type mirrors a response struct there (named in the comment).
import { del, get, inProject, post, put, recordCall } from "./client";
import type { Step, TestStatus } from "./tests";
import type { Ref } from "./types";

/** Query keys; each starts with "components" so invalidating it refreshes every component screen. */
export const componentKeys = {
  list: (projectId: string) => ["components", projectId, "list"] as const,
  detail: (id: string) => ["components", "detail", id] as const,
  version: (id: string, version: number) => ["components", "version", id, version] as const,
  impact: (id: string) => ["components", "impact", id] as const,
};

/** componentInputJSON: a variable of the component; default null means a caller must give it. */
export interface ComponentInput {
  name: string;
  default: string | null;
  description: string;
}

/** componentSummaryJSON: one row of GET /api/components. */
export interface ComponentSummary {
  id: string;
  name: string;
  description: string;
  latestVersion: number;
  /** The latest version's inputs. */
  inputs: ComponentInput[];
  /** Tests whose current version calls it. */
  usages: number;
  updatedAt: string;
}

/** componentVersionJSON */
export interface ComponentVersion {
  version: number;
  author: Ref | null;
  createdAt: string;
  note: string;
  inputs: ComponentInput[];
  steps: Step[];
}

/** componentUsageJSON: a test version that calls the component. */
export interface ComponentUsage {
  testId: string;
  testName: string;
  testVersion: number;
  componentVersion: number;
  /** The test's current version (false: an older version in its history). */
  current: boolean;
  status: TestStatus;
}

/** componentJSON: GET /api/components/:id */
export interface Component {
  id: string;
  projectId: string;
  name: string;
  description: string;
  latestVersion: number;
  inputs: ComponentInput[];
  createdBy: Ref | null;
  createdAt: string;
  updatedAt: string;
  versions: ComponentVersion[];
  usages: ComponentUsage[];
}

/** components.Change: one row of a step-level diff. */
export interface ComponentChange {
  op: "same" | "change" | "remove" | "add";
  before?: Step;
  after?: Step;
}

/** callerJSON: a test calling the component and what upgrading it to the latest version changes. */
export interface ComponentCaller {
  testId: string;
  testName: string;
  status: TestStatus;
  testVersion: number;
  /** The oldest version its current version calls. */
  pinnedVersion: number;
  /** Upgrading adds a version to the test (it does not call the latest yet). */
  addsVersion: boolean;
  mayUpgrade: boolean;
  /** Why not, when mayUpgrade is false. */
  reason?: string;
  diff: ComponentChange[];
}

/** GET /api/components/:id/impact */
export interface ComponentImpact {
  latestVersion: number;
  callers: ComponentCaller[];
}

/** upgradeResultJSON */
export interface UpgradeResult {
  testId: string;
  status: "upgraded" | "unchanged" | "refused" | "not_found";
  /** The test's new version, when upgraded. */
  version?: number;
  error?: string;
}

/** An input as POST bodies take it: default left out for a required input. */
export interface ComponentInputSave {
  name: string;
  default?: string;
  description?: string;
}

/** POST /api/components from a contiguous range of a test's steps. */
export interface NewComponentFromTest {
  name: string;
  description?: string;
  inputs?: ComponentInputSave[];
  testId: string;
  stepIds: string[];
}

/** POST /api/components from scratch. */
export interface NewComponentFromSteps {
  name: string;
  description?: string;
  inputs?: ComponentInputSave[];
  steps: unknown[];
}

/** POST /api/components answer: test is set when the source test got a new version calling the component. */
export interface CreatedComponent {
  component: Component;
  test: { id: string; version: number } | null;
}

/** POST /api/components/:id/versions body; inputs absent keeps the latest version's. */
export interface NewComponentVersion {
  steps: unknown[];
  inputs?: ComponentInputSave[];
  note?: string;
}

const path = (id: string) => `/api/components/${encodeURIComponent(id)}`;

export const listComponents = async (projectId: string, signal?: AbortSignal) =>
  (await get<{ components: ComponentSummary[] }>("/api/components", inProject(projectId, { signal }))).components;
export const createComponent = (projectId: string, body: NewComponentFromTest | NewComponentFromSteps) =>
  post<CreatedComponent>("/api/components", body, inProject(projectId));
export const getComponent = (id: string, signal?: AbortSignal) => get<Component>(path(id), { ...recordCall, signal });
/** PUT /api/components/:id: rename or describe. */
export const updateComponent = (id: string, change: { name?: string; description?: string }) =>
  put<Component>(path(id), change, recordCall);
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
