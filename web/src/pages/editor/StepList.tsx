// The test's steps in order, and "Add step" at the end. A step opens on a
// click, when it is added, and whenever it has problems to show.
import { useMemo, useState } from "react";
import type { Registry } from "../../api";
import type { JsonObject } from "../../api/editorApi";
import { duplicateStep, moveItem, newStep, stepKeys, str, type FieldIssue } from "./documentModel";
import { StepCard } from "./StepCard";

export function StepList({
  steps,
  registry,
  readOnly,
  issues,
  onChange,
}: {
  steps: JsonObject[];
  registry: Registry;
  readOnly: boolean;
  /** Issues by step key (see stepKeys), then by field. */
  issues: Record<string, Record<string, FieldIssue[]>>;
  onChange: (steps: JsonObject[]) => void;
}) {
  const [open, setOpen] = useState<Set<string>>(() => new Set(Object.keys(issues)));
  const [shownIssues, setShownIssues] = useState(issues);
  if (issues !== shownIssues) {
    // New problems open the steps they are on.
    setShownIssues(issues);
    setOpen((prev) => new Set([...prev, ...Object.keys(issues)]));
  }
  const [newType, setNewType] = useState(registry.stepTypes[0]?.type ?? "");
  const types = useMemo(() => new Map(registry.stepTypes.map((t) => [t.type, t])), [registry]);
  const keys = stepKeys(steps);

  const toggle = (key: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const add = () => {
    const type = types.get(newType);
    if (!type) return;
    const step = newStep(type, steps, registry.locatorKinds);
    const next = [...steps, step];
    onChange(next);
    setOpen((prev) => new Set(prev).add(stepKeys(next)[next.length - 1]));
  };

  return (
    <section className="panel editor-steps" aria-labelledby="editor-steps-title">
      <h2 id="editor-steps-title">Steps ({steps.length})</h2>
      {steps.length === 0 && <p className="muted">No steps yet. Add the first one below, or record it with the agent.</p>}
      <ol className="step-list">
        {steps.map((step, i) => {
          const key = keys[i];
          return (
            <StepCard
              key={key}
              index={i}
              count={steps.length}
              step={step}
              registry={registry}
              stepType={types.get(str(step.type))}
              issues={issues[key]}
              readOnly={readOnly}
              expanded={open.has(key)}
              onToggle={() => toggle(key)}
              onChange={(s) => onChange(steps.map((old, j) => (j === i ? s : old)))}
              onMove={(delta) => onChange(moveItem(steps, i, i + delta))}
              onDuplicate={() => onChange(duplicateStep(steps, i))}
              onRemove={() => onChange(steps.filter((_, j) => j !== i))}
            />
          );
        })}
      </ol>
      {!readOnly && (
        <div className="row add-step">
          <label className="inline-label" htmlFor="editor-new-step-type">
            Step type
          </label>
          <select id="editor-new-step-type" value={newType} onChange={(e) => setNewType(e.target.value)}>
            {registry.stepTypes.map((t) => (
              <option key={t.type} value={t.type} title={t.description}>
                {t.type}
              </option>
            ))}
          </select>
          <button type="button" onClick={add}>
            Add step
          </button>
          <span className="hint">{types.get(newType)?.description}</span>
        </div>
      )}
    </section>
  );
}
