// "Export as Playwright": the saved version rendered by the hub as a
// Playwright Test script, to read, copy or download as <test-name>.spec.ts.
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { exportScript } from "../../api/editorApi";
import { ErrorBox, Loading, Modal } from "../../components/ui";

/** Common phones and tablets among Playwright's device profiles. */
const DEVICES = ["iPhone 15", "iPhone 15 Pro Max", "iPhone SE", "Pixel 7", "Galaxy S9+", "iPad Pro 11", "iPad Mini", "Galaxy Tab S4"];

/** scriptFileName is the test's name as a file name a system accepts: <name>.spec.ts. */
export function scriptFileName(testName: string): string {
  // Characters Windows, macOS or Linux refuse in a file name, and controls.
  const safe = testName
    .replace(/[\\/:*?"<>|\u0000-\u001f\u007f]+/g, "-")
    .replace(/^[\s.]+|[\s.]+$/g, "")
    .slice(0, 120);
  return `${safe || "test"}.spec.ts`;
}

/** download saves text as a file through the browser's own download. */
function download(text: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/typescript;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // After the click's download has started.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function ExportButton({ testId, testName, dirty }: { testId: string; testName: string; dirty: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Export as Playwright
      </button>
      {open && <ExportModal testId={testId} testName={testName} dirty={dirty} onClose={() => setOpen(false)} />}
    </>
  );
}

function ExportModal({ testId, testName, dirty, onClose }: { testId: string; testName: string; dirty: boolean; onClose: () => void }) {
  const [device, setDevice] = useState("");
  const script = useQuery({
    queryKey: ["editor", "script", testId, device],
    queryFn: () => exportScript(testId, device || undefined),
    gcTime: 0,
  });
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
        <div className="field">
          <label htmlFor="export-device">Device</label>
          <select id="export-device" value={device} onChange={(e) => setDevice(e.target.value)} aria-describedby="export-device-hint">
            <option value="">None: the browser's own viewport</option>
            {DEVICES.map((d) => (
              <option key={d}>{d}</option>
            ))}
          </select>
          <span className="hint" id="export-device-hint">
            The run option device: the script runs with that Playwright device profile (viewport, scale, touch, user agent).
          </span>
        </div>
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
        <button
          type="button"
          disabled={!script.data}
          title={`Save as ${scriptFileName(testName)}`}
          onClick={() => script.data && download(script.data.script, scriptFileName(testName))}
        >
          Download
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
