// A page with unsaved edits asks before the tab is closed or reloaded (the
// LeaveGuard asks before a navigation inside the app).
import { useEffect } from "react";

export function useWarnBeforeUnload(dirty: boolean): void {
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
}

/** readFileText reads a chosen file as text (File.text where the browser has it). */
export function readFileText(file: File): Promise<string> {
  if (typeof file.text === "function") return file.text();
  return new Promise((ok, fail) => {
    const r = new FileReader();
    r.onload = () => ok(String(r.result ?? ""));
    r.onerror = () => fail(r.error ?? new Error("the file could not be read"));
    r.readAsText(file);
  });
}

/** A data set's name from a file's: "Users list.csv" gives "Users list". */
export function nameFromFile(fileName: string): string {
  const base = fileName.replace(/\.[^.]*$/, "").trim();
  return (base || "Imported data").slice(0, 100);
}
