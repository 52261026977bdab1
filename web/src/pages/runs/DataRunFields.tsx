// The data part of the run dialog. A test bound to a data set runs once per
// row: all rows by default, or the rows chosen here, of its own set or of
// another one (POST /api/runs dataSetId and rows). A test bound to none may
// run with a set chosen here. A pool binding is only told: the run takes
// its record when an agent picks it up.
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { fetchTest } from "../../api/editorApi";
import { getDataSet, listDataSets, testDataKeys } from "../../api/testData";
import { dataPoolKeys, getDataPool } from "../../api/dataPools";
import type { DataBinding, Test } from "../../api";
import { ErrorBox } from "../../components/ui";
import "./runData.css";

/** The first values of a row, for a list: "email: ann@example.com · password: pw · …". */
export function rowPreview(columns: string[], row: Record<string, string> | undefined, max = 3): string {
  if (!row) return "";
  const clip = (v: string) => (v.length > 32 ? `${v.slice(0, 31)}…` : v);
  const text = columns
    .slice(0, max)
    .map((c) => `${c}: ${clip(row[c] ?? "")}`)
    .join(" · ");
  return columns.length > max ? `${text} · …` : text;
}

function bindingOf(doc: unknown): DataBinding {
  if (typeof doc !== "object" || doc === null) return {};
  const d = (doc as { data?: unknown }).data;
  return typeof d === "object" && d !== null ? (d as DataBinding) : {};
}

/** useDataRunChoice holds the dialog's data choices for test; extra is what POST /api/runs gets beyond the options. */
export function useDataRunChoice(test: Test) {
  // The saved document's binding: fetched afresh, as the editor may just have saved.
  const saved = useQuery({
    queryKey: ["run-binding", test.id],
    queryFn: () => fetchTest(test.id),
    gcTime: 0,
    retry: false,
    select: (t) => bindingOf(t.document),
  });
  const sets = useQuery({ queryKey: testDataKeys.list(test.projectId), queryFn: () => listDataSets(test.projectId), retry: false });
  const bound = saved.data?.set ?? "";
  const [picked, setPicked] = useState<string | null>(null);
  const setId = picked ?? bound;
  const [all, setAll] = useState(true);
  const [rows, setRows] = useState<number[]>([]);
  const set = useQuery({ queryKey: testDataKeys.one(setId), queryFn: () => getDataSet(setId), enabled: !!setId, retry: false });
  const pool = saved.data?.pool ?? "";
  const poolQ = useQuery({ queryKey: dataPoolKeys.one(pool), queryFn: () => getDataPool(pool), enabled: !!pool, retry: false });

  const choose = (id: string) => {
    setPicked(id);
    setAll(true);
    setRows([]);
  };
  const toggle = (n: number) => setRows((r) => (r.includes(n) ? r.filter((x) => x !== n) : [...r, n].sort((a, b) => a - b)));
  const extra: { dataSetId?: string; rows?: number[] } = {};
  if (setId && setId !== bound) extra.dataSetId = setId;
  if (setId && !all) extra.rows = rows;
  /** Why the run cannot start as chosen, or null. */
  const blocked = setId && !all && rows.length === 0 ? "Choose at least one row, or run them all." : null;
  return {
    saved,
    sets,
    set,
    bound,
    setId,
    choose,
    all,
    setAll,
    rows,
    toggle,
    setRows,
    extra,
    blocked,
    pool,
    poolQ,
    mode: saved.data?.mode,
  };
}

export type DataRunChoice = ReturnType<typeof useDataRunChoice>;

export function DataRunFields({ choice }: { choice: DataRunChoice }) {
  const { sets, set, bound, setId, all, rows } = choice;
  const poolLine = choice.pool && (
    <p className="hint" data-testid="run-pool-hint">
      Takes a record of data pool <strong>{choice.poolQ.data?.name ?? choice.pool}</strong>
      {choice.poolQ.data && ` (${choice.poolQ.data.free} of ${choice.poolQ.data.total} free)`}, to{" "}
      {choice.mode === "consume" ? "consume until the pool is reset" : "lease until the run ends"}.
    </p>
  );
  // Without data sets in the project, and none bound, there is nothing to choose.
  if (!bound && (!sets.data || sets.data.length === 0)) return poolLine || null;
  const data = set.data;
  return (
    <fieldset className="run-data">
      <legend>Data</legend>
      <div className="field">
        <label>
          Data set
          <select value={setId} onChange={(e) => choice.choose(e.target.value)}>
            {!bound && <option value="">None (runs once)</option>}
            {bound && !sets.data?.some((s) => s.id === bound) && <option value={bound}>The test&apos;s data set</option>}
            {(sets.data ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.rowCount} row{s.rowCount === 1 ? "" : "s"}){s.id === bound ? ", the test's" : ""}
              </option>
            ))}
          </select>
        </label>
        {setId && <span className="hint">The test runs once per row; each row is its own browser session.</span>}
      </div>
      {set.isError && <ErrorBox error={set.error} title="The data set could not be loaded" />}
      {setId && data && (
        <>
          <label className="inline">
            <input type="radio" name="run-rows" checked={all} onChange={() => choice.setAll(true)} />
            All {data.rows.length} row{data.rows.length === 1 ? "" : "s"}
          </label>
          <label className="inline">
            <input type="radio" name="run-rows" checked={!all} onChange={() => choice.setAll(false)} />
            Chosen rows{!all && ` (${rows.length})`}
          </label>
          {!all && (
            <div className="run-rows-choice" role="group" aria-label="Rows to run">
              <div className="row">
                <button type="button" className="small" onClick={() => choice.setRows(data.rows.map((_, i) => i))}>
                  All
                </button>
                <button type="button" className="small" onClick={() => choice.setRows([])}>
                  None
                </button>
              </div>
              <ul>
                {data.rows.map((r, i) => (
                  <li key={i}>
                    <label className="inline">
                      <input type="checkbox" checked={rows.includes(i)} onChange={() => choice.toggle(i)} />
                      Row {i + 1} <span className="muted">{rowPreview(data.columns, r)}</span>
                    </label>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </>
      )}
      {choice.blocked && <span className="field-error">{choice.blocked}</span>}
      {poolLine}
    </fieldset>
  );
}
