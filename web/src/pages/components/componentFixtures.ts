// Answers of the hub's component routes for the components' tests.
import type { Component, ComponentImpact, ComponentSummary } from "../../api";

const assert = (id: string, expected: string) => ({ id, type: "assertTitle", expected });

export const summaries: ComponentSummary[] = [
  {
    id: "cmp_header",
    name: "Header",
    description: "Checks the shop's header",
    latestVersion: 2,
    inputs: [],
    usages: 2,
    updatedAt: "2026-11-20T10:00:00Z",
  },
  { id: "cmp_login", name: "Sign in", description: "", latestVersion: 1, inputs: [], usages: 0, updatedAt: "2026-11-19T10:00:00Z" },
];

export function header(): Component {
  return {
    id: "cmp_header",
    projectId: "prj_1",
    name: "Header",
    description: "Checks the shop's header",
    latestVersion: 2,
    inputs: [{ name: "title", default: "Shop", description: "the page title" }],
    createdBy: { id: "usr_me", name: "Mia Tester" },
    createdAt: "2026-11-18T10:00:00Z",
    updatedAt: "2026-11-20T10:00:00Z",
    versions: [
      {
        version: 1,
        author: { id: "usr_me", name: "Mia Tester" },
        createdAt: "2026-11-18T10:00:00Z",
        note: "",
        inputs: [],
        steps: [assert("h1", "One"), assert("h2", "Two"), assert("h3", "Three")],
      },
      {
        version: 2,
        author: { id: "usr_dev", name: "Dan Developer" },
        createdAt: "2026-11-20T10:00:00Z",
        note: "French titles",
        inputs: [{ name: "title", default: "Shop", description: "the page title" }],
        steps: [assert("h1", "One"), assert("h2", "Deux"), assert("h4", "Four")],
      },
    ],
    usages: [
      { testId: "tc_draft", testName: "Draft caller", testVersion: 1, componentVersion: 1, current: true, status: "Draft" },
      { testId: "tc_ready", testName: "Ready caller", testVersion: 1, componentVersion: 1, current: true, status: "Ready" },
    ],
  };
}

export function impact(): ComponentImpact {
  return {
    latestVersion: 2,
    callers: [
      {
        testId: "tc_draft",
        testName: "Draft caller",
        status: "Draft",
        testVersion: 1,
        pinnedVersion: 1,
        addsVersion: true,
        mayUpgrade: true,
        diff: [
          { op: "same", before: assert("h1", "One"), after: assert("h1", "One") },
          { op: "change", before: assert("h2", "Two"), after: assert("h2", "Deux") },
          { op: "remove", before: assert("h3", "Three") },
          { op: "add", after: assert("h4", "Four") },
        ],
      },
      {
        testId: "tc_ready",
        testName: "Ready caller",
        status: "Ready",
        testVersion: 1,
        pinnedVersion: 1,
        addsVersion: true,
        mayUpgrade: false,
        reason: "the test is Ready: only a Test Manager or Admin may upgrade it",
        diff: [{ op: "same", before: assert("h1", "One"), after: assert("h1", "One") }],
      },
      {
        testId: "tc_done",
        testName: "Up to date",
        status: "Draft",
        testVersion: 3,
        pinnedVersion: 2,
        addsVersion: false,
        mayUpgrade: true,
        diff: [{ op: "same", before: assert("h1", "One"), after: assert("h1", "One") }],
      },
    ],
  };
}

/** A registry with the one step type these tests use. */
export const registry = {
  dslVersion: 2,
  locatorKinds: ["css"],
  stepTypes: [
    {
      type: "assertTitle",
      description: "Assert the page title.",
      params: [{ name: "expected", type: "string" as const, required: true, description: "the title" }],
    },
  ],
};
