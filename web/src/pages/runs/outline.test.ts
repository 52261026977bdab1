import { describe, expect, it } from "vitest";
import type { Step } from "../../api";
import { allSteps, countSteps, documentStepNumbers, execKey, iterationWords } from "./outline";

const step = (id: string, type = "click", more: Partial<Step> = {}): Step => ({ id, type, ...more }) as Step;

// The same tree as protocol/numbers_flow_test.go TestDocumentStepNumbers.
const tree: Step[] = [
  step("open", "navigate"),
  step("banner", "if", {
    steps: [step("accept")],
    else: [step("other", "if", { steps: [step("x")], else: [step("y")] })],
  }),
  step("three", "repeat", { steps: [step("row.click", "click", { call: "row" }), step("row.say", "log", { call: "row" })] }),
  step("each", "forEach", { steps: [step("name", "fill"), step("save")] }),
  step("c.a", "click", { call: "c" }),
  step("c.b", "click", { call: "c" }),
  step("end", "log"),
];

describe("documentStepNumbers", () => {
  it("numbers a document without blocks as protocol.StepNumbers", () => {
    // protocol/numbers_test.go's examples, as documents.
    const doc = (calls: (string | undefined)[]) => calls.map((call, i) => step(`s${i}`, "click", call ? { call } : {}));
    expect(documentStepNumbers(doc([]))).toEqual([]);
    expect(documentStepNumbers(doc(["", "", ""]))).toEqual(["1", "2", "3"]);
    expect(documentStepNumbers(doc(["", "s2", "s2", "s2", "s3", ""]))).toEqual(["1", "2.1", "2.2", "2.3", "3.1", "4"]);
    expect(documentStepNumbers(doc(["c1", "c2", "c2"]))).toEqual(["1.1", "2.1", "2.2"]);
  });

  it("numbers a tree as an outline: then-steps, then else-steps; calls inside blocks", () => {
    expect(documentStepNumbers(tree)).toEqual([
      "1",
      "2",
      "2.1",
      "2.2",
      "2.2.1",
      "2.2.2",
      "3",
      "3.1.1",
      "3.1.2",
      "4",
      "4.1",
      "4.2",
      "5.1",
      "5.2",
      "6",
    ]);
  });
});

describe("the tree's indexes", () => {
  it("walks the tree in pre-order as protocol.AllSteps", () => {
    expect(allSteps(tree).map((s) => s.id)).toEqual([
      "open",
      "banner",
      "accept",
      "other",
      "x",
      "y",
      "three",
      "row.click",
      "row.say",
      "each",
      "name",
      "save",
      "c.a",
      "c.b",
      "end",
    ]);
    expect(countSteps(tree)).toBe(15);
    expect(countSteps([tree[1]])).toBe(5);
  });

  it("names executions and says iterations 1-based", () => {
    expect(execKey(3, undefined)).toBe("3");
    expect(execKey(3, [])).toBe("3");
    expect(execKey(3, [2, 0])).toBe("3@2.0");
    expect(iterationWords([2])).toBe("3");
    expect(iterationWords([1, 0])).toBe("2.1");
  });
});
