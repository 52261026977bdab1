// Inputs of the registry's "list" and "position" parameter types: a list
// with allowed values is a group of checkboxes (modifiers), one without is
// a set of removable items with a box to add more (an upload's files); a
// position is two number inputs, x and y. Emptying either takes the
// parameter out of the step.
import { useId, useState } from "react";
import type { RegistryParam } from "../../api";
import type { FieldIssue } from "./documentModel";
import { describedBy, FieldErrors } from "./Problems";

interface Props {
  param: RegistryParam;
  label: string;
  hint: string;
  value: unknown;
  issues: FieldIssue[];
  onChange: (v: unknown) => void;
  /** How an item reads: a file's name for its id. */
  itemLabel?: (item: string) => string;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

export function ListField({ param: p, label, hint, value, issues, onChange, itemLabel }: Props) {
  const id = useId();
  const items = strings(value);
  const [draft, setDraft] = useState("");
  const set = (next: string[]) => onChange(next.length === 0 ? undefined : next);
  const hintId = `${id}-hint`;
  const issuesId = issues.length > 0 ? `${id}-issues` : undefined;
  if (p.values && p.values.length > 0) {
    const allowed = p.values;
    // Kept in the registry's order, whatever order they were ticked in.
    const toggle = (v: string, on: boolean) => set(allowed.filter((a) => (a === v ? on : items.includes(a))));
    return (
      <fieldset
        className={["field", "list-field", issues.length > 0 && "has-error"].filter(Boolean).join(" ")}
        aria-describedby={describedBy(hintId, issuesId)}
      >
        <legend>{label}</legend>
        <div className="row">
          {allowed.map((v) => (
            <label key={v} className="inline">
              <input type="checkbox" checked={items.includes(v)} onChange={(e) => toggle(v, e.target.checked)} />
              {v}
            </label>
          ))}
        </div>
        <span className="hint" id={hintId}>
          {hint}
        </span>
        <FieldErrors issues={issues} id={`${id}-issues`} />
      </fieldset>
    );
  }
  const add = () => {
    const v = draft.trim();
    if (v === "" || items.includes(v)) return;
    set([...items, v]);
    setDraft("");
  };
  return (
    <fieldset
      className={["field", "list-field", issues.length > 0 && "has-error"].filter(Boolean).join(" ")}
      aria-describedby={describedBy(hintId, issuesId)}
    >
      <legend>{label}</legend>
      {items.length > 0 && (
        <ul className="list-items">
          {items.map((v) => (
            <li key={v}>
              <span className="mono">{itemLabel?.(v) ?? v}</span>{" "}
              <button
                type="button"
                className="link"
                aria-label={`Remove ${itemLabel?.(v) ?? v}`}
                onClick={() => set(items.filter((x) => x !== v))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        <input
          aria-label={`Add to ${label.toLowerCase()}`}
          value={draft}
          placeholder={p.name === "files" ? "e.g. fil_…" : undefined}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
        />
        <button type="button" onClick={add} disabled={draft.trim() === ""}>
          Add
        </button>
      </div>
      <span className="hint" id={hintId}>
        {hint}
      </span>
      <FieldErrors issues={issues} id={`${id}-issues`} />
    </fieldset>
  );
}

/** readPosition reads {x, y}, each undefined unless a number. */
function readPosition(v: unknown): { x?: number; y?: number } {
  if (!v || typeof v !== "object") return {};
  const { x, y } = v as { x?: unknown; y?: unknown };
  return { x: typeof x === "number" ? x : undefined, y: typeof y === "number" ? y : undefined };
}

export function PositionField({ label, hint, value, issues, onChange }: Props) {
  const id = useId();
  const pos = readPosition(value);
  // A half-typed position keeps what it has; both empty removes it.
  const set = (axis: "x" | "y", n: number | undefined) => {
    const next = { ...pos, [axis]: n };
    if (next.x === undefined && next.y === undefined) onChange(undefined);
    else onChange(Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined)));
  };
  const hintId = `${id}-hint`;
  const issuesId = issues.length > 0 ? `${id}-issues` : undefined;
  const input = (axis: "x" | "y") => (
    <label className="inline-label">
      {axis}{" "}
      <input
        type="number"
        step="any"
        aria-describedby={describedBy(hintId, issuesId)}
        value={pos[axis] === undefined ? "" : String(pos[axis])}
        onChange={(e) => set(axis, e.target.value === "" || Number.isNaN(e.target.valueAsNumber) ? undefined : e.target.valueAsNumber)}
      />
    </label>
  );
  return (
    <fieldset className={["field", "position-field", issues.length > 0 && "has-error"].filter(Boolean).join(" ")}>
      <legend>{label}</legend>
      <div className="row">
        {input("x")}
        {input("y")}
      </div>
      <span className="hint" id={hintId}>
        {hint}
      </span>
      <FieldErrors issues={issues} id={`${id}-issues`} />
    </fieldset>
  );
}
