// Writing a component: /components/new makes version 1 from scratch (name,
// description, inputs, steps); /components/:id/publish publishes the next
// version from the latest one's steps and inputs, with a note. Leaving with
// unsaved work asks first.
import { useEffect, useId, useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  ApiError,
  componentKeys,
  createComponent,
  getComponent,
  inputsForSave,
  may,
  publishComponentVersion,
  type Component,
  type ComponentInput,
  type Registry,
} from "../../api";
import { fetchRegistry, type JsonObject } from "../../api/editorApi";
import { ErrorBox, Loading, PageHeader } from "../../components/ui";
import { useFollowProject, useWorkspace } from "../../session";
import { DISCARDED, LeaveGuard } from "../editor/LeaveGuard";
import { InputsEditor } from "./InputsEditor";
import { applyDraft, draftChanged, StepsEditor, useStepsDraft } from "./StepsEditor";
import "../editor/editor.css";
import "./components.css";

export function NewComponentPage() {
  const registry = useQuery({ queryKey: ["registry"], queryFn: fetchRegistry, staleTime: Infinity });
  if (registry.isError) return <ErrorBox error={registry.error} />;
  if (registry.isPending) return <Loading label="Loading the step types" />;
  return <ComponentForm registry={registry.data} component={null} />;
}

export function PublishVersionPage() {
  const { id = "" } = useParams();
  const registry = useQuery({ queryKey: ["registry"], queryFn: fetchRegistry, staleTime: Infinity });
  // gcTime 0: the draft starts from the latest version as it is now.
  const comp = useQuery({ queryKey: componentKeys.detail(id), queryFn: ({ signal }) => getComponent(id, signal), gcTime: 0 });
  useFollowProject(comp.data?.projectId);
  if (registry.isError || comp.isError) {
    return (
      <>
        <PageHeader title="Publish a new version" />
        <ErrorBox error={comp.error ?? registry.error} />
        <Link to="/components">Back to components</Link>
      </>
    );
  }
  if (registry.isPending || comp.isPending) return <Loading label="Loading the component" />;
  return <ComponentForm registry={registry.data} component={comp.data} />;
}

function issuesOf(err: unknown) {
  return err instanceof ApiError ? err.issues : [];
}

