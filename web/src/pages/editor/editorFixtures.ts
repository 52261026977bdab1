// Fixtures for the editor's tests: a small fake registry and a test as
// GET /api/tests/:id answers it.
import type { Registry, TestCan } from "../../api";
import type { EditorDocument } from "../../api/editorApi";
import type { FakeRoute } from "../../test/render";

const common = [
  { name: "description", type: "string" as const, required: false, description: "what the step is for" },
  {
    name: "timeoutMs",
    type: "number" as const,
    required: false,
    description: "how long the step may wait",
    default: 10000,
    min: 1,
    max: 600000,
  },
];
const target = { name: "target", type: "target" as const, required: true, description: "the element to act on" };

export const registry: Registry = {
  dslVersion: 2,
  locatorKinds: ["testId", "role", "label", "css", "xpath"],
  devices: [{ name: "Pixel 7", width: 412, height: 915, deviceScaleFactor: 2.625, isMobile: true, hasTouch: true, userAgent: "Pixel 7" }],
  stepTypes: [
    {
      type: "navigate",
      description: "Open a URL in the page.",
      params: [{ name: "url", type: "string", required: true, description: "the address to open" }, ...common],
    },
    { type: "click", description: "Click an element.", params: [target, ...common] },
    {
      type: "fill",
      description: "Replace the content of an input.",
      params: [target, { name: "value", type: "string", required: true, description: "the text to enter" }, ...common],
    },
    {
      type: "assertText",
      description: "Assert an element's text.",
      params: [
        target,
        { name: "expected", type: "string", required: true, description: "the text to compare with" },
        {
          name: "match",
          type: "enum",
          required: false,
          description: "how expected is compared",
          values: ["equals", "contains", "regex"],
          default: "contains",
        },
        ...common,
      ],
    },
    {
      type: "wait",
      description: "Pause for a fixed time.",
      params: [{ name: "ms", type: "number", required: true, description: "milliseconds to wait", min: 0, max: 600000 }, ...common],
    },
    {
      type: "screenshot",
      description: "Take a screenshot.",
      params: [
        { name: "fullPage", type: "boolean", required: false, description: "capture the whole page", default: false },
        { ...target, required: false, description: "an element to capture instead of the page" },
        ...common,
      ],
    },
  ],
};

export function can(over: Partial<TestCan> = {}): TestCan {
  return {
    edit: true,
    run: true,
    delete: true,
    markReady: true,
    deprecate: false,
    revise: false,
    duplicate: true,
    share: true,
    transfer: true,
    restore: true,
    runProtected: true,
    quarantine: false,
    ...over,
  };
}

export function baseDoc(): EditorDocument {
  return {
    dsl: 2,
    name: "Sign in",
    suite: "Accounts",
    tags: ["smoke"],
    variables: { user: "alice" },
    steps: [
      { id: "s1", type: "navigate", url: "${baseUrl}/login" },
      { id: "s2", type: "fill", target: { locators: [{ kind: "label", value: "Email" }] }, value: "${user}" },
    ],
  };
}

export function testJSON(over: Record<string, unknown> = {}, document: EditorDocument = baseDoc()) {
  return {
    id: "tc_1",
    projectId: "prj_1",
    name: String(document.name),
    suite: "Accounts",
    tags: ["smoke"],
    visibility: "Shared",
    owner: { id: "usr_me", name: "Mia Tester" },
    status: "Draft",
    version: 3,
    steps: document.steps.length,
    lastRun: null,
    lastSaved: { at: "2026-11-20T10:00:00Z", by: { id: "usr_me", name: "Mia Tester" } },
    createdAt: "2026-11-01T10:00:00Z",
    can: can(),
    ...over,
    document,
  };
}

/** testRoutes answers the editor's loads: the test with an ETag, and the registry. */
export function testRoutes(test = testJSON(), etag = '"v3-r1"'): Record<string, FakeRoute> {
  return {
    [`GET /api/tests/${test.id}`]: { body: test, headers: { ETag: etag } },
    "GET /api/registry": { body: registry },
  };
}

const condition = (name: string, required: boolean) => ({ name, type: "condition" as const, required, description: "what is tested" });
const stepsParam = (name: string) => ({ name, type: "steps" as const, required: false, description: "the steps" });
const max = {
  name: "max",
  type: "number" as const,
  required: false,
  description: "the most iterations",
  default: 1000,
  min: 1,
  max: 100000,
};

/** flowRegistry is registry with the block steps (GET /api/registry since issue 29). */
export const flowRegistry: Registry = {
  ...registry,
  stepTypes: [
    ...registry.stepTypes,
    {
      type: "if",
      description: "Run steps only when a condition holds.",
      params: [condition("condition", true), stepsParam("steps"), stepsParam("else"), ...common],
    },
    {
      type: "repeat",
      description: "Run steps a number of times, or while a condition holds.",
      params: [
        { name: "times", type: "number", required: false, description: "how many times", min: 0, max: 100000 },
        condition("while", false),
        stepsParam("steps"),
        max,
        ...common,
      ],
    },
    {
      type: "forEach",
      description: "Run steps once for each item of a list.",
      params: [
        { name: "items", type: "items", required: true, description: "a variable holding a JSON array, or a list of texts" },
        { name: "as", type: "string", required: false, default: "item", description: "the variable that holds the current item" },
        stepsParam("steps"),
        max,
        ...common,
      ],
    },
  ],
};
