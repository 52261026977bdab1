// The "Import tests" dialog: a DSL 1 or 2 document or a Selenium IDE .side
// project, from a file or pasted, sent as is to POST /api/tests/import. The
// hub migrates, validates and saves each test as Shared, owned by the
// caller. A .side command that cannot be imported is left out and listed
// after the import; anything else invalid comes back as issues and nothing
// is saved. With an environment chosen, values equal to its secrets are
// imported as ${secrets.NAME} (a recorded .side holds real passwords).
import { useId, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "../../api";
import { environmentChoicesKey, listEnvironmentChoices } from "../../api/runs";
import { importTests, type ImportResult } from "../../api/testsApi";
import { ErrorBox, Modal, StatusBadge, FormActions } from "../../components/ui";
import { useProjectId } from "../../session";

/** The hub reads at most 1 MiB of a body (hub/api/errors.go maxBody). */
const MAX_BYTES = 1 << 20;

/** localProblem finds what need not go to the hub: nothing to send, not JSON, too large. */
function localProblem(text: string): string | null {
  if (!text.trim()) return "Choose a file or paste a document first.";
  if (new Blob([text]).size > MAX_BYTES) return "The document is larger than 1 MiB, more than the hub accepts.";
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v !== "object" || v === null || Array.isArray(v))
      return "The document must be a JSON object: a test document or a Selenium IDE project.";
  } catch (e) {
    return `This is not JSON: ${e instanceof Error ? e.message : String(e)}`;
  }
  return null;
}

function migratedText(from: ImportResult["migratedFrom"]): string | null {
  if (from === "side") return "Converted from a Selenium IDE project.";
  if (typeof from === "number") return `Migrated from DSL version ${from} to the current version.`;
  return null;
}

