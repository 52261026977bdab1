import { describe, expect, it } from "vitest";
import { changeStepType, freshStepId, newStep, parseDocumentJson, placeIssues, stepKeyMap, stepKeys, summarize } from "./documentModel";
import { registry } from "./editorFixtures";

const type = (t: string) => {
  const found = registry.stepTypes.find((s) => s.type === t);
  if (!found) throw new Error(t);
  return found;
};

describe("documentModel", () => {
  it("gives a new step an unused id", () => {
    expect(freshStepId([])).toBe("s1");
    expect(freshStepId([{ id: "s1" }, { id: "s3" }])).toBe("s4");
    expect(freshStepId([{ id: "s3" }, { id: "s2" }])).toBe("s4");
    expect(freshStepId([{ id: "login" }])).toBe("s2");
  });

  it("fills a new step with the registry's defaults, leaving the common parameters unset", () => {
    expect(newStep(type("assertText"), [], registry.locatorKinds)).toEqual({
      id: "s1",
      type: "assertText",
      target: { locators: [{ kind: "css", value: "" }] },
      expected: "",
      match: "contains",
    });
    expect(newStep(type("screenshot"), [], registry.locatorKinds)).toEqual({ id: "s1", type: "screenshot" });
  });

  it("keeps what the new type shares when a step changes type", () => {
    const step = { id: "s7", type: "fill", target: { locators: [{ kind: "label", value: "Email" }] }, value: "x", timeoutMs: 5000 };
    expect(changeStepType(step, type("click"), registry.locatorKinds)).toEqual({
      id: "s7",
      type: "click",
      target: step.target,
      timeoutMs: 5000,
    });
  });

  it("places issues by path", () => {
    const keys = stepKeyMap([{ id: "s1" }, { id: "s2" }]);
    const placed = placeIssues(
      [
        { path: "name", message: "a", code: "required" },
        { path: "tags[1]", message: "b", code: "duplicate" },
        { path: "steps[1].target.locators[0].value", message: "c", code: "required" },
        { path: "steps[0]", message: "d", code: "conflict" },
        { path: 'steps[0]["odd key"]', message: "e", code: "unknown" },
        { path: "steps[5].url", message: "f", code: "required" },
        { path: "dsl", message: "g", code: "required" },
      ],
      keys,
    );
    expect(placed.fields.name.map((i) => i.message)).toEqual(["a"]);
    expect(placed.fields.tags[0].sub).toBe("[1]");
    expect(placed.steps["id:s2"].target[0].sub).toBe(".locators[0].value");
    expect(placed.steps["id:s1"][""].map((i) => i.message)).toEqual(["d", "e"]);
    expect(placed.top.map((i) => i.message)).toEqual(["f", "g"]);
  });

  it("places issues on steps inside blocks", () => {
    const keys = stepKeyMap([
      { id: "s1", type: "if", steps: [{ id: "s2", type: "click" }], else: [{ id: "s3", type: "repeat", steps: [{ id: "s4" }] }] },
    ]);
    const placed = placeIssues(
      [
        { path: "steps[0].steps[0].target", message: "a", code: "required" },
        { path: "steps[0].else[0].steps[0].url", message: "b", code: "required" },
        { path: "steps[0].condition.target.locators[0].value", message: "c", code: "required" },
        { path: "steps[0].else[0]", message: "d", code: "depth" },
        { path: "steps[0].steps[3].url", message: "e", code: "required" },
      ],
      keys,
    );
    expect(placed.steps["id:s2"].target.map((i) => i.message)).toEqual(["a"]);
    expect(placed.steps["id:s4"].url.map((i) => i.message)).toEqual(["b"]);
    expect(placed.steps["id:s1"].condition[0].sub).toBe(".target.locators[0].value");
    expect(placed.steps["id:s3"][""].map((i) => i.message)).toEqual(["d"]);
    expect(placed.top.map((i) => i.message)).toEqual(["e"]);
  });

  it("counts steps inside blocks for a fresh id", () => {
    expect(freshStepId([{ id: "s1", type: "repeat", steps: [{ id: "s2" }, { id: "s3" }] }])).toBe("s4");
  });

  it("keys steps by position when ids repeat", () => {
    expect(stepKeys([{ id: "a" }, { id: "a" }])).toEqual(["#0", "#1"]);
  });

  it("parses the JSON view and refuses what is not a document", () => {
    expect(parseDocumentJson('{"name":"x"}')).toEqual({ document: { name: "x", steps: [] } });
    expect(parseDocumentJson("[1]")).toEqual({ error: "The document must be a JSON object: { … }." });
    expect(parseDocumentJson('{"steps":[1]}')).toEqual({ error: "steps[0] must be an object: { … }." });
    expect(parseDocumentJson("{")).toHaveProperty("error", expect.stringMatching(/^Not valid JSON/));
  });

  it("summarises a step in one line", () => {
    expect(summarize({ type: "click", target: { locators: [{ kind: "role", value: "button", name: "Sign in" }] } })).toBe(
      'role=button "Sign in"',
    );
    expect(summarize({ type: "wait", ms: 500 })).toBe("500 ms");
  });
});
