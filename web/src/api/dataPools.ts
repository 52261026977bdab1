// Data pools (hub/api/datapools.go): records that runs take one at a time.
// A test binding a pool (document.data.pool, data.mode) takes the first free
// record when its run is handed to an agent: leased until the run ends, or
// consumed until the pool is reset. Everyone reads pools and who holds their
// records; Test Developers and up change, reset and delete them, except a
// protected one (Test Managers and Admins only; runs on protected
// environments use only protected pools).
import type { Schema } from "./types";
import { del, get, inProject, post, recordCall } from "./client";

export type PoolRecordState = "free" | "leased" | "consumed";
export type PoolMode = "lease" | "consume";

/** hub/api/datapools.go dataPoolSummaryJSON: one entry of GET /api/data-pools. */
export type DataPoolSummary = Schema<"DataPoolSummary">;

/**
 * hub/api/datapools.go poolRecordJSON. Who holds a taken record (run, test,
 * user, when) is left out for a run of someone else's private test.
 */
export type PoolRecord = Schema<"PoolRecord">;

/** hub/api/datapools.go dataPoolJSON */
export type DataPool = Schema<"DataPool">;

/**
 * POST /api/data-pools body: without id it creates (201), with id it updates
 * (200). Records equal to the stored ones keep their states; other records
 * replace them all as free (409 pool_in_use while a queued or running run
 * holds a lease). Only id and name: a rename.
 */
export interface DataPoolSave {
  id?: string;
  name: string;
  columns?: string[];
  records?: Record<string, string>[];
  /** Only Test Managers and Admins may set it (403 data_protected); absent keeps it. */
  protected?: boolean;
}

/** Query keys: each starts with "data-pools". */
export const dataPoolKeys = {
  list: (projectId: string) => ["data-pools", projectId, "list"] as const,
  one: (id: string) => ["data-pools", "one", id] as const,
};

const poolPath = (id: string) => `/api/data-pools/${encodeURIComponent(id)}`;

export const listDataPools = async (projectId: string) =>
  (await get<{ dataPools: DataPoolSummary[] }>("/api/data-pools", inProject(projectId))).dataPools;

export const getDataPool = (id: string) => get<DataPool>(poolPath(id), recordCall);

export const saveDataPool = (projectId: string, body: DataPoolSave) => post<DataPool>("/api/data-pools", body, inProject(projectId));

export const deleteDataPool = (id: string) => del(poolPath(id), recordCall);

/** POST /api/data-pools/:id/reset: consumed records and the leases of ended runs become free. */
export const resetDataPool = (id: string) => post<DataPool>(`${poolPath(id)}/reset`, undefined, recordCall);
