// The grid editor of a data set's rows or a pool's records: column names in
// the header (rename, remove, add), one input per cell, rows added and
// removed, a page of rows at a time so a large set stays quick. Problems the
// hub found in the last save show at the column or cell they name.
import { useState } from "react";
import {
  addColumn,
  addRow,
  columnProblem,
  removeColumn,
  removeRow,
  renameColumn,
  setCell,
  type Grid,
  type PlacedGridIssues,
} from "./gridModel";

export const GRID_PAGE = 50;

export function DataGrid({
  grid,
  onChange,
  readOnly,
  noun,
  issues,
}: {
  grid: Grid;
  onChange: (grid: Grid) => void;
  readOnly?: boolean;
  /** What a row is: "Row" or "Record" (labels say "Row 3 email"). */
  noun: "Row" | "Record";
  issues?: PlacedGridIssues;
}) {
  const [page, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(grid.rows.length / GRID_PAGE));
  const shown = Math.min(page, pages - 1);
  const first = shown * GRID_PAGE;
  const rows = grid.rows.slice(first, first + GRID_PAGE);
  const lower = noun.toLowerCase();

  const onAddRow = () => {
    onChange(addRow(grid));
    // Show the page the new row is on.
    setPage(Math.floor(grid.rows.length / GRID_PAGE));
  };

  return (
    <div className="data-grid">
      {grid.columns.length === 0 ? (
        <p className="muted">{readOnly ? "No columns." : `No columns yet: add one, then add ${lower}s.`}</p>
      ) : (
        <div className="data-grid-scroll">
          <table className="table data-grid-table">
            <thead>
              <tr>
                <th scope="col" className="num data-grid-num">
                  #
                </th>
                {grid.columns.map((c, j) => {
                  const problem = readOnly ? null : columnProblem(grid.columns, j);
                  const hub = issues?.columns[j] ?? [];
                  const label = `Column ${j + 1} name`;
                  return (
                    <th key={j} scope="col">
                      {readOnly ? (
                        <span className="mono">{c}</span>
                      ) : (
                        <div className="data-grid-colhead">
                          <input
                            aria-label={label}
                            className="mono"
                            value={c}
                            maxLength={64}
                            aria-invalid={problem || hub.length ? true : undefined}
                            onChange={(e) => onChange(renameColumn(grid, j, e.target.value))}
                          />
                          <button
                            type="button"
                            className="icon-button"
                            aria-label={`Remove column ${c || j + 1}`}
                            title="Remove this column and its values"
                            onClick={() => onChange(removeColumn(grid, j))}
                          >
                            ×
                          </button>
                        </div>
                      )}
                      {[...(problem ? [problem] : []), ...hub].map((m, k) => (
                        <span key={k} className="field-error">
                          {m}
                        </span>
                      ))}
                    </th>
                  );
                })}
                {!readOnly && (
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((r, k) => {
                const i = first + k;
                const cellIssues = issues?.cells[i] ?? {};
                return (
                  <tr key={r.key} data-testid={`grid-row-${i + 1}`}>
                    <td className="num data-grid-num">
                      {i + 1}
                      {(cellIssues[""] ?? []).map((m, n) => (
                        <span key={n} className="field-error">
                          {m}
                        </span>
                      ))}
                    </td>
                    {grid.columns.map((c, j) => {
                      const msgs = cellIssues[c] ?? [];
                      return (
                        <td key={j}>
                          {readOnly ? (
                            <span className="data-grid-value">{r.cells[j]}</span>
                          ) : (
                            <input
                              aria-label={`${noun} ${i + 1} ${c || `column ${j + 1}`}`}
                              value={r.cells[j] ?? ""}
                              aria-invalid={msgs.length ? true : undefined}
                              onChange={(e) => onChange(setCell(grid, r.key, j, e.target.value))}
                            />
                          )}
                          {msgs.map((m, n) => (
                            <span key={n} className="field-error">
                              {m}
                            </span>
                          ))}
                        </td>
                      );
                    })}
                    {!readOnly && (
                      <td className="data-grid-actions">
                        <button
                          type="button"
                          className="icon-button"
                          aria-label={`Remove ${lower} ${i + 1}`}
                          title={`Remove this ${lower}`}
                          onClick={() => onChange(removeRow(grid, r.key))}
                        >
                          ×
                        </button>
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {grid.columns.length > 0 && grid.rows.length === 0 && <p className="muted">No {lower}s yet.</p>}
      <div className="row data-grid-foot">
        {!readOnly && (
          <>
            <button type="button" onClick={() => onChange(addColumn(grid))}>
              Add column
            </button>
            <button type="button" onClick={onAddRow} disabled={grid.columns.length === 0}>
              Add {lower}
            </button>
          </>
        )}
        <span className="spacer" />
        <span className="muted">
          {grid.columns.length} column{grid.columns.length === 1 ? "" : "s"}, {grid.rows.length} {lower}
          {grid.rows.length === 1 ? "" : "s"}
        </span>
        {pages > 1 && (
          <span className="data-grid-pages">
            <button type="button" className="small" disabled={shown === 0} onClick={() => setPage(shown - 1)}>
              Previous
            </button>{" "}
            <span>
              {lower}s {first + 1}–{Math.min(first + GRID_PAGE, grid.rows.length)}
            </span>{" "}
            <button type="button" className="small" disabled={shown >= pages - 1} onClick={() => setPage(shown + 1)}>
              Next
            </button>
          </span>
        )}
      </div>
    </div>
  );
}