export function ImportDialog({ onClose }: { onClose: () => void }) {
  const qc = useQueryClient();
  const id = useId();
  const projectId = useProjectId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [pasted, setPasted] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [envId, setEnvId] = useState("");
  const envs = useQuery({
    queryKey: environmentChoicesKey(projectId),
    queryFn: () => listEnvironmentChoices(projectId),
    staleTime: 60_000,
  });
  const imp = useMutation({
    mutationFn: (text: string) => importTests(projectId, text, envId),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ["tests"] });
      void qc.invalidateQueries({ queryKey: ["suites"] });
    },
  });

  const chooseFile = async (f: File | undefined) => {
    setFileError(null);
    setProblem(null);
    imp.reset();
    if (!f) {
      setFile(null);
      return;
    }
    try {
      setFile({ name: f.name, text: await f.text() });
    } catch {
      setFile(null);
      setFileError(`The file ${f.name} could not be read.`);
    }
  };

  const clearFile = () => {
    setFile(null);
    if (fileRef.current) fileRef.current.value = "";
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const text = file ? file.text : pasted;
    const p = localProblem(text);
    setProblem(p);
    if (!p) imp.mutate(text);
  };

  const again = () => {
    imp.reset();
    clearFile();
    setPasted("");
  };

  if (imp.isSuccess) {
    const r = imp.data;
    const note = migratedText(r.migratedFrom);
    return (
      <Modal title="Import tests" onClose={onClose}>
        <div className="modal-body">
          <div className="ok-box" role="status">
            Imported {r.tests.length === 1 ? "1 test" : `${r.tests.length} tests`}, shared with the project and owned by you.
            {note && <> {note}</>}
            {r.secretsReplaced > 0 && (
              <>
                {" "}
                {r.secretsReplaced === 1 ? "1 value was" : `${r.secretsReplaced} values were`} equal to a secret and imported as{" "}
                <code>{"${secrets.NAME}"}</code>.
              </>
            )}
          </div>
          <ul className="tl-imported">
            {r.tests.map(({ test, version }) => (
              <li key={test.id}>
                <Link to={`/tests/${encodeURIComponent(test.id)}`}>{test.name}</Link> <span className="muted">v{version}</span>{" "}
                <StatusBadge status={test.status} /> <span className="muted">{test.steps === 1 ? "1 step" : `${test.steps} steps`}</span>
              </li>
            ))}
          </ul>
          {r.skipped.length > 0 && (
            <div className="notice notice-warn tl-skipped">
              <strong>
                {r.skipped.length === 1 ? "1 command was" : `${r.skipped.length} commands were`} left out: add{" "}
                {r.skipped.length === 1 ? "its step" : "their steps"} in the editor.
              </strong>
              <table className="table" aria-label="Skipped commands">
                <thead>
                  <tr>
                    <th>Test</th>
                    <th>Command</th>
                    <th>Why</th>
                  </tr>
                </thead>
                <tbody>
                  {r.skipped.map((s) => (
                    <tr key={`${s.test}#${s.index}`}>
                      <td>{s.test || <span className="muted">(no name)</span>}</td>
                      <td>
                        #{s.index + 1} <code>{s.command || "(none)"}</code>
                      </td>
                      <td>{s.reason}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
        <div className="modal-actions">
          <button type="button" onClick={again}>
            Import another
          </button>
          <button type="button" className="primary" onClick={onClose}>
            Close
          </button>
        </div>
      </Modal>
    );
  }

  const invalid = imp.error instanceof ApiError && imp.error.status === 422 ? imp.error : null;
  return (
    <Modal title="Import tests" onClose={onClose} wide>
      <form className="form" onSubmit={submit}>
        <p className="muted tl-help">
          A test document (DSL version 1 or 2, for example one exported from here) or a Selenium IDE project (.side), which may hold several
          tests. Imported tests are shared with the project and owned by you.
        </p>
        <div className="field">
          <label htmlFor={`${id}-file`}>Test file</label>
          <input id={`${id}-file`} ref={fileRef} type="file" accept=".json,.side" onChange={(e) => void chooseFile(e.target.files?.[0])} />
          {file && (
            <span className="hint">
              {file.name} is read ({file.text.length.toLocaleString()} characters) and imported rather than any pasted text.{" "}
              <button type="button" className="link-button" onClick={clearFile}>
                Clear the file
              </button>
            </span>
          )}
          {fileError && <span className="field-error">{fileError}</span>}
        </div>
        <div className="field">
          <label htmlFor={`${id}-paste`}>Or paste a document</label>
          <textarea
            id={`${id}-paste`}
            className="mono tl-paste"
            spellCheck={false}
            value={pasted}
            disabled={!!file}
            placeholder='{ "dsl": 2, "name": "Sign in", "steps": [ … ] }'
            onChange={(e) => {
              setPasted(e.target.value);
              setProblem(null);
            }}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-env`}>Secrets of environment</label>
          <select id={`${id}-env`} value={envId} onChange={(e) => setEnvId(e.target.value)} aria-describedby={`${id}-env-hint`}>
            <option value="">None: import values as they are</option>
            {(envs.data ?? []).map((e) => (
              <option key={e.id} value={e.id}>
                {e.name}
              </option>
            ))}
          </select>
          <span className="hint" id={`${id}-env-hint`}>
            Optional. A typed value or expected text equal to one of this environment&apos;s secrets (3 characters or more) is imported as{" "}
            <code>{"${secrets.NAME}"}</code>, so a recorded password does not stay in the test.
          </span>
        </div>
        {problem && (
          <div className="error-box" role="alert">
            {problem}
          </div>
        )}
        {invalid ? (
          <div className="error-box" role="alert">
            <strong>Nothing was imported: {invalid.message}</strong>
            {invalid.issues.length > 0 && (
              <ul className="issue-list tl-issues" aria-label="Issues">
                {invalid.issues.map((i, n) => (
                  <li key={n}>
                    {i.path && <code>{i.path}</code>} {i.message}
                  </li>
                ))}
              </ul>
            )}
          </div>
        ) : (
          <ErrorBox error={imp.error} />
        )}
        <FormActions onCancel={onClose} label="Import tests" busyLabel="Importing…" busy={imp.isPending} />
      </form>
    </Modal>
  );
}
