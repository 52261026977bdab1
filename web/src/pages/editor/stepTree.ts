// Steps as a tree: if, repeat and forEach hold steps of their own (an if
// also else-steps). The editor names every list by its address (the
// indexes and branches leading to it) and every step by a key, walks the
// tree in the order runs number it (then-steps before else-steps, see
// protocol.DocumentStepNumbers), and changes it without mutating it: an
// emptied list is written as absent, as the hub writes it (docs/flow.md).
import type { JsonObject } from "../../api/editorApi";
import { isObject, str } from "./documentModel";

export type Branch = "steps" | "else";

/** A list of steps: [] is the test's own list; [{index: 3, branch: "else"}] the else-steps of its step 3. */
export type ListAddr = { index: number; branch: Branch }[];

export const BLOCK_TYPES = new Set(["if", "repeat", "forEach"]);

export const isBlock = (step: JsonObject) => BLOCK_TYPES.has(str(step.type));

/** branchesOf lists the step lists a step holds: an if's steps and else, a loop's steps. */
export function branchesOf(step: JsonObject): Branch[] {
  const type = str(step.type);
  if (type === "if") return ["steps", "else"];
  return BLOCK_TYPES.has(type) ? ["steps"] : [];
}

/** children reads a step's list of a branch: its objects, or [] when absent. */
export function children(step: JsonObject, branch: Branch): JsonObject[] {
  const v = step[branch];
  return Array.isArray(v) ? v.filter(isObject) : [];
}

/** One step of the tree, as the walk meets it. */
export interface TreeStep {
  step: JsonObject;
  key: string;
  /** Its issue path: steps[3].else[0]. */
  path: string;
  /** The list it is in and its place there. */
  list: ListAddr;
  index: number;
  depth: number;
  /** Its outline number: 3, 3.1, 3.2... */
  number: string;
  /** The key of the block it is in; null for the test's own steps. */
  parent: string | null;
}

export const listId = (addr: ListAddr) => addr.map((a) => `${a.index}${a.branch === "else" ? "e" : "s"}`).join(".");

/**
 * walkTree lists every step in pre-order. A step is keyed by its id while
 * ids are unique through the tree, else by its address, so a key stays on
 * its step while steps move.
 */
export function walkTree(steps: JsonObject[]): TreeStep[] {
  const out: TreeStep[] = [];
  const visit = (list: JsonObject[], addr: ListAddr, path: string, prefix: string, depth: number, parent: string | null, start = 0) => {
    list.forEach((step, i) => {
      const here: TreeStep = {
        step,
        key: `#${[listId(addr), String(i)].filter(Boolean).join(".")}`,
        path: `${path}[${i}]`,
        list: addr,
        index: i,
        depth,
        number: `${prefix}${start + i + 1}`,
        parent,
      };
      out.push(here);
      // Else-steps number on from the then-steps: 3.1, 3.2 then, 3.3 else.
      let offset = 0;
      for (const b of branchesOf(step)) {
        const kids = children(step, b);
        visit(kids, [...addr, { index: i, branch: b }], `${here.path}.${b}`, `${here.number}.`, depth + 1, here.key, offset);
        offset += kids.length;
      }
    });
  };
  visit(steps, [], "steps", "", 0, null);
  const ids = out.map((t) => t.step.id);
  const unique = ids.every((id) => typeof id === "string" && id !== "") && new Set(ids).size === ids.length;
  if (unique) {
    const byOld = new Map(out.map((t) => [t.key, `id:${str(t.step.id)}`]));
    for (const t of out) {
      t.key = byOld.get(t.key) ?? t.key;
      t.parent = t.parent && (byOld.get(t.parent) ?? t.parent);
    }
  }
  return out;
}

/** allIds lists the ids used anywhere in the tree. */
export function allIds(steps: JsonObject[]): Set<unknown> {
  const used = new Set<unknown>();
  const visit = (list: JsonObject[]) =>
    list.forEach((s) => {
      used.add(s.id);
      for (const b of branchesOf(s)) visit(children(s, b));
    });
  visit(steps);
  return used;
}

