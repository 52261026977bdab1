// The editor's working state: the test as last loaded, the document being
// edited beside the saved one it started from, the ETag a save must match,
// the issues of the last check or save, a warning before leaving with
// unsaved changes, and the undo history of every edit (editHistory.ts).
// The history lives as long as the editor: a save keeps it (an undo after
// a save is an unsaved change again), leaving the page or reloading the
// test drops it.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Issue, Test } from "../../api";
import type { EditorDocument, LoadedTest } from "../../api/editorApi";
import { placeIssues, sameDocument, stepKeyMap } from "./documentModel";
import { EMPTY_HISTORY, record, redo as redoEdit, settle, undo as undoEdit, type History } from "./editHistory";

export function useEditorState(initial: LoadedTest) {
  const [test, setTest] = useState<Test>(initial.test);
  const [etag, setEtag] = useState(initial.etag);
  const [baseline, setBaseline] = useState<EditorDocument>(initial.document);
  const [doc, setDocState] = useState<EditorDocument>(initial.document);
  const [found, setFound] = useState<{ issues: Issue[]; keys: Map<string, string> }>({ issues: [], keys: new Map() });
  // The latest document, for callbacks that run after a request returns.
  const docRef = useRef(doc);

  const dirty = useMemo(() => !sameDocument(doc, baseline), [doc, baseline]);
  const placed = useMemo(() => placeIssues(found.issues, found.keys), [found]);
  /** setIssues shows the issues found in sent (by default the document as it is now). */
  const setIssues = useCallback((issues: Issue[], sent?: EditorDocument) => {
    setFound({ issues, keys: stepKeyMap((sent ?? docRef.current).steps) });
  }, []);

  const [history, setHistoryState] = useState<History>(EMPTY_HISTORY);
  // The latest history, for edits made twice before a render (an import then a reveal).
  const historyRef = useRef(history);
  const setHistory = useCallback((h: History) => {
    historyRef.current = h;
    setHistoryState(h);
  }, []);

  /** show puts a document on screen without an undo entry (a save's answer, an undo). */
  const show = useCallback((next: EditorDocument) => {
    docRef.current = next;
    setDocState(next);
  }, []);
  /** setDoc is an edit: it can be undone. */
  const setDoc = useCallback(
    (next: EditorDocument) => {
      const prev = docRef.current;
      if (next === prev || sameDocument(prev, next)) return;
      setHistory(record(historyRef.current, prev, next, Date.now()));
      show(next);
    },
    [setHistory, show],
  );
  const undo = useCallback(() => {
    const back = undoEdit(historyRef.current, docRef.current);
    if (!back) return;
    setHistory(back.history);
    show(back.doc);
  }, [setHistory, show]);
  const redo = useCallback(() => {
    const again = redoEdit(historyRef.current, docRef.current);
    if (!again) return;
    setHistory(again.history);
    show(again.doc);
  }, [setHistory, show]);

  /**
   * saved takes the hub's answer to a save of `sent`. Edits made while the
   * save was on its way stay, now measured against the saved document.
   */
  const saved = useCallback(
    (res: LoadedTest, sent: EditorDocument) => {
      setTest(res.test);
      setEtag(res.etag);
      setBaseline(res.document);
      // The hub's form of what was sent replaces it in place: no undo entry.
      if (sameDocument(docRef.current, sent)) show(res.document);
      setHistory(settle(historyRef.current));
    },
    [show, setHistory],
  );

  /**
   * adopt takes a test changed by another action (status, revision,
   * sharing). Its ETag is taken only when the document under the edits is
   * still the saved one, so a save over someone else's newer version still
   * answers 412.
   */
  const adopt = useCallback(
    (res: LoadedTest) => {
      setTest(res.test);
      const clean = sameDocument(docRef.current, baseline);
      if (!clean && !sameDocument(res.document, baseline)) return;
      setEtag(res.etag);
      setBaseline(res.document);
      if (clean) show(res.document);
    },
    [baseline, show],
  );

  /**
   * replaced takes a new version the hub made from this one (Make
   * component) as an edit: undo brings the document before it back as
   * unsaved changes.
   */
  const replaced = useCallback(
    (res: LoadedTest) => {
      setTest(res.test);
      setEtag(res.etag);
      setBaseline(res.document);
      setDoc(res.document);
    },
    [setDoc],
  );

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      e.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  return {
    test,
    etag,
    doc,
    setDoc,
    dirty,
    issues: found.issues,
    setIssues,
    placed,
    saved,
    adopt,
    replaced,
    undo,
    redo,
    canUndo: history.past.length > 0,
    canRedo: history.future.length > 0,
  };
}
