// One component at /components/:id: its versions (each viewable), the
// tests that call it and at which version, and the impact of upgrading
// them to the latest version (?view=versions|usages|impact). Test
// Developers and up publish new versions, rename it, upgrade callers and
// delete it (refused while a test's current version calls it).
import { useState, type FormEvent, type KeyboardEvent } from "react";
import { Link, useLocation, useNavigate, useParams, useSearchParams } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  componentKeys,
  deleteComponent,
  getComponent,
  getComponentVersion,
  may,
  updateComponent,
  type Component,
  type ComponentInput,
  type Registry,
} from "../../api";
import { fetchRegistry, type JsonObject } from "../../api/editorApi";
import { Confirm, Empty, ErrorBox, IssueList, Loading, Modal, PageHeader, StatusBadge, When } from "../../components/ui";
import { useFollowProject, useWorkspace } from "../../session";
import { describeStep } from "../editor/stepText";
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

function Versions({ component: c, registry }: { component: Component; registry: Registry | undefined }) {
  const [params, setParams] = useSearchParams();
  const shown = Number(params.get("version")) || null;
  const versions = [...c.versions].sort((a, b) => b.version - a.version);
  const open = (n: number | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (n === null) next.delete("version");
        else next.set("version", String(n));
        return next;
      },
      { replace: true },
    );
  return (
    <>
      <table className="table cmp-versions">
        <thead>
          <tr>
            <th>Version</th>
            <th>Author</th>
            <th>Published</th>
            <th>Note</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.version} className={shown === v.version ? "selected" : undefined}>
              <td className="mono">
                v{v.version}
                {v.version === c.latestVersion && <span className="badge badge-ready cmp-latest">latest</span>}
              </td>
              <td>{v.author?.name ?? <span className="muted">—</span>}</td>
              <td>
                <When at={v.createdAt} />
              </td>
              <td>{v.note || <span className="muted">—</span>}</td>
              <td className="row-actions">
                <button
                  type="button"
                  className="small"
                  aria-label={`View v${v.version}`}
                  aria-pressed={shown === v.version}
                  onClick={() => open(shown === v.version ? null : v.version)}
                >
                  {shown === v.version ? "Hide" : "View"}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown !== null && <VersionViewer componentId={c.id} version={shown} registry={registry} onClose={() => open(null)} />}
    </>
  );
}

function VersionViewer({
  componentId,
  version,
  registry,
  onClose,
}: {
  componentId: string;
  version: number;
  registry: Registry | undefined;
  onClose: () => void;
}) {
  const v = useQuery({
    queryKey: componentKeys.version(componentId, version),
    queryFn: ({ signal }) => getComponentVersion(componentId, version, signal),
    staleTime: Infinity,
  });
  return (
    <section className="panel cmp-version" aria-labelledby="cmp-version-title">
      <div className="row">
        <h2 id="cmp-version-title">Version v{version}</h2>
        <span className="spacer" />
        <button type="button" className="small" onClick={onClose}>
          Close
        </button>
      </div>
      {v.isPending && <Loading label="Loading the version" />}
      <ErrorBox error={v.error} />
      {v.data && (
        <>
          {v.data.note && <p>Note: {v.data.note}</p>}
          <h3>Inputs</h3>
          <InputsTable inputs={v.data.inputs} />
          <h3>Steps ({v.data.steps.length})</h3>
          <ol className="cmp-step-list">
            {v.data.steps.map((s, i) => (
              <li key={i}>
                {registry ? describeStep(s as unknown as JsonObject, registry) : s.type} <span className="mono muted">{s.id}</span>
              </li>
            ))}
          </ol>
          <details>
            <summary>Steps as JSON</summary>
            <pre className="mono cmp-json">{JSON.stringify(v.data.steps, null, 2)}</pre>
          </details>
        </>
      )}
    </section>
  );
}

export function InputsTable({ inputs }: { inputs: ComponentInput[] }) {
  if (inputs.length === 0) return <p className="muted">No inputs.</p>;
  return (
    <table className="table cmp-inputs-view">
      <thead>
        <tr>
          <th>Name</th>
          <th>Default</th>
          <th>Description</th>
        </tr>
      </thead>
      <tbody>
        {inputs.map((i) => (
          <tr key={i.name}>
            <td className="mono">{"${" + i.name + "}"}</td>
            <td>{i.default === null ? <em>required</em> : <span className="mono">{JSON.stringify(i.default)}</span>}</td>
            <td>{i.description || <span className="muted">—</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Usages({ component: c }: { component: Component }) {
  if (c.usages.length === 0) return <Empty>No test you can see calls this component.</Empty>;
  const usages = [...c.usages].sort((a, b) => a.testName.localeCompare(b.testName) || b.testVersion - a.testVersion);
  return (
    <>
      <p className="hint">
        Every version of a test you can see that calls this component. Only a test's current version counts as a usage; older versions are
        its history.
      </p>
      <table className="table cmp-usages">
        <thead>
          <tr>
            <th>Test</th>
            <th>Test version</th>
            <th>Calls</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {usages.map((u) => (
            <tr key={`${u.testId}:${u.testVersion}:${u.componentVersion}`} className={u.current ? undefined : "cmp-history"}>
              <td>
                <Link to={`/tests/${u.testId}`}>{u.testName}</Link>
              </td>
              <td>
                <Link to={`/tests/${u.testId}/versions?view=${u.testVersion}`} className="mono">
                  v{u.testVersion}
                </Link>{" "}
                <span className="muted">{u.current ? "current" : "earlier version"}</span>
              </td>
              <td>
                <span className="mono">v{u.componentVersion}</span>{" "}
                {u.componentVersion === c.latestVersion ? (
                  <span className="muted">latest</span>
                ) : (
                  <span className="cmp-behind">{c.latestVersion - u.componentVersion} behind</span>
                )}
              </td>
              <td>
                <StatusBadge status={u.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
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
