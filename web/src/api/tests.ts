// Tests, their documents (DSL 2, protocol/document.go) and versions.
import type { Ref } from "./types";

export type TestStatus = "Draft" | "Ready" | "Deprecated";
export type Visibility = "Shared" | "Private";

/** protocol.Locator */
export interface Locator {
  kind: string;
  value: string;
  name?: string;
  exact?: boolean;
}

/** protocol.Target */
export interface Target {
  locators: Locator[];
  frame?: Locator[];
  fingerprint?: Record<string, string>;
}

/** protocol.Step: the fields a step type uses are listed by GET /api/registry. */
export interface Step {
  id: string;
  type: string;
  description?: string;
  url?: string;
  target?: Target;
  value?: string;
  key?: string;
  expected?: string;
  match?: string;
  ms?: number;
  state?: string;
  name?: string;
  fullPage?: boolean;
  code?: string;
  assign?: string;
  component?: string;
  version?: number;
  inputs?: Record<string, string>;
  timeoutMs?: number;
  /** Only in a run's expanded document: the id of the test's callComponent step this step came from. */
  call?: string;
}

/** protocol.Document (DSL 2) */
export interface TestDocument {
  dsl: number;
  name: string;
  suite?: string;
  tags?: string[];
  description?: string;
  variables?: Record<string, string>;
  steps: Step[];
  data?: DataBinding;
}

/**
 * protocol.DataBinding: a test data set to run once per row, and/or a data
 * pool to take one record from per run (mode lease, the default, or consume).
 */
export interface DataBinding {
  set?: string;
  pool?: string;
  mode?: "lease" | "consume";
}

/** hub/api/tests_lifecycle.go testCan */
export interface TestCan {
  edit: boolean;
  run: boolean;
  delete: boolean;
  markReady: boolean;
  deprecate: boolean;
  revise: boolean;
  duplicate: boolean;
  share: boolean;
  transfer: boolean;
  restore: boolean;
  /** A run of it may use a protected environment: it is Ready and the caller a Test Manager or Admin. */
  runProtected: boolean;
}

/** hub/api/tests.go lastRunJSON */
export interface LastRun {
  runId: string;
  status: string;
  passed: number;
  total: number;
  at: string;
}

/** hub/api/tests.go testJSON */
export interface Test {
  id: string;
  projectId: string;
  name: string;
  suite: string | null;
  tags: string[];
  visibility: Visibility;
  owner: Ref | null;
  status: TestStatus;
  version: number;
  steps: number;
  lastRun: LastRun | null;
  lastSaved: { at: string; by: Ref | null };
  createdAt: string;
  can: TestCan;
  document?: TestDocument;
}

/** GET /api/tests */
export interface TestList {
  tests: Test[];
  total: number;
  nextCursor: string | null;
}

/** hub/api/tests_versions.go versionJSON */
export interface TestVersion {
  version: number;
  status: TestStatus;
  steps: number;
  author: Ref | null;
  createdAt: string;
  savedAt: string;
  note: string;
  current: boolean;
  document?: TestDocument;
}

/** protocol.Param: one parameter of a step type. */
export interface RegistryParam {
  name: string;
  type: "string" | "number" | "boolean" | "target" | "enum" | "map";
  required: boolean;
  description: string;
  values?: string[];
  default?: string | number | boolean;
  min?: number;
  max?: number;
}

/** protocol.StepType: one entry of GET /api/registry. */
export interface StepType {
  type: string;
  description: string;
  params: RegistryParam[];
}

/** GET /api/registry */
export interface Registry {
  dslVersion: number;
  stepTypes: StepType[];
  locatorKinds: string[];
}
