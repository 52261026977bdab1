// Test records for the tests of this folder.
import type { Test, TestCan, TestVersion } from "../../api";

export const CAN_ALL: TestCan = {
  edit: true,
  run: true,
  delete: true,
  markReady: true,
  deprecate: true,
  revise: true,
  duplicate: true,
  share: true,
  transfer: true,
  restore: true,
  runProtected: true,
  quarantine: true,
};

export function makeTest(over: Partial<Test> = {}): Test {
  return {
    id: "tc_1",
    projectId: "prj_1",
    name: "Sign in",
    suite: "Accounts",
    tags: [],
    visibility: "Shared",
    owner: { id: "usr_me", name: "Mia Tester" },
    status: "Draft",
    version: 3,
    steps: 4,
    lastRun: null,
    lastSaved: { at: "2026-11-02T10:00:00Z", by: { id: "usr_me", name: "Mia Tester" } },
    createdAt: "2026-11-01T10:00:00Z",
    can: CAN_ALL,
    quarantine: null,
    ...over,
  };
}

export function makeVersion(version: number, over: Partial<TestVersion> = {}): TestVersion {
  return {
    version,
    status: "Draft",
    steps: version,
    author: { id: "usr_me", name: "Mia Tester" },
    createdAt: "2026-11-01T10:00:00Z",
    savedAt: "2026-11-01T10:00:00Z",
    note: "",
    current: false,
    ...over,
  };
}
