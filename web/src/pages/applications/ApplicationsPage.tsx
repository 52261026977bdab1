// Applications: the systems under test of a project, each a name, a base
// URL and a description. An environment may name one; its runs then get the
// base URL as ${baseUrl}. Test Managers and Admins manage them.
import { useMemo, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { deleteApplication, keys, listApplications, listEnvironments, may, saveApplication, type Application } from "../../api/admin";
import { ApiError } from "../../api";
import { useProjectId, useWorkspace } from "../../session";
import { ErrorBox, IssueList, Modal, PageHeader } from "../../components/ui";
import { ConfirmAction } from "../../components/ConfirmAction";
import { ResourceTable } from "../../components/ResourceTable";
import "./applications.css";

export function ApplicationsPage() {
  const ws = useWorkspace();
  const canManage = may.manageEnvironments(ws.role);
  const projectId = ws.project?.id ?? "";
  const apps = useQuery({ queryKey: keys.applications(projectId), queryFn: () => listApplications(projectId) });
  const envs = useQuery({ queryKey: keys.environments(projectId), queryFn: () => listEnvironments(projectId) });
  const [editing, setEditing] = useState<Application | "new" | null>(null);
  const [deleting, setDeleting] = useState<Application | null>(null);

  /** Names of the environments that use each application. */
  const usedBy = useMemo(() => {
    const m = new Map<string, string[]>();
    for (const e of envs.data ?? []) {
      if (e.applicationId) m.set(e.applicationId, [...(m.get(e.applicationId) ?? []), e.name]);
    }
    return m;
  }, [envs.data]);

  return (
    <section className="applications">
      <PageHeader
        title="Applications"
        subtitle="The systems under test. An environment that names one gives its runs the base URL as ${baseUrl}."
      >
        {canManage && (
          <button type="button" className="primary" onClick={() => setEditing("new")}>
            New application
          </button>
        )}
      </PageHeader>
      {!canManage && (
        <p className="notice">Test Managers and Admins manage applications; your role in this project is {ws.role ?? "none"}.</p>
      )}
      <ResourceTable
        query={apps}
        rowKey={(a) => a.id}
        loadingLabel="Loading applications"
        errorTitle="Applications could not be loaded"
        empty={<>No applications yet.{canManage ? " Add the site you test, with its base URL." : ""}</>}
        columns={[
          { header: "Name", cell: (a) => <strong>{a.name}</strong> },
          { header: "Base URL", className: "mono app-url", cell: (a) => a.baseUrl },
          { header: "Description", className: "app-description", cell: (a) => a.description || <span className="muted">—</span> },
          {
            header: "Environments",
            cell: (a) => {
              const used = usedBy.get(a.id) ?? [];
              return used.length ? <Link to="/environments">{used.join(", ")}</Link> : <span className="muted">none</span>;
            },
          },
        ]}
        actionsClassName="app-actions"
        actions={
          canManage
            ? (a) => (
                <>
                  <button type="button" className="small" aria-label={`Edit ${a.name}`} onClick={() => setEditing(a)}>
                    Edit
                  </button>
                  <button type="button" className="small" aria-label={`Delete ${a.name}`} onClick={() => setDeleting(a)}>
                    Delete
                  </button>
                </>
              )
            : undefined
        }
      />
      {editing && <ApplicationForm app={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && <DeleteApplication app={deleting} usedBy={usedBy.get(deleting.id) ?? []} onClose={() => setDeleting(null)} />}
    </section>
  );
}

function issueFor(err: unknown, path: string): string | undefined {
  return err instanceof ApiError ? err.issues.find((i) => i.path === path)?.message : undefined;
}

function ApplicationForm({ app, onClose }: { app: Application | null; onClose: () => void }) {
  const qc = useQueryClient();
  const projectId = useProjectId();
  const [name, setName] = useState(app?.name ?? "");
  const [baseUrl, setBaseUrl] = useState(app?.baseUrl ?? "");
  const [description, setDescription] = useState(app?.description ?? "");
  const save = useMutation({
    mutationFn: () =>
      saveApplication(projectId, { ...(app ? { id: app.id } : {}), name: name.trim(), baseUrl: baseUrl.trim(), description }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ["applications"] });
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const nameIssue = issueFor(save.error, "name");
  const urlIssue = issueFor(save.error, "baseUrl");
  const descIssue = issueFor(save.error, "description");
  const shown = [nameIssue, urlIssue, descIssue].some(Boolean);
  return (
    <Modal title={app ? `Edit application ${app.name}` : "New application"} onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <div className="field">
          <label>
            Name
            <input required autoFocus maxLength={100} value={name} onChange={(e) => setName(e.target.value)} aria-invalid={!!nameIssue} />
          </label>
          {nameIssue && <span className="field-error">{nameIssue}</span>}
        </div>
        <div className="field">
          <label>
            Base URL
            <input
              required
              type="url"
              placeholder="https://shop.example.com"
              maxLength={2048}
              value={baseUrl}
              onChange={(e) => setBaseUrl(e.target.value)}
              aria-invalid={!!urlIssue}
              aria-describedby="app-url-hint"
            />
          </label>
          <span className="hint" id="app-url-hint">
            Steps write <code>{"${baseUrl}/login"}</code>; a trailing slash is dropped. Keep credentials out of it: use secrets.
          </span>
          {urlIssue && <span className="field-error">{urlIssue}</span>}
        </div>
        <div className="field">
          <label>
            Description
            <textarea maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} aria-invalid={!!descIssue} />
          </label>
          {descIssue && <span className="field-error">{descIssue}</span>}
        </div>
        {!shown && <ErrorBox error={save.error} />}
        {!shown && <IssueList error={save.error} />}
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={save.isPending}>
            {save.isPending ? "Saving…" : app ? "Save" : "Create application"}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function DeleteApplication({ app, usedBy, onClose }: { app: Application; usedBy: string[]; onClose: () => void }) {
  return (
    <ConfirmAction
      title={`Delete application ${app.name}?`}
      confirmLabel="Delete application"
      action={() => deleteApplication(app.id)}
      refresh={[["applications"], ["environments"]]}
      onDone={onClose}
      onCancel={onClose}
    >
      <p>
        Application <strong>{app.name}</strong> ({app.baseUrl}) is deleted.{" "}
        {usedBy.length > 0
          ? `The environments that use it (${usedBy.join(", ")}) stay, without an application: their runs no longer get its base URL.`
          : "No environment uses it."}
      </p>
    </ConfirmAction>
  );
}
