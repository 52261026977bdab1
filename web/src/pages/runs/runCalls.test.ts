import { describe, expect, it } from "vitest";
import { callStepText, groupByCall, stepNumbers } from "./runCalls";

describe("groupByCall", () => {
  it("puts consecutive steps of one call together and keeps the order", () => {
    const steps = [{ i: 0 }, { i: 1, call: "s2" }, { i: 2, call: "s2" }, { i: 3 }, { i: 4, call: "s4" }, { i: 5, call: "s5" }, { i: 6 }];
    const groups = groupByCall(steps, (s) => s.call);
    expect(groups.map((g) => [g.call, g.items.map((s) => s.i)])).toEqual([
      [null, [0]],
      ["s2", [1, 2]],
      [null, [3]],
      ["s4", [4]],
      ["s5", [5]],
      [null, [6]],
    ]);
  });
});

describe("callStepText", () => {
  it("names the component by its name, numbered as the editor numbers the calling step", () => {
    const steps = [
      { id: "s1", type: "navigate", url: "/" },
      { id: "s2", type: "callComponent", component: "cmp_x", version: 3 },
    ];
    expect(callStepText("s2", steps, { cmp_x: "Sign in" })).toBe("Step 2 calls component Sign in v3");
    // Its name unknown (deleted, or not yet loaded): its id.
    expect(callStepText("s2", steps)).toBe("Step 2 calls component cmp_x v3");
    expect(callStepText("s9", steps)).toBe("Steps of component call s9");
  });
});

describe("stepNumbers", () => {
  it("numbers steps as the editor does, a call's inner steps after a dot", () => {
    expect(stepNumbers([undefined, "s2", "s2", "s2", "s3", ""])).toEqual(["1", "2.1", "2.2", "2.3", "3.1", "4"]);
    expect(stepNumbers(["c1", "c2", "c2"])).toEqual(["1.1", "2.1", "2.2"]);
    expect(stepNumbers([])).toEqual([]);
  });
});
