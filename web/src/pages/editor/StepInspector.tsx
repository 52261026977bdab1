// The selected step's fields beside the list, under human labels: its
// type, then the form its type's parameters generate, with the step's
// issues beside the fields they name.
import { useId } from "react";
import type { Registry, StepType } from "../../api";
import type { JsonObject } from "../../api/editorApi";
import { changeStepType, str, type FieldIssue } from "./documentModel";
import { Field } from "./Field";
import { FieldErrors } from "./Problems";
import { StepForm } from "./StepForm";

export function StepInspector({
  number,
  step,
  text,
  registry,
  stepType,
  issues = {},
  readOnly,
  onChange,
}: {
  /** Its outline number: 3, 3.1. */
  number: string;
  step: JsonObject;
  text: string;
  registry: Registry;
  stepType: StepType | undefined;
  issues: Record<string, FieldIssue[]> | undefined;
  readOnly: boolean;
  onChange: (step: JsonObject) => void;
}) {
  const id = useId();
  const n = number;
  const type = str(step.type);
  // A block's steps and else show in the list; their issues too, on the steps.
  const shown = new Set(["type", ...(stepType?.params.filter((p) => p.type !== "steps").map((p) => p.name) ?? [])]);
  // Issues on the step itself or on members its form does not show (id, unknown ones).
  const own = Object.entries(issues)
    .filter(([field]) => !shown.has(field))
    .flatMap(([, list]) => list);
  return (
    <section className="panel inspector" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        Step {n} <span className="mono muted">{str(step.id)}</span>
      </h2>
      <p className="inspector-text">{text}</p>
      <fieldset className="step-body" disabled={readOnly} aria-label={`Step ${n} ${type}`}>
        <FieldErrors issues={own} />
        <Field label="Type" hint={stepType?.description ?? "Not a step type this hub knows; choose one."} issues={issues.type}>
          {(c) => (
            <select
              {...c}
              value={type}
              onChange={(e) => {
                const to = registry.stepTypes.find((t) => t.type === e.target.value);
                if (to) onChange(changeStepType(step, to, registry.locatorKinds));
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
          <StepForm step={step} stepType={stepType} kinds={registry.locatorKinds} issues={issues} onChange={onChange} idBase={id} />
        )}
      </fieldset>
    </section>
  );
}
