import { describe, expect, it } from "vitest";
import { ApiError } from "../../../api";
import type { Draft } from "../../../api/language";
import { failureText, groupIssues, issueWhere, markCounts, notConfigured, stepMark } from "./draftModel";

const click = (id: string) => ({ id, type: "click", target: { locators: [{ kind: "text", value: "Go" }] } });

function draft(over: Partial<Draft> = {}): Draft {
  return {
    model: "m",
    steps: [click("s1"), click("s2"), click("s3"), click("s4"), { id: "s5", type: "wait", ms: 5 }],
    issues: [],
    grounding: { verified: true, url: "http://site.test/", elements: 3 },
    checks: [
      { stepId: "s1", found: true, matches: 1 },
      { stepId: "s2", found: false, matches: 2, error: "2 elements match: the locator is ambiguous" },
      { stepId: "s3", found: false, matches: 0, error: "no element on this page matches" },
    ],
    ...over,
  };
}

describe("stepMark", () => {
  it.each([
    ["s1", "verified", "Verified: found 1 element"],
    ["s2", "ambiguous", "Ambiguous: 2 elements match"],
    ["s3", "missing", "Not found"],
    ["s4", "unverified", "Not checked"],
    ["s5", "none", "No element"],
  ])("marks %s %s", (id, kind, label) => {
    const d = draft();
    const m = stepMark(
      d.steps.find((s) => s.id === id)!,
      d,
    );
    expect(m.kind).toBe(kind);
    expect(m.label).toBe(label);
  });

  it("gives the grounding reason when the draft was not checked", () => {
    const d = draft({ grounding: { verified: false, elements: 0, reason: "this hub has no agents" }, checks: [] });
    expect(stepMark(d.steps[0], d)).toEqual({ kind: "unverified", label: "Unverified", detail: "this hub has no agents" });
    expect(markCounts(d)).toEqual({ verified: 0, ambiguous: 0, missing: 0, unverified: 4, none: 1 });
  });
});

describe("issues", () => {
  it("names the proposed step or the answer", () => {
    expect(issueWhere({ path: "steps[0].target.locators[0].kind", code: "enum", message: "x" })).toBe(
      "Proposed step 1 (target.locators[0].kind)",
    );
    expect(issueWhere({ path: "steps", code: "too_many", message: "x" })).toBe("The answer");
    expect(issueWhere({ path: "", code: "x", message: "x" })).toBe("The answer");
  });

  it("groups a step's issues and keeps the answer's own", () => {
    expect(
      groupIssues([
        { path: "steps", code: "too_many", message: "the model proposed 120 steps; the first 100 are kept" },
        { path: "steps[2].url", code: "required", message: "url is required", text: '{"type":"navigate"}' },
        { path: "steps[2].timeoutMs", code: "range", message: "too long" },
      ]),
    ).toEqual([
      { where: "The answer", messages: ["the model proposed 120 steps; the first 100 are kept"], text: undefined },
      { where: "Proposed step 3", messages: ["url: url is required", "timeoutMs: too long"], text: '{"type":"navigate"}' },
    ]);
  });
});

describe("failures", () => {
  it("tells the missing model from other failures and words each", () => {
    expect(notConfigured(new ApiError(503, "no model", "language_model_not_configured"))).toBe(true);
    expect(notConfigured(new ApiError(502, "down", "language_model_failed"))).toBe(false);
    expect(failureText(new ApiError(502, "the language model did not answer in time", "language_model_failed"))).toBe(
      "Drafting failed: the language model did not answer in time.",
    );
    expect(failureText(new ApiError(429, "this project asked for too many drafts: try again in 5 s", "rate_limited", [], 5))).toBe(
      "This project asked for too many drafts: try again in 5 s.",
    );
    expect(
      failureText(
        new ApiError(422, "the request is not valid", "invalid", [{ path: "text", code: "required", message: "text is required" }]),
      ),
    ).toBe("text: text is required");
  });
});
