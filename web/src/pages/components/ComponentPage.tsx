// One component at /components/:id: its versions (each viewable), the
// tests that call it and at which version, and the impact of upgrading
// them to the latest version (?view=versions|usages|impact). Test
// Developers and up publish new versions, rename it, upgrade callers and
// delete it (refused while a test's current version calls it).
import { useState, type FormEvent, type KeyboardEvent } from "react";
import { Link, useLocation, useNavigate, useParams, useSearchParams } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { componentKeys, deleteComponent, getComponent, may, updateComponent, type Component, type Registry } from "../../api";
import { fetchRegistry } from "../../api/editorApi";
import { Confirm, ErrorBox, IssueList, Loading, Modal, PageHeader, When } from "../../components/ui";
import { useFollowProject, useWorkspace } from "../../session";
import { Usages, Versions } from "./ComponentVersions";
import { ImpactView } from "./ImpactView";
import "../editor/editor.css";
import "./components.css";

const VIEWS = [
  ["versions", "Versions"],
  ["usages", "Usages"],
  ["impact", "Impact"],
] as const;
type View = (typeof VIEWS)[number][0];

export function ComponentPage() {
  const { id = "" } = useParams();
  const comp = useQuery({ queryKey: componentKeys.detail(id), queryFn: ({ signal }) => getComponent(id, signal) });
  const registry = useQuery({ queryKey: ["registry"], queryFn: fetchRegistry, staleTime: Infinity });
  useFollowProject(comp.data?.projectId);
  if (comp.isError) {
    return (
      <>
        <PageHeader title="Component" />
        <ErrorBox error={comp.error} />
        <Link to="/components">Back to components</Link>
      </>
    );
  }
  if (comp.isPending) return <Loading label="Loading the component" />;
  return <ComponentDetail component={comp.data} registry={registry.data} />;
}

function ComponentDetail({ component: c, registry }: { component: Component; registry: Registry | undefined }) {
  const ws = useWorkspace();
  const canManage = may.manageSuites(ws.role);
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const published = (location.state as { published?: number } | null)?.published;
  const view: View = VIEWS.some(([v]) => v === params.get("view")) ? (params.get("view") as View) : "versions";
  const [dialog, setDialog] = useState<"rename" | "delete" | null>(null);
  const show = (v: View) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.set("view", v);
        return next;
      },
      { replace: true, state: location.state },
    );
  const onTabKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    e.preventDefault();
    const i = VIEWS.findIndex(([v]) => v === view);
    const next = VIEWS[(i + (e.key === "ArrowRight" ? 1 : VIEWS.length - 1)) % VIEWS.length][0];
    show(next);
    e.currentTarget.querySelector<HTMLButtonElement>(`#cmp-tab-${next}`)?.focus();
  };
  const current = c.usages.filter((u) => u.current);
  return (
    <section className="component-page">
      <PageHeader
        title={c.name}
        subtitle={
          <span className="cmp-meta">
            <span className="mono">v{c.latestVersion}</span>
            <span>Created by {c.createdBy?.name ?? "—"}</span>
            <span>
              Updated <When at={c.updatedAt} />
            </span>
            <Link to="/components">All components</Link>
          </span>
        }
      >
        {canManage && (
          <>
            <Link className="button primary" to={`/components/${c.id}/publish`}>
              Publish new version
            </Link>
            <button type="button" onClick={() => setDialog("rename")}>
              Rename
            </button>
            <button type="button" className="danger-outline" onClick={() => setDialog("delete")}>
              Delete
            </button>
          </>
        )}
      </PageHeader>
      {c.description && <p className="cmp-about">{c.description}</p>}
      {published && (
        <p className="ok-box" role="status">
          {published === 1
            ? `Component ${c.name} created as v1.`
            : `Version v${published} published. Tests keep calling their pinned version until they are upgraded (see Impact).`}
        </p>
      )}
      <div role="tablist" aria-label="Component view" className="editor-tabs cmp-tabs" onKeyDown={onTabKey}>
        {VIEWS.map(([v, label]) => (
          <button
            key={v}
            id={`cmp-tab-${v}`}
            type="button"
            role="tab"
            aria-selected={view === v}
            aria-controls="cmp-panel"
            tabIndex={view === v ? 0 : -1}
            onClick={() => show(v)}
          >
            {v === "usages" ? `${label} (${current.length})` : label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="cmp-panel" aria-labelledby={`cmp-tab-${view}`} className="cmp-panel">
        {view === "versions" && <Versions component={c} registry={registry} />}
        {view === "usages" && <Usages component={c} />}
        {view === "impact" && <ImpactView component={c} registry={registry} canManage={canManage} />}
      </div>
      {dialog === "rename" && <RenameComponent component={c} onClose={() => setDialog(null)} />}
      {dialog === "delete" && <DeleteComponent component={c} onClose={() => setDialog(null)} />}
    </section>
  );
}

function RenameComponent({ component: c, onClose }: { component: Component; onClose: () => void }) {
  const qc = useQueryClient();
  const [name, setName] = useState(c.name);
  const [description, setDescription] = useState(c.description);
  const save = useMutation({
    mutationFn: () => updateComponent(c.id, { name: name.trim(), description: description.trim() }),
    onSuccess: async (res) => {
      qc.setQueryData(componentKeys.detail(c.id), res);
      await qc.invalidateQueries({ queryKey: ["components"] });
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <Modal title={`Rename ${c.name}`} onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <label>
          Name
          <input required autoFocus maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Description
          <textarea maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} />
        </label>
        <p className="hint">The name and description are not versioned: tests call the component by its id.</p>
        <ErrorBox error={save.error} />
        <IssueList error={save.error} />
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={save.isPending || !name.trim()}>
            {save.isPending ? "Saving…" : "Save"}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function DeleteComponent({ component: c, onClose }: { component: Component; onClose: () => void }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => deleteComponent(c.id),
    onSuccess: async () => {
      qc.removeQueries({ queryKey: componentKeys.detail(c.id) });
      await qc.invalidateQueries({ queryKey: ["components"] });
      navigate("/components");
    },
  });
  const used = c.usages.filter((u) => u.current).length;
  return (
    <Confirm
      title={`Delete component ${c.name}?`}
      confirmLabel="Delete component"
      danger
      busy={remove.isPending}
      error={remove.error}
      onConfirm={() => remove.mutate()}
      onCancel={onClose}
    >
      <p>
        This deletes all {c.versions.length} version{c.versions.length === 1 ? "" : "s"} of <strong>{c.name}</strong>. It cannot be undone.
      </p>
      <p className="hint">
        {used > 0
          ? `${used} test${used === 1 ? "" : "s"} you can see still call${used === 1 ? "s" : ""} it: the hub refuses the delete until no test's current version and no other component calls it.`
          : "A component still called by a test's current version or by another component cannot be deleted."}
      </p>
    </Confirm>
  );
}
