import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../api/editorApi";
import { freshStepId, newStep } from "./documentModel";
import { registry } from "./editorFixtures";
import { duplicateKeys, insertSteps, moveKeysBy, moveKeysTo, removeKeys, walkTree } from "./stepTree";

const wait = (id: string): JsonObject => ({ id, type: "wait", ms: 1 });

/** a; if b (then c, d; else e); repeat f (g); h */
function tree(): JsonObject[] {
  return [
    wait("a"),
    { id: "b", type: "if", condition: { kind: "script", code: "true" }, steps: [wait("c"), wait("d")], else: [wait("e")] },
    { id: "f", type: "repeat", times: 2, steps: [wait("g")] },
    wait("h"),
  ];
}

/** shape reads a tree back as ids: blocks as id(then|else). */
function shape(steps: JsonObject[]): string {
  return steps
    .map((s) => {
      const kids = ["steps", "else"].filter((b) => Array.isArray(s[b])).map((b) => shape(s[b] as JsonObject[]));
      return kids.length > 0 ? `${String(s.id)}(${kids.join("|")})` : String(s.id);
    })
    .join(" ");
}

const ids = (steps: JsonObject[]) => walkTree(steps).map((t) => String(t.step.id));

describe("the step tree", () => {
  it("numbers steps as an outline, then-steps before else-steps", () => {
    const t = walkTree(tree());
    expect(t.map((x) => `${x.number}=${String(x.step.id)}`)).toEqual(["1=a", "2=b", "2.1=c", "2.2=d", "2.3=e", "3=f", "3.1=g", "4=h"]);
    expect(t.find((x) => x.step.id === "e")?.path).toBe("steps[1].else[0]");
    expect(t.find((x) => x.step.id === "g")?.parent).toBe("id:f");
  });

  it("keys steps by place when ids repeat anywhere in the tree", () => {
    const steps = [wait("a"), { id: "b", type: "repeat", times: 1, steps: [wait("a")] }];
    expect(walkTree(steps).map((t) => t.key)).toEqual(["#0", "#1", "#1s.0"]);
  });

  it("inserts into a block's list, and gives ids unique through the tree", () => {
    const steps = tree();
    expect(freshStepId(steps)).toBe("s9");
    const step = newStep(registry.stepTypes[4], steps, registry.locatorKinds);
    const next = insertSteps(steps, [{ index: 1, branch: "else" }], 1, [step]);
    expect(shape(next)).toBe("a b(c d|e s9) f(g) h");
    expect(new Set(ids(next)).size).toBe(ids(next).length);
    // The document it came from is left as it was.
    expect(shape(steps)).toBe("a b(c d|e) f(g) h");
  });

  it("deletes steps anywhere; an emptied list is written as absent", () => {
    const next = removeKeys(tree(), ["id:g", "id:c", "id:h"]);
    expect(shape(next)).toBe("a b(d|e) f");
    expect(next[2]).not.toHaveProperty("steps");
  });

  it("duplicates a block with its steps, every copy with a fresh id", () => {
    const { steps, copies } = duplicateKeys(tree(), ["id:f", "id:g", "id:d"]);
    expect(shape(steps)).toBe("a b(c d s9|e) f(g) s10(s11) h");
    expect(copies).toEqual(["s9", "s10"]);
    expect(new Set(ids(steps)).size).toBe(ids(steps).length);
  });

  it("moves steps within a list, and out of a block at its edges", () => {
    expect(shape(moveKeysBy(tree(), ["id:d"], -1)!)).toBe("a b(d c|e) f(g) h");
    expect(shape(moveKeysBy(tree(), ["id:c"], -1)!)).toBe("a c b(d|e) f(g) h");
    // The last then-step of an if goes to its else-steps, and back.
    expect(shape(moveKeysBy(tree(), ["id:d"], 1)!)).toBe("a b(c|d e) f(g) h");
    expect(shape(moveKeysBy(tree(), ["id:e"], -1)!)).toBe("a b(c d e) f(g) h");
    expect(shape(moveKeysBy(tree(), ["id:e"], 1)!)).toBe("a b(c d) e f(g) h");
    expect(shape(moveKeysBy(tree(), ["id:g"], 1)!)).toBe("a b(c d|e) f g h");
    // A step beside a block passes it whole.
    expect(shape(moveKeysBy(tree(), ["id:a"], 1)!)).toBe("b(c d|e) a f(g) h");
    // Steps of different lists do not move together.
    expect(moveKeysBy(tree(), ["id:a", "id:c"], 1)).toBeNull();
  });

  it("drops steps into a block's list, but never a block into itself", () => {
    expect(shape(moveKeysTo(tree(), ["id:a", "id:h"], [{ index: 2, branch: "steps" }], 1)!)).toBe("b(c d|e) f(g a h)");
    expect(shape(moveKeysTo(tree(), ["id:c"], [], 4)!)).toBe("a b(d|e) f(g) h c");
    expect(moveKeysTo(tree(), ["id:b"], [{ index: 1, branch: "else" }], 0)).toBeNull();
  });
});
