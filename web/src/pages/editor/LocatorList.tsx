// A ranked list of locators (a step's target, or the frames to enter):
// each row a kind, a value and, for role, an accessible name; rows move up
// and down because the first one is tried first.
import type { JsonObject } from "../../api/editorApi";
import { moveItem, newLocator, str, withField, type FieldIssue } from "./documentModel";
import { describedBy, FieldErrors } from "./Problems";
import { locatorPlaceholder } from "./stepText";

const ROW_ISSUE = /^\.(\w+)\[(\d+)\](?:\.(\w+))?/;

/** rowIssues splits issues below a target into those of each row (by index) and the rest. */
function rowIssues(issues: FieldIssue[], prefix: string) {
  const rows: Record<number, FieldIssue[]> = {};
  const rest: FieldIssue[] = [];
  for (const i of issues) {
    const m = ROW_ISSUE.exec(i.sub);
    if (m && m[1] === prefix) (rows[Number(m[2])] ??= []).push(i);
    else if (i.sub === `.${prefix}` || i.sub === "") rest.push(i);
  }
  return { rows, rest };
}

export function LocatorList({
  legend,
  noun,
  prefix,
  locators,
  kinds,
  onChange,
  issues,
  hint,
  idBase,
}: {
  legend: string;
  /** "locator" gives "Locator 1 value", "Move locator 1 up", "Add locator". */
  noun: string;
  /** The member of the target these rows are: locators or frame. */
  prefix: string;
  locators: JsonObject[];
  kinds: string[];
  onChange: (locators: JsonObject[]) => void;
  issues: FieldIssue[];
  hint?: string;
  idBase: string;
}) {
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  const placed = rowIssues(issues, prefix);
  const setRow = (i: number, loc: JsonObject) => onChange(locators.map((l, j) => (j === i ? loc : l)));
  const hintId = `${idBase}-${prefix}-hint`;

  return (
    <fieldset className="locators">
      <legend>{legend}</legend>
      {hint && (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      )}
      {locators.length === 0 && <p className="muted">None.</p>}
      <ol className="locator-rows">
        {locators.map((loc, i) => {
          const n = i + 1;
          const kind = str(loc.kind);
          const errs = placed.rows[i] ?? [];
          const errId = `${idBase}-${prefix}-${i}-issues`;
          const invalid = (part: string) => errs.some((e) => e.sub.endsWith(`.${part}`)) || undefined;
          const described = describedBy(hint && hintId, errs.length > 0 && errId);
          return (
            <li key={i} className="locator-row">
              <span className="locator-rank" aria-hidden="true">
                {n}
              </span>
              <select
                aria-label={`${Noun} ${n} kind`}
                value={kind}
                aria-invalid={invalid("kind")}
                aria-describedby={described}
                onChange={(e) => {
                  const next = withField(loc, "kind", e.target.value);
                  setRow(i, e.target.value === "role" ? next : withField(next, "name", undefined));
                }}
              >
                {!kinds.includes(kind) && <option value={kind}>{kind || "(choose)"}</option>}
                {kinds.map((k) => (
                  <option key={k} value={k}>
                    {k}
                  </option>
                ))}
              </select>
              <input
                className="locator-value"
                aria-label={`${Noun} ${n} value`}
                value={str(loc.value)}
                placeholder={locatorPlaceholder(kind)}
                aria-invalid={invalid("value")}
                aria-describedby={described}
                onChange={(e) => setRow(i, withField(loc, "value", e.target.value))}
              />
              {kind === "role" && (
                <input
                  aria-label={`${Noun} ${n} name`}
                  value={str(loc.name)}
                  placeholder="name, e.g. Sign in"
                  aria-invalid={invalid("name")}
                  onChange={(e) => setRow(i, withField(loc, "name", e.target.value === "" ? undefined : e.target.value))}
                />
              )}
              <span className="row-buttons">
                <button
                  type="button"
                  className="small"
                  aria-label={`Move ${noun} ${n} up`}
                  title="Up"
                  disabled={i === 0}
                  onClick={() => onChange(moveItem(locators, i, i - 1))}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="small"
                  aria-label={`Move ${noun} ${n} down`}
                  title="Down"
                  disabled={i === locators.length - 1}
                  onClick={() => onChange(moveItem(locators, i, i + 1))}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className="small"
                  aria-label={`Remove ${noun} ${n}`}
                  title="Remove"
                  onClick={() => onChange(locators.filter((_, j) => j !== i))}
                >
                  ✕
                </button>
              </span>
              <FieldErrors issues={errs} id={errId} />
            </li>
          );
        })}
      </ol>
      <FieldErrors issues={placed.rest} />
      <div>
        <button type="button" className="small" onClick={() => onChange([...locators, newLocator(kinds)])}>
          Add {noun}
        </button>
      </div>
    </fieldset>
  );
}
