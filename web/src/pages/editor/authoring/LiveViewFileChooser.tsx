// A file choice the live view's page waits for: its <input type=file> was
// clicked, and the browser's file chooser is not in the picture (a
// headless agent has none). The person chooses among the project's files,
// or uploads one from this computer to them first, as an upload step
// replays it with project files; the choice goes to the page and a
// recording records the upload.
import { useState, type ChangeEvent, type FormEvent } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { fileKeys, formatSize, listFiles, MAX_FILE_SIZE, uploadFile } from "../../../api/files";
import type { ViewFileChooser } from "../../../api/authoringApi";
import { useProjectId } from "../../../session";
import { problemText } from "./AuthoringContext";

export function LiveViewFileChooser({ chooser, onAnswer }: { chooser: ViewFileChooser; onAnswer: (files: string[]) => void }) {
  const projectId = useProjectId();
  const qc = useQueryClient();
  const files = useQuery({ queryKey: fileKeys.list(projectId), queryFn: () => listFiles(projectId), enabled: projectId !== "" });
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const title = chooser.multiple ? "The page asks for files" : "The page asks for a file";

  const pick = (id: string, on: boolean) =>
    setChosen((c) => (chooser.multiple ? (on ? [...c, id] : c.filter((x) => x !== id)) : on ? [id] : []));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (chosen.length > 0) onAnswer(chosen);
  };
  // A file from this computer joins the project's files first (the step
  // replays it from there), then is chosen at once, as in a browser's chooser.
  const fromComputer = async (e: ChangeEvent<HTMLInputElement>) => {
    const list = Array.from(e.target.files ?? []);
    e.target.value = "";
    if (list.length === 0) return;
    const big = list.find((f) => f.size > MAX_FILE_SIZE);
    if (big) {
      setProblem(`${big.name} is ${formatSize(big.size)}; a file is at most 25 MiB`);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const ids: string[] = [];
      for (const f of list) ids.push((await uploadFile(projectId, f)).id);
      void qc.invalidateQueries({ queryKey: ["files"] });
      onAnswer(chooser.multiple ? [...chosen, ...ids] : ids);
    } catch (err) {
      setProblem(problemText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="live-view-dialog-backdrop">
      <form
        className="live-view-dialog live-view-files"
        role="dialog"
        aria-label={title}
        onSubmit={submit}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.preventDefault();
            onAnswer([]);
          }
        }}
      >
        <p className="live-view-dialog-title">{title}</p>
        <p className="live-view-dialog-message muted">
          Choose from the project's files: the recorded upload step uses them when the test runs.
        </p>
        {files.isPending && <p className="muted">Loading the project's files…</p>}
        {files.isError && <p className="error-box">{problemText(files.error)}</p>}
        {files.data && files.data.length === 0 && <p className="muted">The project has no files yet: upload one from this computer.</p>}
        {files.data && files.data.length > 0 && (
          <fieldset className="live-view-files-list">
            <legend className="sr-only">Project files</legend>
            {files.data.map((f) => (
              <label key={f.id}>
                <input
                  type={chooser.multiple ? "checkbox" : "radio"}
                  name="live-view-file"
                  value={f.id}
                  checked={chosen.includes(f.id)}
                  onChange={(e) => pick(f.id, e.target.checked)}
                />
                {f.name} <span className="muted">({formatSize(f.size)})</span>
              </label>
            ))}
          </fieldset>
        )}
        <label className="live-view-files-upload">
          Upload from this computer…
          <input type="file" multiple={chooser.multiple} onChange={(e) => void fromComputer(e)} disabled={busy} />
        </label>
        {busy && <p className="muted">Uploading…</p>}
        {problem && (
          <p className="error-box" role="alert">
            {problem}
          </p>
        )}
        <div className="live-view-dialog-buttons">
          <button type="submit" className="primary" disabled={chosen.length === 0 || busy}>
            Choose
          </button>
          <button type="button" onClick={() => onAnswer([])} disabled={busy}>
            Cancel
          </button>
        </div>
      </form>
    </div>
  );
}
