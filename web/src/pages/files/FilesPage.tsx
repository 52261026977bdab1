// Files (/files): the project's files, which upload steps put into a page's
// <input type=file> by id. Every member lists and downloads them and
// uploads new ones (by the button or by dropping them on the page, 25 MiB
// each); the uploader, Test Managers and Admins delete them. Deleting a
// file a test uses is allowed: its upload steps then fail saying so.
import { useRef, useState, type ChangeEvent, type DragEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { MAX_FILE_SIZE, deleteFile, fileContentUrl, fileKeys, formatSize, listFiles, uploadFile, type ProjectFile } from "../../api/files";
import { atLeast } from "../../api/admin";
import { describeError } from "../../api/client";
import { useWorkspace } from "../../session";
import { PageHeader, When } from "../../components/ui";
import { ConfirmAction } from "../../components/ConfirmAction";
import { ResourceTable } from "../../components/ResourceTable";
import "./files.css";

/** A file that could not be uploaded, and why. */
interface Refused {
  name: string;
  why: string;
}

export function FilesPage() {
  const ws = useWorkspace();
  const projectId = ws.project?.id ?? "";
  const qc = useQueryClient();
  const files = useQuery({ queryKey: fileKeys.list(projectId), queryFn: () => listFiles(projectId) });
  const fileInput = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [refused, setRefused] = useState<Refused[]>([]);
  const [copied, setCopied] = useState("");
  const [deleting, setDeleting] = useState<ProjectFile | null>(null);
  const mayDelete = (f: ProjectFile) => f.createdBy?.id === ws.user.id || atLeast(ws.role, "Test Manager");

  const upload = useMutation({
    mutationFn: async (chosen: File[]) => {
      const failed: Refused[] = [];
      for (const f of chosen) {
        if (f.size > MAX_FILE_SIZE) {
          failed.push({ name: f.name, why: `it is ${formatSize(f.size)}; a file is at most 25 MiB` });
          continue;
        }
        try {
          await uploadFile(projectId, f);
        } catch (e) {
          failed.push({ name: f.name, why: describeError(e, ws.role) });
        }
      }
      return failed;
    },
    onSuccess: (failed) => setRefused(failed),
    onSettled: () => qc.invalidateQueries({ queryKey: ["files"] }),
  });
  const start = (list: FileList | null | undefined) => {
    const chosen = Array.from(list ?? []);
    if (chosen.length > 0) upload.mutate(chosen);
  };
  const onChosen = (e: ChangeEvent<HTMLInputElement>) => {
    start(e.target.files);
    e.target.value = ""; // the same file may be chosen again
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    start(e.dataTransfer?.files);
  };
  const copy = (id: string) => {
    void navigator.clipboard?.writeText(id).then(() => setCopied(id));
  };

  return (
    <section
      className={over ? "files-page dropping" : "files-page"}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setOver(false);
      }}
      onDrop={onDrop}
    >
      <PageHeader title="Files" subtitle="Files an upload step puts into a page's file input, named by their id. At most 25 MiB each.">
        <button type="button" className="primary" onClick={() => fileInput.current?.click()} disabled={upload.isPending}>
          {upload.isPending ? "Uploading…" : "Upload files…"}
        </button>
        <input ref={fileInput} type="file" multiple hidden aria-label="Files to upload" data-testid="upload-files" onChange={onChosen} />
      </PageHeader>
      <div className="files-drop" data-testid="files-drop" aria-hidden="true">
        {over ? "Drop to upload to this project" : "Or drop files anywhere on this page"}
      </div>
      {refused.length > 0 && (
        <div className="error-box" role="alert">
          <strong>{refused.length === 1 ? "A file was not uploaded" : `${refused.length} files were not uploaded`}</strong>
          <ul>
            {refused.map((r) => (
              <li key={r.name}>
                {r.name}: {r.why}
              </li>
            ))}
          </ul>
        </div>
      )}
      <ResourceTable
        query={files}
        rowKey={(f) => f.id}
        loadingLabel="Loading files"
        errorTitle="Files could not be loaded"
        empty={<>No files yet. Upload one to choose it in an upload step.</>}
        columns={[
          {
            header: "Name",
            cell: (f) => (
              <a href={fileContentUrl(f.id)} download={f.name}>
                {f.name}
              </a>
            ),
          },
          { header: "Size", className: "num", headerClassName: "num", cell: (f) => formatSize(f.size) },
          { header: "Uploaded by", cell: (f) => f.createdBy?.name ?? <span className="muted">a former member</span> },
          { header: "Uploaded", cell: (f) => <When at={f.createdAt} /> },
          {
            header: "Id",
            cell: (f) => (
              <>
                <code className="mono">{f.id}</code>{" "}
                <button type="button" className="small" aria-label={`Copy the id of ${f.name}`} onClick={() => copy(f.id)}>
                  {copied === f.id ? "Copied" : "Copy id"}
                </button>
              </>
            ),
          },
        ]}
        actionsClassName="files-actions"
        actions={(f) =>
          mayDelete(f) && (
            <button type="button" className="small" aria-label={`Delete ${f.name}`} onClick={() => setDeleting(f)}>
              Delete
            </button>
          )
        }
      />
      {deleting && <DeleteFile file={deleting} onClose={() => setDeleting(null)} />}
    </section>
  );
}

function DeleteFile({ file, onClose }: { file: ProjectFile; onClose: () => void }) {
  return (
    <ConfirmAction
      title={`Delete ${file.name}?`}
      confirmLabel="Delete file"
      action={() => deleteFile(file.id)}
      refresh={[["files"]]}
      onDone={onClose}
      onCancel={onClose}
    >
      <p>
        <strong>{file.name}</strong> is deleted; this cannot be undone. Upload steps that choose it fail, saying the file is gone, until
        another file is chosen in them.
      </p>
    </ConfirmAction>
  );
}
