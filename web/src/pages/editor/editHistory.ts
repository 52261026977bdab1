// The editor's undo history as pure functions: the documents before each
// edit (past) and after each undo (future). Typing in one field makes one
// entry per burst, as a text editor does: an edit that changes the same
// single field of the same step (or the same setting) as the edit just
// before it, within BURST_MS, joins that edit's entry instead of adding one.
import type { EditorDocument, JsonObject } from "../../api/editorApi";
import { canonical, str } from "./documentModel";

export interface History {
  past: EditorDocument[];
  future: EditorDocument[];
  /** The field the last edit changed (see editKey), while its burst may go on. */
  burst: string | null;
  /** When the last edit was made (ms). */
  at: number;
}

export const EMPTY_HISTORY: History = { past: [], future: [], burst: null, at: 0 };
/** A pause longer than this in typing starts a new undo entry. */
export const BURST_MS = 1000;
/** The oldest entries are dropped past this many. */
export const MAX_HISTORY = 200;

/** changedFields lists the members of a and b that differ. */
function changedFields(a: JsonObject, b: JsonObject): string[] {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].filter((n) => a[n] !== b[n] && canonical(a[n]) !== canonical(b[n]));
}

/**
 * editKey names the one field an edit typed into: "step:<id>:<field>" or
 * "doc:<field>"; null for anything else (moves, adds, deletes, several
 * fields, a checkbox), which always makes an entry of its own.
 */
export function editKey(prev: EditorDocument, next: EditorDocument): string | null {
  const fields = changedFields(prev, next);
  if (fields.length !== 1) return null;
  const [field] = fields;
  if (field !== "steps") return typeof next[field] === "boolean" ? null : `doc:${field}`;
  const a = prev.steps;
  const b = next.steps;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return null;
  const at = a.flatMap((s, i) => (s !== b[i] && canonical(s) !== canonical(b[i]) ? [i] : []));
  if (at.length !== 1) return null;
  const before = a[at[0]];
  const after = b[at[0]];
  const inStep = changedFields(before, after);
  if (inStep.length !== 1 || str(before.id) !== str(after.id) || typeof after[inStep[0]] === "boolean") return null;
  return `step:${str(after.id)}:${inStep[0]}`;
}

/** record notes an edit from prev to next made at now (ms). */
export function record(h: History, prev: EditorDocument, next: EditorDocument, now: number): History {
  const key = editKey(prev, next);
  if (key !== null && key === h.burst && now - h.at <= BURST_MS && h.past.length > 0) {
    return { ...h, future: [], at: now };
  }
  return { past: [...h.past, prev].slice(-MAX_HISTORY), future: [], burst: key, at: now };
}

/** undo goes back one entry from present; null when there is none. */
export function undo(h: History, present: EditorDocument): { history: History; doc: EditorDocument } | null {
  const doc = h.past[h.past.length - 1];
  if (doc === undefined) return null;
  return { history: { past: h.past.slice(0, -1), future: [present, ...h.future], burst: null, at: 0 }, doc };
}

/** redo takes back the last undo; null when there is none. */
export function redo(h: History, present: EditorDocument): { history: History; doc: EditorDocument } | null {
  const [doc, ...future] = h.future;
  if (doc === undefined) return null;
  return { history: { past: [...h.past, present], future, burst: null, at: 0 }, doc };
}

/** settle ends the current typing burst, so the next edit makes its own entry (after a save). */
export function settle(h: History): History {
  return h.burst === null ? h : { ...h, burst: null };
}
