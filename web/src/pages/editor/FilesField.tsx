// The files of an upload step: chosen by name from the project's files
// (Library ▸ Files), kept in the step by id. A person never has to copy an
// id; an id the project no longer has stays listed, so it can be removed.
import { useId, useState } from "react";
import { Link } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { fileKeys, formatSize, listFiles } from "../../api/files";
import { useProjectId } from "../../session";
import type { FieldIssue } from "./documentModel";
import { describedBy, FieldErrors } from "./Problems";

export function FilesField({
  label,
  hint,
  value,
  issues,
  onChange,
}: {
  label: string;
  hint: string;
  value: unknown;
  issues: FieldIssue[];
  onChange: (v: unknown) => void;
}) {
  const id = useId();
  const projectId = useProjectId();
  const files = useQuery({ queryKey: fileKeys.list(projectId), queryFn: () => listFiles(projectId), enabled: projectId !== "" });
  const chosen = Array.isArray(value) ? value.map(String) : [];
  const [pick, setPick] = useState("");
  const byId = new Map((files.data ?? []).map((f) => [f.id, f]));
  const left = (files.data ?? []).filter((f) => !chosen.includes(f.id));
  const set = (next: string[]) => onChange(next.length === 0 ? undefined : next);
  const hintId = `${id}-hint`;
  const issuesId = issues.length > 0 ? `${id}-issues` : undefined;
  return (
    <fieldset
      className={["field", "list-field", issues.length > 0 && "has-error"].filter(Boolean).join(" ")}
      aria-describedby={describedBy(hintId, issuesId)}
    >
      <legend>{label}</legend>
      {chosen.length > 0 && (
        <ul className="list-items">
          {chosen.map((v) => {
            const f = byId.get(v);
            const name = f?.name ?? v;
            return (
              <li key={v}>
                <span>{name}</span> <span className="muted">{f ? formatSize(f.size) : files.data ? "not in the project's files" : ""}</span>{" "}
                <button type="button" className="link" aria-label={`Remove ${name}`} onClick={() => set(chosen.filter((x) => x !== v))}>
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {files.data && files.data.length === 0 ? (
        <p className="hint">
          The project has no files yet: upload them on the <Link to="/files">Files</Link> page.
        </p>
      ) : (
        <div className="row">
          <select aria-label={`Add to ${label.toLowerCase()}`} value={pick} onChange={(e) => setPick(e.target.value)}>
            <option value="">{files.isLoading ? "Loading files…" : "Choose a project file"}</option>
            {left.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name} ({formatSize(f.size)})
              </option>
            ))}
          </select>
          <button
            type="button"
            disabled={pick === ""}
            onClick={() => {
              set([...chosen, pick]);
              setPick("");
            }}
          >
            Add
          </button>
        </div>
      )}
      <span className="hint" id={hintId}>
        {hint} <Link to="/files">Files</Link>
      </span>
      <FieldErrors issues={issues} id={`${id}-issues`} />
    </fieldset>
  );
}