/** countSteps counts the steps of the tree, blocks and their steps alike. */
export function countSteps(steps: JsonObject[]): number {
  return walkTree(steps).length;
}

/** listAt reads the list at addr ([] if a step on the way is missing). */
export function listAt(steps: JsonObject[], addr: ListAddr): JsonObject[] {
  let list = steps;
  for (const { index, branch } of addr) {
    const s = list[index];
    if (!s) return [];
    list = children(s, branch);
  }
  return list;
}

/** withList returns the tree with the list at addr replaced; an empty block list is written as absent. */
export function withList(steps: JsonObject[], addr: ListAddr, next: JsonObject[]): JsonObject[] {
  if (addr.length === 0) return next;
  const [{ index, branch }, ...rest] = addr;
  return steps.map((s, i) => {
    if (i !== index) return s;
    const inner = withList(children(s, branch), rest, next);
    const out: JsonObject = { ...s };
    if (inner.length === 0) delete out[branch];
    else out[branch] = inner;
    return out;
  });
}

/** insertSteps puts steps into the list at addr before index at. */
export function insertSteps(steps: JsonObject[], addr: ListAddr, at: number, added: JsonObject[]): JsonObject[] {
  const list = listAt(steps, addr);
  const i = Math.max(0, Math.min(at, list.length));
  return withList(steps, addr, [...list.slice(0, i), ...added, ...list.slice(i)]);
}

/** replaceStep returns the tree with the step at addr/index replaced. */
export function replaceStep(steps: JsonObject[], addr: ListAddr, index: number, step: JsonObject): JsonObject[] {
  return withList(
    steps,
    addr,
    listAt(steps, addr).map((s, i) => (i === index ? step : s)),
  );
}

/** removeWhere drops every step the test picks, wherever it is (with the steps inside it). */
function removeWhere(steps: JsonObject[], drop: (s: JsonObject) => boolean): JsonObject[] {
  return steps
    .filter((s) => !drop(s))
    .map((s) => {
      let out = s;
      for (const b of branchesOf(s)) {
        const kids = children(s, b);
        const kept = removeWhere(kids, drop);
        if (kept.length === kids.length && kept.every((k, i) => k === kids[i])) continue;
        out = { ...out };
        if (kept.length === 0) delete out[b];
        else out[b] = kept;
      }
      return out;
    });
}

/** removeKeys deletes the steps with the given keys, wherever they are. */
export function removeKeys(steps: JsonObject[], keys: string[]): JsonObject[] {
  const doomed = new Set(
    walkTree(steps)
      .filter((t) => keys.includes(t.key))
      .map((t) => t.step),
  );
  return removeWhere(steps, (s) => doomed.has(s));
}

/** freshIds gives a copy of step, and of every step inside it, an id no step of the tree (or earlier copy) uses. */
function withFreshIds(step: JsonObject, used: Set<unknown>, count: { n: number }): JsonObject {
  let n = count.n + 1;
  while (used.has(`s${n}`)) n++;
  const id = `s${n}`;
  used.add(id);
  count.n = n;
  const out: JsonObject = { ...step, id };
  for (const b of branchesOf(step)) out[b] = children(step, b).map((k) => withFreshIds(k, used, count));
  return out;
}

/**
 * duplicateKeys puts a copy of each selected step right after it, the
 * copy of a block with copies of its steps, every copy with a fresh id.
 * A step inside a selected block is copied with it, not again.
 */
export function duplicateKeys(steps: JsonObject[], keys: string[]): { steps: JsonObject[]; copies: string[] } {
  const tree = walkTree(steps);
  const chosen = new Set(keys);
  const byKey = new Map(tree.map((t) => [t.key, t]));
  const inChosen = (t: TreeStep): boolean => !!t.parent && (chosen.has(t.parent) || inChosen(byKey.get(t.parent)!));
  const picked = new Set(tree.filter((t) => chosen.has(t.key) && !inChosen(t)).map((t) => t.step));
  const used = allIds(steps);
  const count = { n: tree.length };
  const copies: string[] = [];
  const visit = (list: JsonObject[]): JsonObject[] =>
    list.flatMap((s) => {
      let out = s;
      for (const b of branchesOf(s)) {
        const kids = children(s, b);
        if (kids.length > 0) out = { ...out, [b]: visit(kids) };
      }
      if (!picked.has(s)) return [out];
      const copy = withFreshIds(structuredClone(s), used, count);
      copies.push(str(copy.id));
      return [out, copy];
    });
  return { steps: visit(steps), copies };
}

