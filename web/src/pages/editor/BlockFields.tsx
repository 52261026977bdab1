// The inspector's fields of block steps (docs/flow.md): a condition (an
// if's, a repeat's while) is a small form of its own, generated like a
// step's from the parameters of its kind, with the locator editor and
// Pick for the kinds about an element; a forEach's items are either a
// reference to a variable holding a list, or texts written in the step.
// A block's steps are not fields: the list shows them.
import { useId } from "react";
import type { RegistryParam, StepType } from "../../api";
import type { JsonObject } from "../../api/editorApi";
import { isObject, newLocator, str, type FieldIssue } from "./documentModel";
import { CONDITION_KINDS, ELEMENT_KINDS } from "./blockText";
import { ListField } from "./ParamInputs";
import { describedBy, FieldErrors } from "./Problems";
import { StepForm } from "./StepForm";

interface Props {
  param: RegistryParam;
  label: string;
  hint: string;
  value: unknown;
  issues: FieldIssue[];
  onChange: (v: unknown) => void;
  kinds: string[];
  idBase: string;
}

/** A condition's members as parameters, so StepForm draws it (stepConditions.ts says which go with which kind). */
export const CONDITION_TYPE: StepType = {
  type: "condition",
  description: "",
  params: [
    {
      name: "kind",
      type: "enum",
      required: true,
      values: Object.keys(CONDITION_KINDS),
      description:
        "what is tested: " +
        Object.entries(CONDITION_KINDS)
          .map(([k, v]) => `${k}, ${v}`)
          .join("; "),
    },
    { name: "target", type: "target", required: true, description: "the element it is about" },
    { name: "name", type: "string", required: true, description: "the variable, or a field of an answer: answer.body.id" },
    {
      name: "expected",
      type: "string",
      required: false,
      description: "the text to compare with; a variable without it holds when set and not empty, false or 0",
    },
    {
      name: "match",
      type: "enum",
      required: false,
      default: "contains",
      values: ["contains", "equals", "regex"],
      description: "how it compares",
    },
    {
      name: "code",
      type: "string",
      required: true,
      description: "a JavaScript expression run in the page, true when truthy; ${name} stands for a variable's value",
    },
  ],
};

const FIELD = /^\.([A-Za-z_$][\w$]*)(.*)$/;

/** ConditionField edits a condition; an optional one (while) can be added and removed. */
export function ConditionField({ param: p, label, hint, value, issues, onChange, kinds, idBase }: Props) {
  const cond = isObject(value) ? value : null;
  // Issues on the condition's members (".target.locators[0].value") go beside those members.
  const byField: Record<string, FieldIssue[]> = {};
  const own: FieldIssue[] = [];
  for (const i of issues) {
    const m = FIELD.exec(i.sub);
    if (m) (byField[m[1]] ??= []).push({ ...i, sub: m[2] });
    else own.push(i);
  }
  const hintId = `${idBase}-${p.name}-hint`;
  const change = (next: JsonObject) => {
    // A kind about an element starts with a locator to fill in.
    if (ELEMENT_KINDS.has(str(next.kind)) && next.target === undefined) next = { ...next, target: { locators: [newLocator(kinds)] } };
    onChange(next);
  };
  return (
    <fieldset
      className={["field", "param-wide", "condition-field", issues.length > 0 && "has-error"].filter(Boolean).join(" ")}
      aria-describedby={describedBy(hintId)}
    >
      <legend>{label}</legend>
      <span className="hint" id={hintId}>
        {/* The registry spells the condition's shape out for programs; the form below shows it. */}
        {hint.replace(/: \{kind:.*\}$/, "")}
      </span>
      <FieldErrors issues={own} />
      {cond ? (
        <>
          <StepForm step={cond} stepType={CONDITION_TYPE} kinds={kinds} issues={byField} onChange={change} idBase={`${idBase}-${p.name}`} />
          {!p.required && (
            <button type="button" className="small" onClick={() => onChange(undefined)}>
              Remove the {label.toLowerCase()} condition
            </button>
          )}
        </>
      ) : (
        <button type="button" className="small" onClick={() => change({ kind: "visible" })}>
          Add a {label.toLowerCase()} condition
        </button>
      )}
    </fieldset>
  );
}

/** ItemsField edits a forEach's items: "${rows}" or ["a", "b"]. */
export function ItemsField({ param: p, label, hint, value, issues, onChange }: Props) {
  const id = useId();
  const list = Array.isArray(value);
  return (
    <fieldset className={["field", "param-wide", "items-field", issues.length > 0 && "has-error"].filter(Boolean).join(" ")}>
      <legend>{label}</legend>
      <div className="row" role="radiogroup" aria-label="Items from">
        <label className="inline">
          <input type="radio" name={`${id}-from`} checked={!list} onChange={() => onChange("")} />A variable holding a list
        </label>
        <label className="inline">
          <input type="radio" name={`${id}-from`} checked={list} onChange={() => onChange([])} />
          Texts written here
        </label>
      </div>
      {list ? (
        <ListField
          param={{ ...p, type: "list", values: undefined }}
          label="Texts"
          hint="Each may hold ${references}."
          value={value}
          issues={[]}
          onChange={(v) => onChange(v ?? [])}
        />
      ) : (
        <input
          aria-label="Variable holding the items"
          className="mono"
          placeholder="e.g. ${rows}"
          value={str(value)}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      <span className="hint">{hint}</span>
      <FieldErrors issues={issues} />
    </fieldset>
  );
}
