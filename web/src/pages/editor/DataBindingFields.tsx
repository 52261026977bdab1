// The "Data" part of a test's settings: the test data set it runs once per
// row, and the data pool it takes one record from per run (lease: back when
// the run ends; consume: used up until the pool is reset). Writes the
// document's data member ({set?, pool?, mode?}); with neither chosen the
// member leaves the document. Ids the lists do not hold (a deleted set)
// stay as they are, shown as unknown, so nothing is changed unasked.
import { Link } from "react-router";
import { useQuery } from "@tanstack/react-query";
import type { EditorDocument } from "../../api/editorApi";
import { listDataSets, testDataKeys } from "../../api/testData";
import { dataPoolKeys, listDataPools } from "../../api/dataPools";
import { useProjectId } from "../../session";
import { describeError } from "../../api";
import { isObject, str, withField, type FieldIssue } from "./documentModel";
import { Field } from "./Field";

interface Binding {
  set: string;
  pool: string;
  mode: string;
}

function readBinding(doc: EditorDocument): Binding {
  const d = isObject(doc.data) ? doc.data : {};
  return { set: str(d.set), pool: str(d.pool), mode: str(d.mode) };
}

/** writeBinding puts b into doc.data, keeping members this form does not know; an empty binding removes data. */
export function writeBinding(doc: EditorDocument, b: Binding): EditorDocument {
  const rest = isObject(doc.data) ? { ...doc.data } : {};
  delete rest.set;
  delete rest.pool;
  delete rest.mode;
  const data: Record<string, unknown> = { ...rest };
  if (b.set) data.set = b.set;
  if (b.pool) {
    data.pool = b.pool;
    data.mode = b.mode || "lease";
  }
  return withField(doc, "data", Object.keys(data).length > 0 ? data : undefined);
}

function only(issues: FieldIssue[] | undefined, sub: string): FieldIssue[] | undefined {
  const l = (issues ?? []).filter((i) => i.sub === sub || i.sub === `.${sub}`);
  return l.length ? l : undefined;
}

export function DataBindingFields({
  doc,
  onChange,
  issues,
}: {
  doc: EditorDocument;
  onChange: (doc: EditorDocument) => void;
  issues?: FieldIssue[];
}) {
  const projectId = useProjectId();
  const sets = useQuery({ queryKey: testDataKeys.list(projectId), queryFn: () => listDataSets(projectId), enabled: !!projectId });
  const pools = useQuery({ queryKey: dataPoolKeys.list(projectId), queryFn: () => listDataPools(projectId), enabled: !!projectId });
  const b = readBinding(doc);
  const set = (next: Partial<Binding>) => onChange(writeBinding(doc, { ...b, ...next }));
  const chosenSet = sets.data?.find((s) => s.id === b.set);
  const chosenPool = pools.data?.find((p) => p.id === b.pool);
  const general = (issues ?? []).filter((i) => !["set", ".set", "pool", ".pool", "mode", ".mode"].includes(i.sub));

  return (
    <fieldset className="editor-data">
      <legend>Data</legend>
      <div className="settings-grid">
        <Field
          label="Data set"
          hint={
            chosenSet
              ? `Runs once per row (${chosenSet.rowCount}); steps read ${chosenSet.columns.map((c) => "${" + c + "}").join(", ") || "its columns"}.`
              : "Optional: run the test once per row of a table."
          }
          issues={only(issues, "set")}
        >
          {(c) => (
            <select {...c} value={b.set} onChange={(e) => set({ set: e.target.value })}>
              <option value="">None (runs once)</option>
              {b.set && sets.data && !chosenSet && <option value={b.set}>Unknown data set ({b.set})</option>}
              {b.set && !sets.data && <option value={b.set}>{b.set}</option>}
              {(sets.data ?? []).map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({s.rowCount} row{s.rowCount === 1 ? "" : "s"})
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Data pool"
          hint={
            chosenPool
              ? `${chosenPool.free} of ${chosenPool.total} records free; steps read ${chosenPool.columns.map((c) => "${" + c + "}").join(", ") || "its columns"}.`
              : "Optional: each run takes one record no other run has."
          }
          issues={only(issues, "pool")}
        >
          {(c) => (
            <select {...c} value={b.pool} onChange={(e) => set({ pool: e.target.value })}>
              <option value="">None</option>
              {b.pool && pools.data && !chosenPool && <option value={b.pool}>Unknown data pool ({b.pool})</option>}
              {b.pool && !pools.data && <option value={b.pool}>{b.pool}</option>}
              {(pools.data ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name} ({p.free} free)
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div className="field" role="radiogroup" aria-label="Pool mode">
        <label className="inline">
          <input
            type="radio"
            name="pool-mode"
            checked={b.pool !== "" && b.mode !== "consume"}
            disabled={!b.pool}
            onChange={() => set({ mode: "lease" })}
          />
          Lease: the record comes back when the run ends
        </label>
        <label className="inline">
          <input
            type="radio"
            name="pool-mode"
            checked={b.pool !== "" && b.mode === "consume"}
            disabled={!b.pool}
            onChange={() => set({ mode: "consume" })}
          />
          Consume: the record is used up until the pool is reset
        </label>
        {only(issues, "mode")?.map((i, n) => (
          <span key={n} className="field-error">
            {i.message}
          </span>
        ))}
      </div>
      {general.map((i, n) => (
        <span key={n} className="field-error">
          {i.message}
        </span>
      ))}
      {(sets.isError || pools.isError) && (
        // Not an alert: the rest of the settings work without the lists.
        <p className="field-error">The data sets or pools could not be loaded: {describeError(sets.error ?? pools.error)}</p>
      )}
      <p className="hint">
        <Link to="/test-data">Test data</Link> · <Link to="/data-pools">Data pools</Link>
      </p>
    </fieldset>
  );
}
