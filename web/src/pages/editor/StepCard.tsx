// One step in the ordered list: its number, type and a one-line summary,
// the buttons that move, copy and remove it, and, expanded, its form.
import { useId } from "react";
import type { Registry, StepType } from "../../api";
import type { JsonObject } from "../../api/editorApi";
import { changeStepType, issueCount, str, summarize, type FieldIssue } from "./documentModel";
import { Field } from "./Field";
import { FieldErrors } from "./Problems";
import { StepForm } from "./StepForm";

export interface StepCardProps {
  index: number;
  count: number;
  step: JsonObject;
  registry: Registry;
  stepType: StepType | undefined;
  issues: Record<string, FieldIssue[]> | undefined;
  readOnly: boolean;
  expanded: boolean;
  onToggle: () => void;
  onChange: (step: JsonObject) => void;
  onMove: (delta: number) => void;
  onDuplicate: () => void;
  onRemove: () => void;
}

export function StepCard(props: StepCardProps) {
  const { index, count, step, registry, stepType, issues = {}, readOnly, expanded } = props;
  const id = useId();
  const n = index + 1;
  const type = str(step.type);
  const problems = issueCount(issues);
  const shown = new Set(["type", ...(stepType?.params.map((p) => p.name) ?? [])]);
  // Issues on the step itself or on members its form does not show (id, unknown ones).
  const own = Object.entries(issues)
    .filter(([field]) => !shown.has(field))
    .flatMap(([, list]) => list);
  const description = str(step.description);

  return (
    <li className={problems > 0 ? "step-card has-issues" : "step-card"}>
      <div className="step-head">
        <button type="button" className="step-toggle" aria-expanded={expanded} aria-controls={`${id}-body`} onClick={props.onToggle}>
          <span className="step-caret" aria-hidden="true">
            {expanded ? "▾" : "▸"}
          </span>
          Step {n}: <span className="step-type">{type || "(no type)"}</span>
        </button>
        <span className="step-summary" title={summarize(step)}>
          {summarize(step)}
          {description && <span className="muted"> — {description}</span>}
        </span>
        {problems > 0 && (
          <span className="step-problems">
            {problems} {problems === 1 ? "problem" : "problems"}
          </span>
        )}
        <span className="step-id mono muted">{str(step.id)}</span>
        {!readOnly && (
          <span className="row-buttons">
            <button
              type="button"
              className="small"
              aria-label={`Move step ${n} up`}
              title="Move up"
              disabled={index === 0}
              onClick={() => props.onMove(-1)}
            >
              ↑
            </button>
            <button
              type="button"
              className="small"
              aria-label={`Move step ${n} down`}
              title="Move down"
              disabled={index === count - 1}
              onClick={() => props.onMove(1)}
            >
              ↓
            </button>
            <button type="button" className="small" aria-label={`Duplicate step ${n}`} onClick={props.onDuplicate}>
              Duplicate
            </button>
            <button type="button" className="small" aria-label={`Remove step ${n}`} onClick={props.onRemove}>
              Remove
            </button>
          </span>
        )}
      </div>
      {expanded && (
        <fieldset id={`${id}-body`} className="step-body" disabled={readOnly} aria-label={`Step ${n} ${type}`}>
          <FieldErrors issues={own} />
          <Field label="type" hint={stepType?.description ?? "Not a step type this hub knows; choose one."} issues={issues.type}>
            {(c) => (
              <select
                {...c}
                value={type}
                onChange={(e) => {
                  const to = registry.stepTypes.find((t) => t.type === e.target.value);
                  if (to) props.onChange(changeStepType(step, to, registry.locatorKinds));
                }}
              >
                {!stepType && <option value={type}>{type || "(none)"}</option>}
                {registry.stepTypes.map((t) => (
                  <option key={t.type} value={t.type}>
                    {t.type}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {stepType && (
            <StepForm step={step} stepType={stepType} kinds={registry.locatorKinds} issues={issues} onChange={props.onChange} idBase={id} />
          )}
        </fieldset>
      )}
    </li>
  );
}
