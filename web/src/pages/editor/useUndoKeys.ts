// The editor's undo keys: Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z and Ctrl+Y
// redo. In a focused text field (a text input, a textarea, anything
// contenteditable) the keys are left to the browser: its own undo of the
// characters just typed is what a user expects of a text box. Everywhere
// else (the step list, a checkbox, a select, a button, nothing focused)
// they undo and redo the editor's edits, where one entry holds a whole
// burst of typing in a field (editHistory.ts). Inside an open dialog they
// do nothing: the dialog is not the document.
import { useEffect, useRef } from "react";

/** Input types whose text the browser itself can undo. */
const TEXT_INPUTS = new Set(["text", "search", "url", "email", "tel", "password", "number", ""]);

/** takesTextUndo reports whether the browser's own undo applies in el. */
export function takesTextUndo(el: Element | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable || el instanceof HTMLTextAreaElement) return true;
  return el instanceof HTMLInputElement && TEXT_INPUTS.has(el.getAttribute("type")?.toLowerCase() ?? "");
}

export function useUndoKeys(undo: () => void, redo: () => void, enabled: boolean) {
  const actions = useRef({ undo, redo, enabled });
  actions.current = { undo, redo, enabled };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.defaultPrevented) return;
      const key = e.key.toLowerCase();
      const isUndo = key === "z" && !e.shiftKey;
      const isRedo = (key === "z" && e.shiftKey) || (key === "y" && !e.shiftKey && e.ctrlKey);
      if (!isUndo && !isRedo) return;
      const target = e.target instanceof Element ? e.target : null;
      if (takesTextUndo(target) || target?.closest("dialog, [role=dialog]")) return;
      if (!actions.current.enabled) return;
      e.preventDefault();
      if (isUndo) actions.current.undo();
      else actions.current.redo();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
