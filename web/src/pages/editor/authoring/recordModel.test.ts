import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../../api/editorApi";
import { applyStepEvent, firstNavigateUrl, insertRecorded, pickedTarget, type LiveStep } from "./recordModel";

const nav = (url: string): JsonObject => ({ id: "r1", type: "navigate", url });
const click = (v: string): JsonObject => ({ id: "r2", type: "click", target: { locators: [{ kind: "css", value: v }] } });

describe("applyStepEvent", () => {
  it("appends new seqs, replaces a seq seen before in place, and withdraws removed ones", () => {
    let live: LiveStep[] = [];
    live = applyStepEvent(live, { seq: 1, step: nav("https://a.test/") as never });
    live = applyStepEvent(live, { seq: 2, step: { id: "x", type: "fill", value: "a" } as never });
    live = applyStepEvent(live, { seq: 3, step: click("#go") as never });
    live = applyStepEvent(live, { seq: 2, step: { id: "x", type: "fill", value: "alice" } as never });
    expect(live.map((l) => [l.seq, l.step.value ?? l.step.type])).toEqual([
      [1, "navigate"],
      [2, "alice"],
      [3, "click"],
    ]);
    live = applyStepEvent(live, { seq: 3, removed: true });
    expect(live.map((l) => l.seq)).toEqual([1, 2]);
    // A removal of an unknown seq, or a step event without a step, changes nothing.
    expect(applyStepEvent(live, { seq: 9, removed: true })).toBe(live);
    expect(applyStepEvent(live, { seq: 9 })).toBe(live);
  });
});

describe("insertRecorded", () => {
  const test: JsonObject[] = [
    { id: "s1", type: "navigate", url: "${baseUrl}/login" },
    { id: "s2", type: "click", target: { locators: [{ kind: "css", value: "#a" }] } },
  ];

  it("inserts after the cursor with fresh ids and drops a navigate to where the test already is", () => {
    const res = insertRecorded(test, [nav("${baseUrl}/login/"), click("#b"), click("#c")], 0);
    expect(res.steps.map((s) => s.id)).toEqual(["s1", "s3", "s4", "s2"]);
    expect(res.ids).toEqual(["s3", "s4"]);
    expect(res.steps[1].target).toEqual({ locators: [{ kind: "css", value: "#b" }] });
  });

  it("keeps the navigate when the test has none before the cursor or goes elsewhere, and appends without a cursor", () => {
    expect(insertRecorded([], [nav("https://a.test/"), click("#b")], null).steps.map((s) => s.type)).toEqual(["navigate", "click"]);
    const elsewhere = insertRecorded(test, [nav("${baseUrl}/cart"), click("#b")], null);
    expect(elsewhere.steps.map((s) => s.id)).toEqual(["s1", "s2", "s3", "s4"]);
    expect(elsewhere.steps[2]).toMatchObject({ type: "navigate", url: "${baseUrl}/cart" });
  });

  it("reads the test's first navigate url", () => {
    expect(firstNavigateUrl(test)).toBe("${baseUrl}/login");
    expect(firstNavigateUrl([])).toBe("");
  });
});

describe("pickedTarget", () => {
  const picked = {
    locators: [
      { kind: "testId", value: "email", score: 1, matches: 1 },
      { kind: "role", value: "textbox", name: "Email", exact: true, score: 100, matches: 1 },
      { kind: "text", value: "Email", score: 180, matches: 2 },
      { kind: "css", value: "#email", score: 500, matches: 1 },
    ],
    frame: [{ kind: "css", value: "iframe#login" }],
    fingerprint: { tag: "input", id: "email" },
  };

  it("puts the chosen candidate first and the other unique ones after it, with frame and fingerprint", () => {
    expect(pickedTarget(picked, 1)).toEqual({
      locators: [
        { kind: "role", value: "textbox", name: "Email", exact: true },
        { kind: "testId", value: "email" },
        { kind: "css", value: "#email" },
      ],
      frame: [{ kind: "css", value: "iframe#login" }],
      fingerprint: { tag: "input", id: "email" },
    });
    expect(pickedTarget({ locators: picked.locators, frame: null }, 0)).toEqual({
      locators: [
        { kind: "testId", value: "email" },
        { kind: "role", value: "textbox", name: "Email", exact: true },
        { kind: "css", value: "#email" },
      ],
    });
  });
});
