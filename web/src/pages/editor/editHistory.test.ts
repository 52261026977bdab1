import { describe, expect, it } from "vitest";
import type { EditorDocument } from "../../api/editorApi";
import { BURST_MS, EMPTY_HISTORY, editKey, MAX_HISTORY, record, redo, undo, type History } from "./editHistory";
import { baseDoc } from "./editorFixtures";

const withStep = (doc: EditorDocument, i: number, field: string, value: unknown): EditorDocument => ({
  ...doc,
  steps: doc.steps.map((s, j) => (j === i ? { ...s, [field]: value } : s)),
});

/** typed records each prefix of text typed into step 1's url, `gap` ms apart. */
function typed(text: string, gap: number, start = baseDoc()): { h: History; doc: EditorDocument } {
  let h = EMPTY_HISTORY;
  let doc = start;
  let now = 10_000;
  for (let i = 1; i <= text.length; i++) {
    const next = withStep(doc, 0, "url", text.slice(0, i));
    h = record(h, doc, next, now);
    doc = next;
    now += gap;
  }
  return { h, doc };
}

describe("editHistory", () => {
  it("names the one field an edit typed into, and nothing for other edits", () => {
    const doc = baseDoc();
    expect(editKey(doc, withStep(doc, 1, "value", "x"))).toBe("step:s2:value");
    expect(editKey(doc, { ...doc, name: "Other" })).toBe("doc:name");
    // Two fields, a move, an added step, a checkbox: entries of their own.
    expect(editKey(doc, withStep(withStep(doc, 1, "value", "x"), 1, "timeoutMs", 5))).toBeNull();
    expect(editKey(doc, { ...doc, steps: [doc.steps[1], doc.steps[0]] })).toBeNull();
    expect(editKey(doc, { ...doc, steps: [...doc.steps, { id: "s3", type: "wait", ms: 1 }] })).toBeNull();
    expect(editKey(doc, withStep(doc, 0, "fullPage", true))).toBeNull();
    expect(editKey(doc, { ...doc, name: "Other", suite: "Else" })).toBeNull();
  });

  it("keeps a burst of typing in one field as one entry, and a pause starts another", () => {
    const fast = typed("https://a", 50);
    expect(fast.h.past).toHaveLength(1);
    const back = undo(fast.h, fast.doc)!;
    expect(back.doc).toEqual(baseDoc());
    expect(redo(back.history, back.doc)!.doc).toEqual(fast.doc);

    const slow = typed("abc", BURST_MS + 1);
    expect(slow.h.past).toHaveLength(3);
  });

  it("does not join typing in another field, or typing after an undo", () => {
    let { h, doc } = typed("ab", 10);
    const other = withStep(doc, 1, "value", "z");
    h = record(h, doc, other, 10_030);
    expect(h.past).toHaveLength(2);
    const back = undo(h, other)!;
    h = record(back.history, back.doc, withStep(back.doc, 0, "url", "abc"), 10_040);
    expect(h.past).toHaveLength(2);
    expect(h.future).toHaveLength(0);
  });

  it("forgets redo after a new edit and keeps at most MAX_HISTORY entries", () => {
    let h = EMPTY_HISTORY;
    let doc = baseDoc();
    for (let i = 0; i < MAX_HISTORY + 5; i++) {
      const next = { ...doc, steps: [...doc.steps, { id: `n${i}`, type: "wait", ms: i }] };
      h = record(h, doc, next, i);
      doc = next;
    }
    expect(h.past).toHaveLength(MAX_HISTORY);
    const back = undo(h, doc)!;
    expect(back.history.future).toHaveLength(1);
    expect(record(back.history, back.doc, baseDoc(), 1e6).future).toHaveLength(0);
    expect(undo(EMPTY_HISTORY, doc)).toBeNull();
    expect(redo(EMPTY_HISTORY, doc)).toBeNull();
  });
});
