// A JavaScript dialog (alert, confirm, prompt, leaving the page) open on
// the live view's page. The picture does not show it and a headless page
// has nobody else to answer it, so it shows over the picture as a
// browser's would; the answer goes to the page and a recording records it.
import { useState, type FormEvent } from "react";
import type { ViewDialog } from "../../../api/authoringApi";

const TITLES: Record<string, string> = {
  alert: "The page says",
  confirm: "The page asks",
  prompt: "The page asks",
  beforeunload: "Leave the page? Changes may not be saved",
};

export function LiveViewDialog({ dialog, onAnswer }: { dialog: ViewDialog; onAnswer: (accept: boolean, text: string) => void }) {
  const [text, setText] = useState(dialog.defaultPrompt ?? "");
  const prompt = dialog.type === "prompt";
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onAnswer(true, prompt ? text : "");
  };
  const title = TITLES[dialog.type] ?? "The page asks";
  return (
    <div className="live-view-dialog-backdrop">
      <form
        className="live-view-dialog"
        role="alertdialog"
        aria-label={title}
        aria-describedby="live-view-dialog-message"
        onSubmit={submit}
        onKeyDown={(e) => {
          if (e.key === "Escape" && dialog.type !== "alert") {
            e.preventDefault();
            onAnswer(false, "");
          }
        }}
      >
        <p className="live-view-dialog-title">{title}</p>
        <p id="live-view-dialog-message" className="live-view-dialog-message">
          {dialog.message}
        </p>
        {prompt && (
          <input
            aria-label="Answer"
            value={text}
            maxLength={1000}
            onChange={(e) => setText(e.target.value)}
            autoFocus
            onFocus={(e) => e.currentTarget.select()}
          />
        )}
        <div className="live-view-dialog-buttons">
          <button type="submit" className="primary" autoFocus={!prompt}>
            OK
          </button>
          {dialog.type !== "alert" && (
            <button type="button" onClick={() => onAnswer(false, "")}>
              Cancel
            </button>
          )}
        </div>
      </form>
    </div>
  );
}
