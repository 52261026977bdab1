// "Export as Playwright": the saved version rendered by the hub as a
// Playwright Test script, to read or copy.
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { exportScript } from "../../api/editorApi";
import { ErrorBox, Loading, Modal } from "../../components/ui";

export function ExportButton({ testId, dirty }: { testId: string; dirty: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Export as Playwright
      </button>
      {open && <ExportModal testId={testId} dirty={dirty} onClose={() => setOpen(false)} />}
    </>
  );
}

function ExportModal({ testId, dirty, onClose }: { testId: string; dirty: boolean; onClose: () => void }) {
  const script = useQuery({ queryKey: ["editor", "script", testId], queryFn: () => exportScript(testId), gcTime: 0 });
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");
  const doCopy = async () => {
    if (!script.data) return;
    try {
      await navigator.clipboard.writeText(script.data.script);
      setCopy("copied");
    } catch {
      setCopy("failed");
    }
  };
  return (
    <Modal title="Playwright script" onClose={onClose} wide>
      <div className="modal-body">
        {dirty && <p className="notice">This is the saved version; your unsaved changes are not in it.</p>}
        {script.isPending && <Loading label="Rendering the script" />}
        <ErrorBox error={script.error} />
        {script.data && (
          <pre className="script" aria-label="Playwright script" tabIndex={0}>
            {script.data.script}
          </pre>
        )}
      </div>
      <div className="modal-actions">
        <span role="status" className={copy === "failed" ? "field-error" : "muted"}>
          {copy === "copied" ? "Copied" : copy === "failed" ? "Copying failed; select the text and copy it by hand." : ""}
        </span>
        <span className="spacer" />
        <button type="button" onClick={doCopy} disabled={!script.data}>
          Copy
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
