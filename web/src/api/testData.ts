// Test data sets (hub/api/testdata.go): named tables of a project. A test
// that binds one (document.data.set) runs once per row, ${column} reading
// the row. Everyone reads them; Test Developers and up change them, except
// a protected one (Test Managers and Admins only; runs on protected
// environments use only protected sets).
import type { Schema } from "./types";
import { del, get, inProject, post, recordCall, request, query } from "./client";

/** hub/api/testdata.go dataSetSummaryJSON: one entry of GET /api/test-data. */
export type DataSetSummary = Schema<"DataSetSummary">;

/** hub/api/testdata.go dataSetJSON. Every row holds every column ("" when empty). */
export type DataSet = Schema<"DataSet">;

/**
 * POST /api/test-data body: without id it creates (201), with id it
 * replaces that set (200). An update with only id and name renames.
 */
export interface DataSetSave {
  id?: string;
  name: string;
  columns?: string[];
  rows?: Record<string, string>[];
  /** Only Test Managers and Admins may set it (403 data_protected); absent keeps it. */
  protected?: boolean;
}

/** Query keys: each starts with "test-data", so invalidating ["test-data"] refreshes every screen. */
export const testDataKeys = {
  list: (projectId: string) => ["test-data", projectId, "list"] as const,
  one: (id: string) => ["test-data", "one", id] as const,
};

const setPath = (id: string) => `/api/test-data/${encodeURIComponent(id)}`;

export const listDataSets = async (projectId: string) =>
  (await get<{ dataSets: DataSetSummary[] }>("/api/test-data", inProject(projectId))).dataSets;

export const getDataSet = (id: string) => get<DataSet>(setPath(id), recordCall);

export const saveDataSet = (projectId: string, body: DataSetSave) => post<DataSet>("/api/test-data", body, inProject(projectId));

/**
 * saveDataSetCsv sends a CSV file as it is (content-type text/csv): its
 * header line names the columns. Without id it creates a set named name;
 * with id it replaces that set's content (and renames it when name is given).
 */
export async function saveDataSetCsv(projectId: string, csv: string, target: { name?: string; id?: string }): Promise<DataSet> {
  const res = await request<DataSet>(
    "POST",
    `/api/test-data${query({ name: target.name, id: target.id })}`,
    undefined,
    inProject(projectId, { rawBody: csv, contentType: "text/csv" }),
  );
  return res.data;
}

export const deleteDataSet = (id: string) => del(setPath(id), recordCall);

/** The CSV download of a saved set (GET /api/test-data/:id?format=csv, served as an attachment). */
export const dataSetCsvUrl = (id: string) => `${setPath(id)}?format=csv`;
