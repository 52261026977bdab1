// The step list's selection and the operations on it, as pure functions:
// click, Shift-click and Ctrl/Cmd-click select as in a file manager; the
// selected steps move, duplicate and delete together. Steps are named by
// their keys (see stepKeys), so a selection follows its steps as they move.
import type { JsonObject } from "../../api/editorApi";
import { freshStepId } from "./documentModel";

export interface Selection {
  /** The selected keys. */
  keys: string[];
  /** The step the inspector shows (the last one clicked). */
  current: string | null;
  /** Where a Shift-click range starts. */
  anchor: string | null;
}

export const EMPTY_SELECTION: Selection = { keys: [], current: null, anchor: null };

export function only(key: string): Selection {
  return { keys: [key], current: key, anchor: key };
}

/**
 * select applies a click on key: alone it selects that step only; with
 * toggle (Ctrl/Cmd, or its checkbox) it adds or removes it; with range
 * (Shift) it selects from the anchor to it. order is every key in order.
 */
export function select(sel: Selection, key: string, order: string[], mode: "only" | "toggle" | "range"): Selection {
  if (mode === "range" && sel.anchor && order.includes(sel.anchor)) {
    const a = order.indexOf(sel.anchor);
    const b = order.indexOf(key);
    const [from, to] = a < b ? [a, b] : [b, a];
    return { keys: order.slice(from, to + 1), current: key, anchor: sel.anchor };
  }
  if (mode === "toggle") {
    if (sel.keys.includes(key)) {
      const keys = sel.keys.filter((k) => k !== key);
      const current = sel.current === key ? (keys[keys.length - 1] ?? null) : sel.current;
      return { keys, current, anchor: key };
    }
    return { keys: [...sel.keys, key], current: key, anchor: key };
  }
  return only(key);
}

/** selectAll selects every step, keeping the one shown. */
export function selectAll(sel: Selection, order: string[]): Selection {
  return { keys: order.slice(), current: sel.current ?? order[0] ?? null, anchor: sel.anchor ?? order[0] ?? null };
}

/** prune drops keys of steps that are gone. */
export function prune(sel: Selection, order: string[]): Selection {
  const keys = sel.keys.filter((k) => order.includes(k));
  const current = sel.current && order.includes(sel.current) ? sel.current : null;
  const anchor = sel.anchor && order.includes(sel.anchor) ? sel.anchor : null;
  if (keys.length === sel.keys.length && current === sel.current && anchor === sel.anchor) return sel;
  return { keys, current, anchor };
}

function picked<T>(items: T[], order: string[], keys: string[]): boolean[] {
  const set = new Set(keys);
  return items.map((_, i) => set.has(order[i]));
}

/**
 * moveBy moves the selected steps one place up (-1) or down (+1), each
 * past its unselected neighbour; a block at the edge stays where it is.
 */
export function moveBy<T>(items: T[], order: string[], keys: string[], delta: -1 | 1): T[] {
  const sel = picked(items, order, keys);
  const out = items.slice();
  const flags = sel.slice();
  const idx = [...out.keys()];
  if (delta > 0) idx.reverse();
  for (const i of idx) {
    const j = i + delta;
    if (!flags[i] || j < 0 || j >= out.length || flags[j]) continue;
    [out[i], out[j]] = [out[j], out[i]];
    [flags[i], flags[j]] = [flags[j], flags[i]];
  }
  return out;
}

/**
 * moveTo moves the selected steps, in their order, so that they sit
 * before the step at index `before` of the original list (items.length:
 * at the end). Dropping a block onto itself changes nothing.
 */
export function moveTo<T>(items: T[], order: string[], keys: string[], before: number): T[] {
  const sel = picked(items, order, keys);
  const moving = items.filter((_, i) => sel[i]);
  if (moving.length === 0) return items;
  const rest: T[] = [];
  let at = 0;
  items.forEach((item, i) => {
    if (i === before) at = rest.length;
    if (!sel[i]) rest.push(item);
  });
  if (before >= items.length) at = rest.length;
  return [...rest.slice(0, at), ...moving, ...rest.slice(at)];
}

/** removeKeys deletes the selected steps. */
export function removeKeys<T>(items: T[], order: string[], keys: string[]): T[] {
  const sel = picked(items, order, keys);
  return items.filter((_, i) => !sel[i]);
}

/** duplicateKeys puts a copy of each selected step right after it, each with a fresh id. */
export function duplicateKeys(steps: JsonObject[], order: string[], keys: string[]): { steps: JsonObject[]; copies: string[] } {
  const sel = picked(steps, order, keys);
  const out: JsonObject[] = [];
  const copies: string[] = [];
  steps.forEach((s, i) => {
    out.push(s);
    if (!sel[i]) return;
    const id = freshStepId([...steps, ...copies.map((c) => ({ id: c }))]);
    out.push({ ...structuredClone(s), id });
    copies.push(id);
  });
  return { steps: out, copies };
}
