// The step-level difference between two versions of a test: steps matched
// by id are added, removed, changed (with the fields that differ) or moved;
// the test's settings that differ are listed beside them. Pure, tested.
import type { Step, TestDocument } from "../../api";
import { canonical } from "../editor/documentModel";

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

export interface StepChange {
  kind: "added" | "removed" | "changed" | "moved";
  id: string;
  /** Positions (from 0) in the older and the newer version; -1 where absent. */
  from: number;
  to: number;
  before?: Step;
  after?: Step;
  /** For "changed": what differs, field by field. */
  fields: FieldChange[];
}

export interface VersionDiff {
  settings: FieldChange[];
  steps: StepChange[];
  unchanged: number;
}

const SETTINGS = ["name", "suite", "tags", "description", "variables"] as const;

function fieldChanges(x: object, y: object, names?: readonly string[]): FieldChange[] {
  const a = x as Record<string, unknown>;
  const b = y as Record<string, unknown>;
  const keys = names ?? [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => k !== "id").sort();
  return keys.filter((k) => canonical(a[k]) !== canonical(b[k])).map((k) => ({ field: k, before: a[k], after: b[k] }));
}

/**
 * diffVersions compares an older document with a newer one. A step is
 * "moved" when only its place among the steps both versions share changed.
 */
export function diffVersions(older: TestDocument, newer: TestDocument): VersionDiff {
  const a = older.steps ?? [];
  const b = newer.steps ?? [];
  const idOf = (s: Step) => (typeof s.id === "string" ? s.id : "");
  const inA = new Map(a.map((s, i) => [idOf(s), i]));
  const inB = new Map(b.map((s, i) => [idOf(s), i]));
  // Shared steps outside the longest common order are the ones that moved.
  const sharedA = a.filter((s) => inB.has(idOf(s))).map(idOf);
  const sharedB = b.filter((s) => inA.has(idOf(s))).map(idOf);
  const stay = longestCommon(sharedA, sharedB);
  const steps: StepChange[] = [];
  let unchanged = 0;
  b.forEach((s, to) => {
    const id = idOf(s);
    const from = inA.get(id);
    if (from === undefined) {
      steps.push({ kind: "added", id, from: -1, to, after: s, fields: [] });
      return;
    }
    const fields = fieldChanges(a[from], s);
    if (fields.length > 0) steps.push({ kind: "changed", id, from, to, before: a[from], after: s, fields });
    else if (!stay.has(id)) steps.push({ kind: "moved", id, from, to, before: a[from], after: s, fields });
    else unchanged++;
  });
  a.forEach((s, from) => {
    if (!inB.has(idOf(s))) steps.push({ kind: "removed", id: idOf(s), from, to: -1, before: s, fields: [] });
  });
  return {
    settings: fieldChanges(older, newer, SETTINGS),
    steps,
    unchanged,
  };
}

/** longestCommon is the set of items of a longest common subsequence of a and b. */
function longestCommon(a: string[], b: string[]): Set<string> {
  const len = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--) len[i][j] = a[i] === b[j] ? len[i + 1][j + 1] + 1 : Math.max(len[i + 1][j], len[i][j + 1]);
  const out = new Set<string>();
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) {
      out.add(a[i]);
      i++;
      j++;
    } else if (len[i + 1][j] >= len[i][j + 1]) i++;
    else j++;
  }
  return out;
}

/** valueText shows a field's value in one line: strings quoted, absent as "(none)". */
export function valueText(v: unknown): string {
  if (v === undefined || v === null) return "(none)";
  if (typeof v === "string") return JSON.stringify(v);
  const s = JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 119)}…` : s;
}
