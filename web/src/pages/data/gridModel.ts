// The grid the data set and data pool editors edit: named columns and rows
// of cells, as pure operations. Rows carry a key so a row keeps its inputs
// (and focus) when another row is added or removed above it.
import type { Issue } from "../../api";

export interface GridRow {
  key: string;
  cells: string[];
}

export interface Grid {
  columns: string[];
  rows: GridRow[];
}

let lastKey = 0;
const newKey = () => `r${++lastKey}`;

export const emptyGrid: Grid = { columns: [], rows: [] };

/** gridFromTable makes a grid of the hub's columns and rows (objects of column to value). */
export function gridFromTable(columns: string[], rows: Record<string, string>[]): Grid {
  return { columns: [...columns], rows: rows.map((r) => ({ key: newKey(), cells: columns.map((c) => r[c] ?? "") })) };
}

/** gridFromCells makes a grid of columns and rows of cells (a parsed CSV). */
export function gridFromCells(columns: string[], rows: string[][]): Grid {
  return { columns: [...columns], rows: rows.map((cells) => ({ key: newKey(), cells: columns.map((_, j) => cells[j] ?? "") })) };
}

/**
 * tableFromGrid is what the hub takes: columns and one object per row. A
 * column named twice keeps the first one's values (the hub answers the
 * duplicate name as an issue).
 */
export function tableFromGrid(grid: Grid): { columns: string[]; rows: Record<string, string>[] } {
  return {
    columns: [...grid.columns],
    rows: grid.rows.map((r) => {
      const o: Record<string, string> = {};
      grid.columns.forEach((c, j) => {
        if (!(c in o)) o[c] = r.cells[j] ?? "";
      });
      return o;
    }),
  };
}

/** The grid's content without row keys, to compare a grid with the saved one. */
export function gridContent(grid: Grid): string {
  return JSON.stringify([grid.columns, grid.rows.map((r) => r.cells)]);
}

/** freshColumnName is column1, column2 ...: the first that no column has. */
export function freshColumnName(columns: string[]): string {
  let n = columns.length + 1;
  while (columns.includes(`column${n}`)) n++;
  return `column${n}`;
}

export function addColumn(grid: Grid, name = freshColumnName(grid.columns)): Grid {
  return { columns: [...grid.columns, name], rows: grid.rows.map((r) => ({ ...r, cells: [...r.cells, ""] })) };
}

export function renameColumn(grid: Grid, at: number, name: string): Grid {
  return { ...grid, columns: grid.columns.map((c, j) => (j === at ? name : c)) };
}

export function removeColumn(grid: Grid, at: number): Grid {
  return {
    columns: grid.columns.filter((_, j) => j !== at),
    rows: grid.rows.map((r) => ({ ...r, cells: r.cells.filter((_, j) => j !== at) })),
  };
}

/** addRow adds an empty row at the end, or after the row `after`. */
export function addRow(grid: Grid, after?: string): Grid {
  const row = { key: newKey(), cells: grid.columns.map(() => "") };
  const at = after === undefined ? -1 : grid.rows.findIndex((r) => r.key === after);
  const rows = [...grid.rows];
  rows.splice(at < 0 ? rows.length : at + 1, 0, row);
  return { ...grid, rows };
}

export function removeRow(grid: Grid, key: string): Grid {
  return { ...grid, rows: grid.rows.filter((r) => r.key !== key) };
}

export function setCell(grid: Grid, key: string, at: number, value: string): Grid {
  return {
    ...grid,
    rows: grid.rows.map((r) => (r.key === key ? { ...r, cells: r.cells.map((c, j) => (j === at ? value : c)) } : r)),
  };
}

/** A column name is read as ${name}: a letter or _ first, then letters, digits and _. */
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * columnProblem says what the hub will refuse in column `at`'s name, before
 * it is sent: empty, too long, not a name ${…} can read, reserved, or twice.
 */
export function columnProblem(columns: string[], at: number): string | null {
  const name = columns[at];
  if (name === "") return "a column needs a name";
  if (name.length > 64) return "at most 64 characters";
  if (!IDENT.test(name)) return "letters, digits and _ only, not starting with a digit (it is read as ${name})";
  if (name === "secrets") return '"secrets" is reserved for ${secrets.NAME}';
  if (columns.indexOf(name) !== at) return `column ${columns.indexOf(name) + 1} has this name already`;
  return null;
}

/** Where the hub's issues of a save belong: a column's name, a row, a cell, or elsewhere. */
export interface PlacedGridIssues {
  columns: Record<number, string[]>;
  /** By row index, then by column name ("" for the row itself). */
  cells: Record<number, Record<string, string[]>>;
  other: Issue[];
}

const COLUMN_PATH = /^columns\[(\d+)\]$/;

/** placeGridIssues places issues of paths columns[i], <rowsKey>[i] and <rowsKey>[i].<column>. */
export function placeGridIssues(issues: Issue[], rowsKey: "rows" | "records"): PlacedGridIssues {
  const out: PlacedGridIssues = { columns: {}, cells: {}, other: [] };
  const rowPath = new RegExp(`^${rowsKey}\\[(\\d+)\\](?:\\.(.+)|\\["(.+)"\\])?$`);
  for (const issue of issues) {
    const col = COLUMN_PATH.exec(issue.path);
    if (col) {
      (out.columns[Number(col[1])] ??= []).push(issue.message);
      continue;
    }
    const row = rowPath.exec(issue.path);
    if (row) {
      const byCol = (out.cells[Number(row[1])] ??= {});
      (byCol[row[2] ?? row[3] ?? ""] ??= []).push(issue.message);
      continue;
    }
    out.other.push(issue);
  }
  return out;
}
