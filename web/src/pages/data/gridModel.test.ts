import { describe, expect, it } from "vitest";
import {
  addColumn,
  addRow,
  columnProblem,
  emptyGrid,
  gridContent,
  gridFromTable,
  placeGridIssues,
  removeColumn,
  removeRow,
  renameColumn,
  setCell,
  tableFromGrid,
} from "./gridModel";

describe("gridModel", () => {
  it("adds, renames and removes columns and rows, and gives the hub its table", () => {
    let g = addColumn(addColumn(emptyGrid));
    expect(g.columns).toEqual(["column1", "column2"]);
    g = renameColumn(g, 0, "email");
    g = addRow(addRow(g));
    g = setCell(g, g.rows[0].key, 0, "ann@example.com");
    g = setCell(g, g.rows[1].key, 1, "x");
    const first = g.rows[0].key;
    g = addRow(g, first); // after the first row
    expect(g.rows).toHaveLength(3);
    expect(g.rows[1].cells).toEqual(["", ""]);
    g = removeRow(g, g.rows[1].key);
    g = removeColumn(g, 1);
    expect(tableFromGrid(g)).toEqual({ columns: ["email"], rows: [{ email: "ann@example.com" }, { email: "" }] });
  });

  it("compares grids by content, not by row keys", () => {
    const a = gridFromTable(["a"], [{ a: "1" }]);
    const b = gridFromTable(["a"], [{ a: "1" }]);
    expect(a.rows[0].key).not.toBe(b.rows[0].key);
    expect(gridContent(a)).toBe(gridContent(b));
  });

  it("says what is wrong with a column name before the hub does", () => {
    const cols = ["email", "", "2fa", "email", "secrets"];
    expect(cols.map((_, i) => columnProblem(cols, i))).toEqual([
      null,
      "a column needs a name",
      "letters, digits and _ only, not starting with a digit (it is read as ${name})",
      "column 1 has this name already",
      '"secrets" is reserved for ${secrets.NAME}',
    ]);
  });

  it("places the hub's issues at columns, rows and cells", () => {
    const placed = placeGridIssues(
      [
        { path: "columns[1]", code: "duplicate", message: "dup" },
        { path: "rows[2].email", code: "too_long", message: "long" },
        { path: "rows[3]", code: "ragged", message: "ragged" },
        { path: 'rows[0]["we ird"]', code: "unknown", message: "unknown" },
        { path: "name", code: "required", message: "name is required" },
      ],
      "rows",
    );
    expect(placed.columns).toEqual({ 1: ["dup"] });
    expect(placed.cells).toEqual({ 2: { email: ["long"] }, 3: { "": ["ragged"] }, 0: { "we ird": ["unknown"] } });
    expect(placed.other.map((i) => i.path)).toEqual(["name"]);
  });
});
