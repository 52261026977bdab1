import { describe, expect, it } from "vitest";
import { duplicateKeys, EMPTY_SELECTION, moveBy, moveTo, only, prune, removeKeys, select, selectAll } from "./stepSelection";

const order = ["a", "b", "c", "d", "e"];

describe("select", () => {
  it("a click selects one step", () => {
    expect(select(only("a"), "c", order, "only")).toEqual({ keys: ["c"], current: "c", anchor: "c" });
  });
  it("Ctrl-click adds and removes", () => {
    let s = select(only("a"), "c", order, "toggle");
    expect(s.keys).toEqual(["a", "c"]);
    s = select(s, "a", order, "toggle");
    expect(s).toEqual({ keys: ["c"], current: "c", anchor: "a" });
    s = select(s, "c", order, "toggle");
    expect(s.keys).toEqual([]);
    expect(s.current).toBeNull();
  });
  it("Shift-click selects the range from the anchor, either way", () => {
    expect(select(only("b"), "d", order, "range").keys).toEqual(["b", "c", "d"]);
    expect(select(only("d"), "a", order, "range").keys).toEqual(["a", "b", "c", "d"]);
    expect(select(EMPTY_SELECTION, "c", order, "range").keys).toEqual(["c"]);
  });
  it("select all and pruning", () => {
    expect(selectAll(only("b"), order)).toEqual({ keys: order, current: "b", anchor: "b" });
    expect(prune({ keys: ["a", "x"], current: "x", anchor: "a" }, order)).toEqual({ keys: ["a"], current: null, anchor: "a" });
    const s = only("a");
    expect(prune(s, order)).toBe(s);
  });
});

describe("moving", () => {
  it("moves one step up and down by one, and stops at the edges", () => {
    expect(moveBy(order, order, ["c"], -1)).toEqual(["a", "c", "b", "d", "e"]);
    expect(moveBy(order, order, ["c"], 1)).toEqual(["a", "b", "d", "c", "e"]);
    expect(moveBy(order, order, ["a"], -1)).toEqual(order);
    expect(moveBy(order, order, ["e"], 1)).toEqual(order);
  });
  it("moves a selection as a block, and scattered steps each by one", () => {
    expect(moveBy(order, order, ["b", "c"], 1)).toEqual(["a", "d", "b", "c", "e"]);
    expect(moveBy(order, order, ["b", "d"], -1)).toEqual(["b", "a", "d", "c", "e"]);
    expect(moveBy(order, order, ["a", "b"], -1)).toEqual(order);
  });
  it("drops steps before a position", () => {
    expect(moveTo(order, order, ["e"], 0)).toEqual(["e", "a", "b", "c", "d"]);
    expect(moveTo(order, order, ["a"], 5)).toEqual(["b", "c", "d", "e", "a"]);
    expect(moveTo(order, order, ["a"], 3)).toEqual(["b", "c", "a", "d", "e"]);
    expect(moveTo(order, order, ["b", "d"], 0)).toEqual(["b", "d", "a", "c", "e"]);
    expect(moveTo(order, order, ["b", "c"], 2)).toEqual(order);
    expect(moveTo(order, order, [], 0)).toBe(order);
  });
});

describe("remove and duplicate", () => {
  it("removes the selected steps", () => {
    expect(removeKeys(order, order, ["a", "c"])).toEqual(["b", "d", "e"]);
  });
  it("puts each copy after its step with a fresh id", () => {
    const steps = [
      { id: "s1", type: "click" },
      { id: "s2", type: "fill", value: "x" },
      { id: "s3", type: "wait", ms: 1 },
    ];
    const keys = steps.map((s) => `id:${s.id}`);
    const { steps: out, copies } = duplicateKeys(steps, keys, ["id:s1", "id:s3"]);
    expect(out.map((s) => s.id)).toEqual(["s1", "s4", "s2", "s3", "s5"]);
    expect(copies).toEqual(["s4", "s5"]);
    expect(out[1]).toEqual({ id: "s4", type: "click" });
  });
});
