// The form of one step, generated from its type's parameters in the
// registry: string → text, number → number, boolean → checkbox, enum →
// select, map → name/value rows, target → ranked locators and frames,
// list → checkboxes or removable items, position → x and y.
// Clearing an optional parameter takes it out of the step.
import type { RegistryParam, StepType } from "../../api";
import type { JsonObject } from "../../api/editorApi";
import { readTarget, str, stringMap, withField, writeTarget, type FieldIssue } from "./documentModel";
import { Field } from "./Field";
import { KeyValueRows } from "./KeyValueRows";
import { LocatorList } from "./LocatorList";
import { FieldErrors } from "./Problems";
import { paramLabel, paramPlaceholder } from "./stepText";
import { PickTarget } from "./authoring/PickTarget";
import { TryScript } from "./authoring/TryScript";
import { CallComponentFields } from "./CallComponentFields";
import { ListField, PositionField } from "./ParamInputs";
import { FilesField } from "./FilesField";
import { applies, prune } from "./stepConditions";
import { ConditionField, ItemsField } from "./BlockFields";

/** Parameters of callComponent that CallComponentFields shows together. */
const CALL_PARAMS = new Set(["component", "version", "inputs"]);

/**
 * shown says whether a parameter gets a field. A wait's only duration is
 * its ms: the runner adds its timeoutMs on top, so a second duration field
 * would only confuse; it shows only when the step already has one, to clear.
 */
function shown(p: RegistryParam, stepType: string, step: JsonObject): boolean {
  if (stepType === "callComponent" && CALL_PARAMS.has(p.name)) return false;
  // A block's steps are drawn in the list, not as a field.
  if (p.type === "steps") return false;
  // A field that only goes with another's choice shows with that choice,
  // or while the step has it, so it can be cleared.
  if (!applies(stepType, p.name, step) && step[p.name] === undefined) return false;
  return !(stepType === "wait" && p.name === "timeoutMs" && step.timeoutMs === undefined);
}

function paramHint(p: RegistryParam): string {
  const what = p.description.charAt(0).toUpperCase() + p.description.slice(1);
  return p.required ? `Required. ${what}` : what;
}

interface ParamProps {
  param: RegistryParam;
  step: JsonObject;
  onChange: (step: JsonObject) => void;
  issues: FieldIssue[];
  kinds: string[];
  idBase: string;
  stepType: string;
  fileNames?: Record<string, string>;
}

export function StepForm({
  step,
  stepType,
  kinds,
  issues,
  onChange,
  idBase,
  fileNames,
}: {
  step: JsonObject;
  stepType: StepType;
  kinds: string[];
  issues: Record<string, FieldIssue[]>;
  onChange: (step: JsonObject) => void;
  idBase: string;
  /** Project files' names by id, when known: an upload lists them by name. */
  fileNames?: Record<string, string>;
}) {
  const call = stepType.type === "callComponent";
  const change = (next: JsonObject) => onChange(prune(stepType.type, step, next));
  return (
    <div className="step-form">
      {call && <CallComponentFields step={step} onChange={onChange} issues={issues} />}
      {stepType.params
        .filter((p) => shown(p, stepType.type, step))
        .map((p) => (
          <ParamField
            key={p.name}
            param={p}
            step={step}
            onChange={change}
            issues={issues[p.name] ?? []}
            kinds={kinds}
            idBase={idBase}
            stepType={stepType.type}
            fileNames={fileNames}
          />
        ))}
    </div>
  );
}