function ComponentForm({ registry, component }: { registry: Registry; component: Component | null }) {
  const ws = useWorkspace();
  const id = useId();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const latest = component?.versions.find((v) => v.version === component.latestVersion) ?? null;
  const startSteps = (latest?.steps ?? []) as unknown as JsonObject[];
  const startInputs: ComponentInput[] = latest?.inputs ?? [];
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [inputs, setInputs] = useState<ComponentInput[]>(startInputs);
  const [note, setNote] = useState("");
  const draft = useStepsDraft(startSteps);
  const canManage = may.manageSuites(ws.role);

  const send = useMutation({
    mutationFn: async (steps: JsonObject[]) => {
      const ins = inputsForSave(inputs);
      if (!component) {
        const res = await createComponent(ws.project?.id ?? "", {
          name: name.trim(),
          ...(description.trim() ? { description: description.trim() } : {}),
          ...(ins.length ? { inputs: ins } : {}),
          steps,
        });
        return { id: res.component.id, version: 1 };
      }
      const v = await publishComponentVersion(component.id, { steps, inputs: ins, ...(note.trim() ? { note: note.trim() } : {}) });
      return { id: component.id, version: v.version };
    },
    onSuccess: async (res) => {
      await qc.invalidateQueries({ queryKey: ["components"] });
      navigate(`/components/${res.id}`, { state: { ...DISCARDED, published: res.version } });
    },
  });
  const issues = issuesOf(send.error);
  const fieldIssue = (path: string) => issues.find((i) => i.path === path)?.message;
  const inputIssues = issues.filter((i) => i.path.startsWith("inputs"));
  const stepIssues = issues.filter((i) => i.path.startsWith("steps"));
  const otherIssues = issues.filter(
    (i) => !i.path.startsWith("inputs") && !i.path.startsWith("steps") && !["name", "description", "note"].includes(i.path),
  );

  const changed =
    name !== "" ||
    description !== "" ||
    note !== "" ||
    JSON.stringify(inputs) !== JSON.stringify(startInputs) ||
    draftChanged(draft, startSteps);

  // Reloading or closing the tab asks too.
  const guard = changed && !send.isSuccess;
  useEffect(() => {
    if (!guard) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [guard]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const steps = applyDraft(draft);
    if (steps) send.mutate(steps);
  };
  const next = component ? component.latestVersion + 1 : 1;
  if (!canManage) {
    return (
      <>
        <PageHeader title={component ? `Publish a new version of ${component.name}` : "New component"} />
        <p className="notice">
          Test Developers, Test Managers and Admins write components; your role in this project is {ws.role ?? "none"}.
        </p>
      </>
    );
  }
  return (
    <form className="cmp-editor" onSubmit={submit} noValidate>
      <PageHeader
        title={component ? `Publish version v${next} of ${component.name}` : "New component"}
        subtitle={
          component
            ? `Starts from v${component.latestVersion}. Tests keep calling the version they are pinned to until they are upgraded.`
            : "A reusable group of steps. Tests call it with a callComponent step, pinned to a version."
        }
      >
        <Link className="button" to={component ? `/components/${component.id}` : "/components"}>
          Cancel
        </Link>
        <button type="submit" className="primary" disabled={send.isPending}>
          {send.isPending ? "Sending…" : component ? `Publish v${next}` : "Create component"}
        </button>
      </PageHeader>
      <div className="panel cmp-fields">
        {!component && (
          <>
            <div className="field">
              <label htmlFor={`${id}-name`}>Name</label>
              <input
                id={`${id}-name`}
                required
                autoFocus
                maxLength={100}
                value={name}
                onChange={(e) => setName(e.target.value)}
                aria-invalid={!!fieldIssue("name") || undefined}
              />
              {fieldIssue("name") && <span className="field-error">{fieldIssue("name")}</span>}
            </div>
            <div className="field">
              <label htmlFor={`${id}-description`}>Description</label>
              <textarea
                id={`${id}-description`}
                maxLength={2000}
                rows={2}
                value={description}
                onChange={(e) => setDescription(e.target.value)}
              />
              {fieldIssue("description") && <span className="field-error">{fieldIssue("description")}</span>}
            </div>
          </>
        )}
        {component && (
          <div className="field">
            <label htmlFor={`${id}-note`}>Note</label>
            <input
              id={`${id}-note`}
              maxLength={500}
              value={note}
              placeholder="e.g. The sign-in form has a new button"
              onChange={(e) => setNote(e.target.value)}
              aria-describedby={`${id}-note-hint`}
            />
            <span className="hint" id={`${id}-note-hint`}>
              What changed in this version, for the people who upgrade their tests to it.
            </span>
            {fieldIssue("note") && <span className="field-error">{fieldIssue("note")}</span>}
          </div>
        )}
        <InputsEditor inputs={inputs} onChange={setInputs} issues={inputIssues} idBase={id} />
      </div>
      <ErrorBox error={send.error} title={component ? "The version was not published" : "The component was not created"} />
      {otherIssues.length > 0 && (
        <ul className="issue-list">
          {otherIssues.map((i, n) => (
            <li key={n}>
              <code>{i.path}</code> {i.message}
            </li>
          ))}
        </ul>
      )}
      <StepsEditor draft={draft} registry={registry} issues={stepIssues} projectId={component?.projectId ?? ws.project?.id ?? ""} />
      <LeaveGuard when={guard} what={component ? "This new version has unsaved changes" : "This new component has unsaved changes"} />
    </form>
  );
}
