// Storage used per project, for platform administrators (issue 32,
// docs/retention.md): what each project keeps in runs, screenshots and
// other artifacts, traces and files, so they can see where the space goes
// and how the retention settings help.
import { useQuery } from "@tanstack/react-query";
import { getStorage, keys, type ProjectStorage } from "../../api/admin";
import { formatSize } from "../../api/files";
import { ErrorBox, Loading } from "../../components/ui";

export function Storage() {
  const q = useQuery({ queryKey: keys.storage, queryFn: getStorage });
  return (
    <div className="admin-section">
      <h2>Storage</h2>
      <p className="hint">
        What each project keeps on this hub, the largest first: its runs' screenshots and other artifacts, their traces, and the project's
        files. A run whose screenshots and trace the retention settings removed counts nothing (see the README's Retention section).
      </p>
      {q.isPending ? (
        <Loading label="Loading storage" />
      ) : q.isError ? (
        <ErrorBox error={q.error} title="Storage could not be loaded" />
      ) : q.data.length === 0 ? (
        <p className="muted">No project yet.</p>
      ) : (
        <StorageTable rows={q.data} />
      )}
    </div>
  );
}

function StorageTable({ rows }: { rows: ProjectStorage[] }) {
  const sum = (f: (p: ProjectStorage) => number) => rows.reduce((n, p) => n + f(p), 0);
  return (
    <table className="table admin-storage">
      <thead>
        <tr>
          <th>Organization</th>
          <th>Project</th>
          <th className="num">Runs</th>
          <th className="num">Artifacts</th>
          <th className="num">Traces</th>
          <th className="num">Files</th>
          <th className="num">Total</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((p) => (
          <tr key={p.projectId} data-testid={`storage-${p.projectId}`}>
            <td>{p.orgName}</td>
            <td>{p.projectName}</td>
            <td className="num">
              {p.runs}
              {p.prunedRuns > 0 && <span className="muted"> ({p.prunedRuns} pruned)</span>}
            </td>
            <td className="num">{formatSize(p.artifactBytes)}</td>
            <td className="num">{formatSize(p.traceBytes)}</td>
            <td className="num">
              {formatSize(p.fileBytes)}
              {p.files > 0 && (
                <span className="muted">
                  {" "}
                  ({p.files} file{p.files === 1 ? "" : "s"})
                </span>
              )}
            </td>
            <td className="num">
              <strong>{formatSize(p.totalBytes)}</strong>
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th colSpan={2}>All projects</th>
          <td className="num">{sum((p) => p.runs)}</td>
          <td className="num">{formatSize(sum((p) => p.artifactBytes))}</td>
          <td className="num">{formatSize(sum((p) => p.traceBytes))}</td>
          <td className="num">{formatSize(sum((p) => p.fileBytes))}</td>
          <td className="num" data-testid="storage-total">
            <strong>{formatSize(sum((p) => p.totalBytes))}</strong>
          </td>
        </tr>
      </tfoot>
    </table>
  );
}
