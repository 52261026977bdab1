// The fields of a callComponent step: the component, chosen by name from
// the project's components; its version (the latest by default: the hub
// pins the call to the latest version when it is saved without one); and
// one field per input that version declares, its default as placeholder.
// A value left empty is not sent, so the default applies.
import { useMemo } from "react";
import { Link } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { componentKeys, getComponentVersion, listComponents, type ComponentInput } from "../../api";
import type { JsonObject } from "../../api/editorApi";
import { useProjectId } from "../../session";
import { str, stringMap, withField, type FieldIssue } from "./documentModel";
import { Field } from "./Field";
import { FieldErrors } from "./Problems";

/** useComponentNames names the project's components by id, for the lines of steps that call them (only fetched when wanted). */
export function useComponentNames(wanted: boolean): Record<string, string> | undefined {
  const projectId = useProjectId();
  const list = useQuery({
    queryKey: componentKeys.list(projectId),
    queryFn: ({ signal }) => listComponents(projectId, signal),
    enabled: wanted && projectId !== "",
  });
  return useMemo(() => (list.data ? Object.fromEntries(list.data.map((c) => [c.id, c.name])) : undefined), [list.data]);
}

export function CallComponentFields({
  step,
  onChange,
  issues,
}: {
  step: JsonObject;
  onChange: (step: JsonObject) => void;
  /** The step's issues by field: component, version, inputs. */
  issues: Record<string, FieldIssue[]>;
}) {
  const projectId = useProjectId();
  const list = useQuery({
    queryKey: componentKeys.list(projectId),
    queryFn: ({ signal }) => listComponents(projectId, signal),
    enabled: projectId !== "",
  });
  const id = str(step.component);
  const pinned = typeof step.version === "number" ? step.version : null;
  const comp = list.data?.find((c) => c.id === id) ?? null;
  const version = pinned ?? comp?.latestVersion ?? null;
  const ver = useQuery({
    queryKey: componentKeys.version(id, version ?? 0),
    queryFn: ({ signal }) => getComponentVersion(id, version ?? 0, signal),
    enabled: id !== "" && version !== null,
    staleTime: Infinity,
  });
  const inputs = stringMap(step.inputs);
  const declared: ComponentInput[] = ver.data?.inputs ?? [];
  const undeclared = Object.keys(inputs).filter((k) => ver.data && !declared.some((d) => d.name === k));

  const setInputs = (next: Record<string, string>) => onChange(withField(step, "inputs", Object.keys(next).length ? next : undefined));
  const setInput = (name: string, value: string) => {
    const next = { ...inputs };
    if (value === "") delete next[name];
    else next[name] = value;
    setInputs(next);
  };
  const chooseComponent = (to: string) => {
    let next = withField(step, "component", to === "" ? undefined : to);
    next = withField(next, "version", undefined);
    // Values for inputs the new component does not have would be refused.
    const keep = list.data?.find((c) => c.id === to)?.inputs.map((i) => i.name) ?? [];
    const kept = Object.fromEntries(Object.entries(inputs).filter(([k]) => keep.includes(k)));
    next = withField(next, "inputs", Object.keys(kept).length ? kept : undefined);
    onChange(next);
  };
  const inputIssues = issues.inputs ?? [];
  const issueFor = (name: string) => inputIssues.filter((i) => i.sub === `.${name}`);
  const otherInputIssues = inputIssues.filter((i) => !declared.some((d) => i.sub === `.${d.name}`));

  return (
    <>
      <Field label="Component" hint="Required. The component whose steps this step runs." issues={issues.component} className="param-wide">
        {(c) => (
          <div className="row call-component-pick">
            <select {...c} value={id} onChange={(e) => chooseComponent(e.target.value)}>
              <option value="">{list.isPending ? "Loading components…" : "(choose a component)"}</option>
              {id !== "" && !comp && !list.isPending && <option value={id}>{id} (not in this project)</option>}
              {list.data?.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.name} (v{x.latestVersion})
                </option>
              ))}
            </select>
            {comp && <Link to={`/components/${comp.id}`}>Open {comp.name}</Link>}
          </div>
        )}
      </Field>
      {list.isError && <p className="field-error">The components could not be loaded: {String((list.error as Error).message)}</p>}
      {list.data?.length === 0 && <p className="hint">This project has no components yet: select steps and choose Make component.</p>}
      <Field
        label="Component version"
        hint={
          pinned === null
            ? "The latest version when the test is saved; the call then stays on it until upgraded."
            : "The call runs this version until it is upgraded from the component's page."
        }
        issues={issues.version}
      >
        {(c) => (
          <select
            {...c}
            value={pinned === null ? "" : String(pinned)}
            disabled={id === ""}
            onChange={(e) => onChange(withField(step, "version", e.target.value === "" ? undefined : Number(e.target.value)))}
          >
            <option value="">{comp ? `Latest (v${comp.latestVersion})` : "Latest"}</option>
            {pinned !== null && (!comp || pinned > comp.latestVersion) && <option value={String(pinned)}>v{pinned}</option>}
            {comp &&
              Array.from({ length: comp.latestVersion }, (_, i) => comp.latestVersion - i).map((n) => (
                <option key={n} value={String(n)}>
                  v{n}
                </option>
              ))}
          </select>
        )}
      </Field>
      {id !== "" && (
        <fieldset className="param-wide call-inputs" aria-label="Inputs">
          <legend>Inputs{version !== null ? ` of v${version}` : ""}</legend>
          {ver.isPending && version !== null && <p className="muted">Loading the inputs…</p>}
          {ver.isError && <p className="field-error">The version's inputs could not be loaded: {(ver.error as Error).message}</p>}
          {ver.data && declared.length === 0 && <p className="muted">This version has no inputs.</p>}
          {declared.map((d) => (
            <Field
              key={d.name}
              label={d.name}
              hint={[d.default === null ? "Required." : `Default: ${JSON.stringify(d.default)}.`, d.description].filter(Boolean).join(" ")}
              issues={issueFor(d.name)}
            >
              {(c) => (
                <input
                  {...c}
                  value={inputs[d.name] ?? ""}
                  placeholder={d.default ?? ""}
                  required={d.default === null}
                  onChange={(e) => setInput(d.name, e.target.value)}
                />
              )}
            </Field>
          ))}
          {undeclared.map((k) => (
            <p key={k} className="field-error">
              v{version} has no input <code>{k}</code> (given {JSON.stringify(inputs[k])}).{" "}
              <button type="button" className="small" onClick={() => setInput(k, "")}>
                Remove {k}
              </button>
            </p>
          ))}
          <FieldErrors issues={otherInputIssues} />
        </fieldset>
      )}
    </>
  );
}