function ParamField(props: ParamProps) {
  const { param: p, step, onChange, issues } = props;
  const value = step[p.name];
  const set = (v: unknown) => onChange(withField(step, p.name, v));
  const hint = paramHint(p);
  const label = paramLabel(p.name);
  const placeholder = paramPlaceholder(p, props.stepType);
  switch (p.type) {
    case "target":
      return <TargetField {...props} />;
    case "condition":
    case "items": {
      const BlockField = p.type === "condition" ? ConditionField : ItemsField;
      return (
        <BlockField
          param={p}
          label={label}
          hint={hint}
          value={value}
          issues={issues}
          onChange={set}
          kinds={props.kinds}
          idBase={props.idBase}
        />
      );
    }
    case "list":
      if (p.name === "files") return <FilesField label={label} hint={hint} value={value} issues={issues} onChange={set} />;
      return (
        <ListField
          param={p}
          label={label}
          hint={hint}
          value={value}
          issues={issues}
          onChange={set}
          itemLabel={p.name === "files" ? (id) => props.fileNames?.[id] ?? id : undefined}
        />
      );
    case "position":
      return <PositionField param={p} label={label} hint={hint} value={value} issues={issues} onChange={set} />;
    case "map":
      return (
        <KeyValueRows legend={label} noun={p.name.replace(/s$/, "")} hint={hint} value={stringMap(value)} onChange={set} issues={issues} />
      );
    case "boolean":
      return (
        <Field label={label} hint={hint} issues={issues} inline>
          {(c) => <input {...c} type="checkbox" checked={value === true} onChange={(e) => set(e.target.checked ? true : undefined)} />}
        </Field>
      );
    case "number":
      return (
        <Field label={label} hint={hint} issues={issues}>
          {(c) => (
            <input
              {...c}
              type="number"
              step={1}
              min={p.min}
              max={p.max}
              required={p.required}
              placeholder={placeholder}
              value={typeof value === "number" ? String(value) : ""}
              onChange={(e) => {
                const n = e.target.valueAsNumber;
                set(e.target.value === "" || Number.isNaN(n) ? undefined : n);
              }}
            />
          )}
        </Field>
      );
    case "enum": {
      const values = p.values ?? [];
      const current = str(value);
      return (
        <Field label={label} hint={hint} issues={issues}>
          {(c) => (
            <select {...c} value={current} onChange={(e) => set(e.target.value === "" ? undefined : e.target.value)}>
              {(!p.required || !values.includes(current)) && (
                <option value="">{p.default !== undefined ? `(default: ${p.default})` : "(none)"}</option>
              )}
              {current !== "" && !values.includes(current) && <option value={current}>{current}</option>}
              {values.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          )}
        </Field>
      );
    }
    default: {
      const text = str(value);
      const onText = (v: string) => set(v === "" && !p.required ? undefined : v);
      const field = (
        <Field
          label={label}
          hint={hint}
          issues={issues}
          className={p.name === "code" || p.name === "description" || p.name === "body" ? "param-wide" : undefined}
        >
          {(c) =>
            p.name === "code" || p.name === "body" ? (
              <textarea {...c} className="mono" rows={6} value={text} placeholder={placeholder} onChange={(e) => onText(e.target.value)} />
            ) : (
              <input {...c} required={p.required} value={text} placeholder={placeholder} onChange={(e) => onText(e.target.value)} />
            )
          }
        </Field>
      );
      if (p.name !== "code" || props.stepType !== "script") return field;
      return (
        <>
          {field}
          <TryScript code={text} timeoutMs={typeof step.timeoutMs === "number" ? step.timeoutMs : undefined} />
        </>
      );
    }
  }
}

/** TargetField edits a target: its ranked locators, then the frames to enter. */
function TargetField({ param: p, step, onChange, issues, kinds, idBase: base }: ParamProps) {
  const idBase = p.name === "target" ? base : `${base}-${p.name}`;
  // Most steps have one target; a dragTo also has its drop target, "to".
  const target = readTarget(step[p.name]);
  const label = p.name === "to" ? "Drop target" : paramLabel(p.name);
  const write = (locators: JsonObject[], frame: JsonObject[]) => {
    // An optional target without locators or frames is no target at all.
    if (!p.required && locators.length === 0 && frame.length === 0) {
      onChange(withField(step, p.name, undefined));
      return;
    }
    onChange(withField(step, p.name, writeTarget({ rest: target?.rest ?? {}, locators, frame })));
  };
  const locators = target?.locators ?? [];
  const frame = target?.frame ?? [];
  const frameIssues = issues.filter((i) => i.sub.startsWith(".frame"));
  const locatorIssues = issues.filter((i) => i.sub === "" || i.sub.startsWith(".locators"));
  const other = issues.filter((i) => !frameIssues.includes(i) && !locatorIssues.includes(i));
  return (
    <div className="field param-wide target-field">
      <LocatorList
        legend={label}
        noun="locator"
        prefix="locators"
        locators={locators}
        kinds={kinds}
        onChange={(l) => write(l, frame)}
        issues={locatorIssues}
        hint={`${paramHint(p)}. Tried in order: the first is used, the others are fallbacks when it fails.`}
        idBase={idBase}
      />
      <PickTarget
        label={label}
        stepId={typeof step.id === "string" ? step.id : undefined}
        onTarget={(t, el) => {
          const next = withField(step, p.name, t);
          // An assertion of the picked element's text starts from the text it has now.
          const text = el?.text?.trim();
          const prefill = step.type === "assertText" && !step.expected && text;
          onChange(prefill ? withField(next, "expected", text) : next);
        }}
      />
      <details className="frames" open={frame.length > 0 || frameIssues.length > 0}>
        <summary>Frames ({frame.length})</summary>
        <LocatorList
          legend="Frames"
          noun="frame"
          prefix="frame"
          locators={frame}
          kinds={kinds}
          onChange={(f) => write(locators, f)}
          issues={frameIssues}
          hint="Optional: the iframes to enter, outermost first."
          idBase={idBase}
        />
      </details>
      <FieldErrors issues={other} />
    </div>
  );
}
