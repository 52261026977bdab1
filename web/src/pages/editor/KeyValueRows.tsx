// Name/value rows for a map of strings: a test's variables, a component
// call's inputs. Rows are kept here so a row may be half typed (no name
// yet) without disappearing; the map sent up leaves such rows out.
import { useState } from "react";
import { canonical } from "./documentModel";
import type { FieldIssue } from "./documentModel";
import { FieldErrors } from "./Problems";

interface Row {
  key: string;
  value: string;
}

function toRows(map: Record<string, string>): Row[] {
  return Object.entries(map).map(([key, value]) => ({ key, value }));
}

function toMap(rows: Row[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of rows) if (r.key !== "") out[r.key] = r.value;
  return out;
}

export function KeyValueRows({
  legend,
  noun,
  value,
  onChange,
  hint,
  issues,
}: {
  legend: string;
  /** What one row is, for labels: "variable" gives "Variable 1 name" and "Add variable". */
  noun: string;
  value: Record<string, string>;
  /** Called with the new map, or undefined when it has no rows left. */
  onChange: (map: Record<string, string> | undefined) => void;
  hint?: string;
  issues?: FieldIssue[];
}) {
  const [rows, setRows] = useState<Row[]>(() => toRows(value));
  // The map changed from elsewhere (the JSON view, a reload): show it.
  if (canonical(toMap(rows)) !== canonical(value)) setRows(toRows(value));

  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  const update = (next: Row[]) => {
    setRows(next);
    const map = toMap(next);
    onChange(Object.keys(map).length > 0 ? map : undefined);
  };
  const setRow = (i: number, row: Row) => update(rows.map((r, j) => (j === i ? row : r)));
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const r of rows) {
    if (r.key !== "" && seen.has(r.key)) duplicates.add(r.key);
    seen.add(r.key);
  }
  const placed = issues?.map((i) => ({ ...i, message: i.sub ? `${i.sub.replace(/^\./, "")}: ${i.message}` : i.message }));

  return (
    <fieldset className="kv">
      <legend>{legend}</legend>
      {hint && <p className="hint">{hint}</p>}
      {rows.length === 0 && <p className="muted">None.</p>}
      {rows.map((r, i) => (
        <div className="kv-row" key={i}>
          <input
            aria-label={`${Noun} ${i + 1} name`}
            value={r.key}
            placeholder="name"
            onChange={(e) => setRow(i, { ...r, key: e.target.value })}
            aria-invalid={duplicates.has(r.key) || undefined}
          />
          <input
            aria-label={`${Noun} ${i + 1} value`}
            value={r.value}
            placeholder="value"
            onChange={(e) => setRow(i, { ...r, value: e.target.value })}
          />
          <button
            type="button"
            className="small"
            aria-label={`Remove ${noun} ${i + 1}`}
            onClick={() => update(rows.filter((_, j) => j !== i))}
          >
            Remove
          </button>
        </div>
      ))}
      {duplicates.size > 0 && (
        <span className="field-error">Two rows have the name {[...duplicates].join(", ")}; the last one counts.</span>
      )}
      <FieldErrors issues={placed} />
      <div>
        <button type="button" className="small" onClick={() => setRows([...rows, { key: "", value: "" }])}>
          Add {noun}
        </button>
      </div>
    </fieldset>
  );
}
