// A component's steps, edited with the test editor's step list (form) or
// as a JSON array. The JSON text stays a draft until applied, or until the
// form tab is chosen or the version is sent; a draft that does not parse
// is never thrown away.
import { useMemo, useState } from "react";
import type { Issue, Registry } from "../../api";
import { isObject, placeIssues, stepKeyMap } from "../editor/documentModel";
import type { JsonObject } from "../../api/editorApi";
import { StepList } from "../editor/StepList";
import { ComponentRecord } from "./ComponentRecord";

export interface StepsDraft {
  steps: JsonObject[];
  setSteps: (steps: JsonObject[]) => void;
  view: "form" | "json";
  /** The JSON text being edited, or null when it is the steps as they are. */
  jsonText: string | null;
  setJsonText: (t: string | null) => void;
  jsonError: string | null;
  setJsonError: (e: string | null) => void;
  setView: (v: "form" | "json") => void;
}

export function useStepsDraft(initial: JsonObject[]): StepsDraft {
  const [steps, setSteps] = useState(initial);
  const [view, setView] = useState<"form" | "json">("form");
  const [jsonText, setJsonText] = useState<string | null>(null);
  const [jsonError, setJsonError] = useState<string | null>(null);
  return { steps, setSteps, view, setView, jsonText, setJsonText, jsonError, setJsonError };
}

export const formatSteps = (steps: JsonObject[]) => JSON.stringify(steps, null, 2);

/** parseSteps reads the JSON tab's text: a list of step objects. */
export function parseSteps(text: string): { steps: JsonObject[] } | { error: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { error: `Not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!Array.isArray(v)) return { error: "The steps must be a JSON list: [ { … }, … ]." };
  const bad = v.findIndex((s) => !isObject(s));
  if (bad >= 0) return { error: `Step ${bad + 1} must be an object: { … }.` };
  return { steps: v as JsonObject[] };
}

/** applyDraft puts the JSON draft into the steps: the steps to use, or null (the error is shown). */
export function applyDraft(d: StepsDraft): JsonObject[] | null {
  if (d.jsonText === null) return d.steps;
  const parsed = parseSteps(d.jsonText);
  if ("error" in parsed) {
    d.setJsonError(parsed.error);
    return null;
  }
  d.setJsonError(null);
  d.setJsonText(null);
  d.setSteps(parsed.steps);
  return parsed.steps;
}

/** draftChanged tells whether the draft differs from the steps it started from. */
export function draftChanged(d: StepsDraft, from: JsonObject[]): boolean {
  if (d.jsonText !== null && d.jsonText !== formatSteps(d.steps)) return true;
  return formatSteps(d.steps) !== formatSteps(from);
}

export function StepsEditor({
  draft,
  registry,
  issues,
  projectId,
}: {
  draft: StepsDraft;
  registry: Registry;
  issues: Issue[];
  /** The component's project: Record captures steps on the caller's agent there. */
  projectId: string;
}) {
  const keys = stepKeyMap(draft.steps);
  const placed = useMemo(() => placeIssues(issues, keys), [issues, [...keys.values()].join(" ")]); // eslint-disable-line react-hooks/exhaustive-deps
  const stepTop = placed.top.filter((i) => i.path === "steps" || i.path.startsWith("steps"));
  const pending = draft.jsonText !== null && draft.jsonText !== formatSteps(draft.steps);
  const showForm = () => {
    if (applyDraft(draft)) draft.setView("form");
  };
  const showJson = () => {
    draft.setJsonText(null);
    draft.setJsonError(null);
    draft.setView("json");
  };
  return (
    <section className="cmp-steps" aria-label="Component steps">
      <div role="tablist" aria-label="Steps view" className="editor-tabs">
        {(
          [
            ["form", "Form", showForm],
            ["json", "JSON", showJson],
          ] as const
        ).map(([v, label, go]) => (
          <button key={v} type="button" role="tab" aria-selected={draft.view === v} onClick={go}>
            {label}
          </button>
        ))}
      </div>
      {draft.view === "form" && projectId !== "" && (
        <ComponentRecord projectId={projectId} registry={registry} steps={draft.steps} onSteps={draft.setSteps} />
      )}
      {stepTop.length > 0 && (
        <ul className="issue-list">
          {stepTop.map((i, n) => (
            <li key={n}>
              <code>{i.path}</code> {i.message}
            </li>
          ))}
        </ul>
      )}
      {draft.view === "form" ? (
        <StepList steps={draft.steps} registry={registry} readOnly={false} issues={placed.steps} onChange={draft.setSteps} />
      ) : (
        <div className="panel">
          <label htmlFor="cmp-steps-json">Steps JSON</label>
          <textarea
            id="cmp-steps-json"
            className="mono json-text"
            rows={20}
            spellCheck={false}
            value={draft.jsonText ?? formatSteps(draft.steps)}
            onChange={(e) => draft.setJsonText(e.target.value)}
            aria-describedby="cmp-steps-json-hint"
          />
          <span className="hint" id="cmp-steps-json-hint">
            A list of steps as in a test document. It is applied when you go back to the form or send the version.
          </span>
          {draft.jsonError && (
            <div className="error-box" role="alert">
              {draft.jsonError}
            </div>
          )}
          <div className="row">
            <button type="button" onClick={() => applyDraft(draft)} disabled={!pending}>
              Apply JSON
            </button>
            {pending && <span className="hint">Not applied yet.</span>}
          </div>
        </div>
      )}
    </section>
  );
}