const HOLE: JsonObject = { type: "\u0000hole" };

/**
 * moveKeysTo moves the steps with the given keys, in tree order, into the
 * list at addr before its index at (in the list as it is before the move).
 * Steps cannot move into themselves: that answers null.
 */
export function moveKeysTo(steps: JsonObject[], keys: string[], addr: ListAddr, at: number): JsonObject[] | null {
  const tree = walkTree(steps);
  const moving = tree.filter((t) => keys.includes(t.key));
  if (moving.length === 0) return null;
  // The target list must not lie inside a moving block.
  const within = (m: TreeStep) =>
    addr.length > m.list.length &&
    m.list.every((a, i) => a.index === addr[i].index && a.branch === addr[i].branch) &&
    addr[m.list.length].index === m.index;
  if (moving.some(within)) return null;
  // Mark the place, take the steps out, and put them where the mark is.
  const marked = insertSteps(steps, addr, at, [HOLE]);
  const taken = removeWhere(marked, (s) => moving.some((m) => m.step === s));
  const put = (list: JsonObject[]): JsonObject[] =>
    list.flatMap((s) => {
      if (s === HOLE) return moving.map((m) => m.step);
      let out = s;
      for (const b of branchesOf(s)) {
        const kids = children(s, b);
        if (kids.length > 0) out = { ...out, [b]: put(kids) };
      }
      return [out];
    });
  return put(taken);
}

/**
 * moveKeysBy moves steps of one list one place up (-1) or down (+1). At
 * the edge of a block they leave it: above the block, or below it; the
 * last then-step of an if moves into its else-steps and back. Steps of
 * different lists do not move together: that answers null.
 */
export function moveKeysBy(steps: JsonObject[], keys: string[], delta: -1 | 1): JsonObject[] | null {
  const tree = walkTree(steps);
  const moving = tree.filter((t) => keys.includes(t.key));
  if (moving.length === 0) return null;
  const list = moving[0].list;
  if (moving.some((m) => listId(m.list) !== listId(list))) return null;
  const items = listAt(steps, list);
  const idx = moving.map((m) => m.index);
  const first = Math.min(...idx);
  const last = Math.max(...idx);
  const contiguous = last - first + 1 === moving.length;
  const atEdge = delta < 0 ? first === 0 : last === items.length - 1;
  if (!(contiguous && atEdge)) {
    // Within the list: each past its unselected neighbour.
    const out = items.slice();
    const flags = items.map((_, i) => idx.includes(i));
    const order = [...out.keys()];
    if (delta > 0) order.reverse();
    for (const i of order) {
      const j = i + delta;
      if (!flags[i] || j < 0 || j >= out.length || flags[j]) continue;
      [out[i], out[j]] = [out[j], out[i]];
      [flags[i], flags[j]] = [flags[j], flags[i]];
    }
    return withList(steps, list, out);
  }
  if (list.length === 0) return null; // the test's own list has no edge to leave by
  const parentAddr = list.slice(0, -1);
  const { index: blockIndex, branch } = list[list.length - 1];
  const block = listAt(steps, parentAddr)[blockIndex];
  const ks = moving.map((m) => m.key);
  if (str(block?.type) === "if" && branch === "steps" && delta > 0)
    return moveKeysTo(steps, ks, [...parentAddr, { index: blockIndex, branch: "else" }], 0);
  if (str(block?.type) === "if" && branch === "else" && delta < 0) {
    return moveKeysTo(steps, ks, [...parentAddr, { index: blockIndex, branch: "steps" }], children(block, "steps").length);
  }
  return moveKeysTo(steps, ks, parentAddr, delta < 0 ? blockIndex : blockIndex + 1);
}
