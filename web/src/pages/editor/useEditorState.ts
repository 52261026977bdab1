// The editor's working state: the test as last loaded, the document being
// edited beside the saved one it started from, the ETag a save must match,
// the issues of the last check or save, and a warning before leaving with
// unsaved changes.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Issue, Test } from "../../api";
import type { EditorDocument, LoadedTest } from "../../api/editorApi";
import { placeIssues, sameDocument, stepKeys } from "./documentModel";

export function useEditorState(initial: LoadedTest) {
  const [test, setTest] = useState<Test>(initial.test);
  const [etag, setEtag] = useState(initial.etag);
  const [baseline, setBaseline] = useState<EditorDocument>(initial.document);
  const [doc, setDocState] = useState<EditorDocument>(initial.document);
  const [found, setFound] = useState<{ issues: Issue[]; keys: string[] }>({ issues: [], keys: [] });
  // The latest document, for callbacks that run after a request returns.
  const docRef = useRef(doc);

  const dirty = useMemo(() => !sameDocument(doc, baseline), [doc, baseline]);
  const placed = useMemo(() => placeIssues(found.issues, found.keys), [found]);
  /** setIssues shows the issues found in sent (by default the document as it is now). */
  const setIssues = useCallback((issues: Issue[], sent?: EditorDocument) => {
    setFound({ issues, keys: stepKeys((sent ?? docRef.current).steps) });
  }, []);

  const setDoc = useCallback((next: EditorDocument) => {
    docRef.current = next;
    setDocState(next);
  }, []);

  /**
   * saved takes the hub's answer to a save of `sent`. Edits made while the
   * save was on its way stay, now measured against the saved document.
   */
  const saved = useCallback(
    (res: LoadedTest, sent: EditorDocument) => {
      setTest(res.test);
      setEtag(res.etag);
      setBaseline(res.document);
      if (sameDocument(docRef.current, sent)) setDoc(res.document);
    },
    [setDoc],
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
      if (clean) setDoc(res.document);
    },
    [baseline, setDoc],
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

  return { test, etag, doc, setDoc, dirty, issues: found.issues, setIssues, placed, saved, adopt };
}
