import { describe, expect, it } from "vitest";
import type { TestDocument } from "../../api";
import { diffVersions, valueText } from "./versionDiff";

const doc = (steps: TestDocument["steps"], extra: Partial<TestDocument> = {}): TestDocument => ({ dsl: 2, name: "Flow", steps, ...extra });
const nav = (id: string, url = `https://x/${id}`) => ({ id, type: "navigate", url });

describe("diffVersions", () => {
  it("finds nothing between equal versions", () => {
    const d = diffVersions(doc([nav("s1"), nav("s2")]), doc([nav("s1"), nav("s2")]));
    expect(d).toEqual({ settings: [], steps: [], unchanged: 2 });
  });

  it("matches steps by id: added, removed, changed with its fields", () => {
    const older = doc([nav("s1"), nav("s2"), { id: "s3", type: "click", target: { locators: [{ kind: "css", value: "#a" }] } }]);
    const newer = doc([
      nav("s1", "https://x/new"),
      { id: "s3", type: "click", target: { locators: [{ kind: "css", value: "#a" }] }, timeoutMs: 500 },
      nav("s4"),
    ]);
    const d = diffVersions(older, newer);
    expect(d.unchanged).toBe(0);
    expect(d.steps.map((s) => [s.kind, s.id, s.from, s.to])).toEqual([
      ["changed", "s1", 0, 0],
      ["changed", "s3", 2, 1],
      ["added", "s4", -1, 2],
      ["removed", "s2", 1, -1],
    ]);
    expect(d.steps[0].fields).toEqual([{ field: "url", before: "https://x/s1", after: "https://x/new" }]);
    expect(d.steps[1].fields).toEqual([{ field: "timeoutMs", before: undefined, after: 500 }]);
  });

  it("tells a move from a shift caused by an insertion", () => {
    const d = diffVersions(doc([nav("s1"), nav("s2"), nav("s3")]), doc([nav("s3"), nav("s1"), nav("s2")]));
    expect(d.steps.map((s) => [s.kind, s.id])).toEqual([["moved", "s3"]]);
    expect(d.unchanged).toBe(2);
    const shifted = diffVersions(doc([nav("s1"), nav("s2")]), doc([nav("s0"), nav("s1"), nav("s2")]));
    expect(shifted.steps.map((s) => [s.kind, s.id])).toEqual([["added", "s0"]]);
  });

  it("lists changed settings", () => {
    const d = diffVersions(doc([], { suite: "A", tags: ["x"] }), doc([], { name: "Flow 2", suite: "A", tags: ["x", "y"] }));
    expect(d.settings.map((f) => f.field)).toEqual(["name", "tags"]);
  });

  it("shows values in one line", () => {
    expect(valueText(undefined)).toBe("(none)");
    expect(valueText("a")).toBe('"a"');
    expect(valueText(5)).toBe("5");
  });
});
