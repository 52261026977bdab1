// Tests, their documents (DSL 2, protocol/document.go) and versions: the
// hub's OpenAPI schemas (schema.d.ts).
import type { Answer, Schema } from "./types";

export type TestStatus = Schema<"Test">["status"];
export type Visibility = Schema<"Test">["visibility"];

export type Locator = Schema<"Locator">;
export type Target = Schema<"Target">;

/**
 * protocol.Step: the fields a step type uses are listed by GET /api/registry.
 * The type stays a string here: editors build steps of any registered type.
 */
export type Step = Omit<Schema<"Step">, "type"> & { type: string };

/** protocol.Document (DSL 2) */
export type TestDocument = Omit<Schema<"TestDocument">, "steps"> & { steps: Step[] };

export type DataBinding = Schema<"DataBinding">;

export type TestCan = Schema<"TestCan">;
export type LastRun = Schema<"LastRun">;

export type Test = Omit<Schema<"Test">, "document"> & { document?: TestDocument };

/** GET /api/tests */
export type TestList = Omit<Schema<"TestList">, "tests"> & { tests: Test[] };

export type TestVersion = Omit<Schema<"Version">, "document"> & { document?: TestDocument };

/** protocol.Param: one parameter of a step type. */
export type RegistryParam = Omit<Schema<"Param">, "default"> & { default?: string | number | boolean };

/** protocol.StepType: one entry of GET /api/registry. */
export type StepType = Omit<Schema<"StepType">, "params"> & { params: RegistryParam[] };

/** GET /api/registry */
export type Registry = Omit<Answer<"/api/registry", "get">, "stepTypes"> & { stepTypes: StepType[] };
