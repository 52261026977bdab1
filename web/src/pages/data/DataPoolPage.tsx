// One data pool (/data-pools/:id, /data-pools/new): its records with their
// state and who holds them (run, test, user), Reset (consumed records and
// the leases of ended runs come back), Delete, and editing the name and
// records in the grid. While a queued or running run holds a lease the hub
// refuses to change the records or delete the pool (409 pool_in_use); its
// message is shown as it is. Protected (Test Managers and Admins only)
// marks the pools runs on protected environments may use; a protected pool
// is read-only for the other roles.
import { useRef, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, type Role } from "../../api";
import { may } from "../../api/admin";
import {
  dataPoolKeys,
  deleteDataPool,
  getDataPool,
  resetDataPool,
  saveDataPool,
  type DataPool,
  type PoolRecord,
} from "../../api/dataPools";
import { useFollowProject, useWorkspace } from "../../session";
import { Confirm, ErrorBox, IssueList, Loading, PageHeader, StatusBadge, When } from "../../components/ui";
import { DISCARDED, LeaveGuard } from "../editor/LeaveGuard";
import { DataGrid } from "./DataGrid";
import { emptyGrid, gridContent, gridFromTable, placeGridIssues, tableFromGrid, type Grid } from "./gridModel";
import { PoolCounts } from "./DataPoolsPage";
import { useWarnBeforeUnload } from "./useUnsaved";
import { DataProtectedBadge, mayProtect, ProtectedField, ProtectedNotice } from "./protection";
import "./data.css";

export function DataPoolPage() {
  const { id = "" } = useParams();
  if (id === "new") return <NewPool />;
  return <PoolDetail key={id} id={id} />;
}

function NewPool() {
  const ws = useWorkspace();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const projectId = ws.project?.id ?? "";
  if (!may.manageSuites(ws.role)) {
    return (
      <>
        <PageHeader title="New data pool" />
        <p className="notice">
          Test Developers, Test Managers and Admins create data pools; your role in this project is {ws.role ?? "none"}.
        </p>
        <Link to="/data-pools">Back to data pools</Link>
      </>
    );
  }
  return (
    <section className="data-page">
      <PageHeader title="New data pool" subtitle={<Link to="/data-pools">All data pools</Link>} />
      <PoolEditor
        projectId={projectId}
        role={ws.role}
        pool={null}
        onSaved={(p) => {
          qc.setQueryData(dataPoolKeys.one(p.id), p);
          void navigate(`/data-pools/${p.id}`, { replace: true, state: DISCARDED });
        }}
        onCancel={() => void navigate("/data-pools")}
      />
    </section>
  );
}

function PoolDetail({ id }: { id: string }) {
  const ws = useWorkspace();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const q = useQuery({
    queryKey: dataPoolKeys.one(id),
    queryFn: () => getDataPool(id),
    // A leased record comes back when its run ends.
    refetchInterval: (query) => (query.state.data && query.state.data.leased > 0 ? 5_000 : false),
  });
  useFollowProject(q.data?.projectId);
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState<"reset" | "delete" | null>(null);
  const reset = useMutation({
    mutationFn: () => resetDataPool(id),
    onSuccess: (p) => {
      qc.setQueryData(dataPoolKeys.one(id), p);
      void qc.invalidateQueries({ queryKey: ["data-pools", p.projectId] });
      setConfirm(null);
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteDataPool(id),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ["data-pools"] });
      setConfirm(null);
      void navigate("/data-pools", { state: DISCARDED });
    },
  });

  if (q.isPending) return <Loading label="Loading the data pool" />;
  if (q.isError) {
    return (
      <>
        <PageHeader title="Data pool" />
        <ErrorBox error={q.error} />
        <Link to="/data-pools">Back to data pools</Link>
      </>
    );
  }
  const pool = q.data;
  const role = ws.project?.id === pool.projectId ? ws.role : null;
  // A protected pool is changed, reset and deleted by Test Managers and Admins only.
  const canManage = may.manageSuites(role) && (!pool.protected || mayProtect(role));
  return (
    <section className="data-page data-pool-page">
      <PageHeader
        title={
          <>
            {pool.name}
            {pool.protected && (
              <>
                {" "}
                <DataProtectedBadge />
              </>
            )}
          </>
        }
        subtitle={
          <span className="row">
            <Link to="/data-pools">All data pools</Link>
            <span className="muted">
              Updated <When at={pool.updatedAt} />
            </span>
          </span>
        }
      >
        {canManage && !editing && (
          <>
            <button type="button" onClick={() => setEditing(true)}>
              Edit records
            </button>
            <button type="button" onClick={() => setConfirm("reset")}>
              Reset
            </button>
            <button type="button" onClick={() => setConfirm("delete")}>
              Delete
            </button>
          </>
        )}
      </PageHeader>
      {may.manageSuites(role) && !canManage && <ProtectedNotice what="data pool" role={role} />}
      <p>
        <PoolCounts pool={pool} />
      </p>
      {reset.isSuccess && !editing && (
        <p className="ok-box" role="status">
          The pool was reset: consumed records and the leases of runs that ended are free again.
        </p>
      )}
      {editing ? (
        <PoolEditor
          projectId={pool.projectId}
          role={role}
          pool={pool}
          onSaved={(p) => {
            qc.setQueryData(dataPoolKeys.one(id), p);
            void qc.invalidateQueries({ queryKey: ["data-pools", p.projectId] });
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <RecordsTable pool={pool} />
      )}
      {confirm === "reset" && (
        <Confirm
          title={`Reset data pool ${pool.name}?`}
          confirmLabel="Reset pool"
          busy={reset.isPending}
          error={reset.error}
          onConfirm={() => reset.mutate()}
          onCancel={() => setConfirm(null)}
        >
          <p>
            Its {pool.consumed} {pool.consumed === 1 ? "consumed record becomes" : "consumed records become"} free again, and so do leases
            of runs that have ended. Records leased by a run still going on stay with it.
          </p>
        </Confirm>
      )}
      {confirm === "delete" && (
        <Confirm
          title={`Delete data pool ${pool.name}?`}
          confirmLabel="Delete data pool"
          danger
          busy={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate()}
          onCancel={() => setConfirm(null)}
        >
          <p>
            Data pool <strong>{pool.name}</strong> and its {pool.total} record{pool.total === 1 ? "" : "s"} are deleted; this cannot be
            undone. Tests that bind it can no longer run until another pool is chosen in their settings.
          </p>
        </Confirm>
      )}
    </section>
  );
}

function Holder({ rec }: { rec: PoolRecord }) {
  if (rec.state === "free") return <span className="muted">—</span>;
  if (!rec.runId) return <span className="muted">a run you cannot see (a private test)</span>;
  return (
    <span className="pool-holder">
      <Link to={`/runs/${rec.runId}`} className="mono">
        {rec.runId}
      </Link>
      {rec.testId && (
        <>
          {" "}
          of <Link to={`/tests/${rec.testId}`}>{rec.testName || rec.testId}</Link>
        </>
      )}
      {rec.takenBy && <> by {rec.takenBy.name}</>}
      {rec.takenAt && (
        <>
          , <When at={rec.takenAt} />
        </>
      )}
    </span>
  );
}

function RecordsTable({ pool }: { pool: DataPool }) {
  if (pool.records.length === 0) return <p className="muted">This pool has no records yet.</p>;
  return (
    <div className="data-grid-scroll">
      <table className="table pool-records">
        <thead>
          <tr>
            <th scope="col" className="num data-grid-num">
              #
            </th>
            {pool.columns.map((c) => (
              <th key={c} scope="col" className="mono">
                {c}
              </th>
            ))}
            <th scope="col">State</th>
            <th scope="col">Held by</th>
          </tr>
        </thead>
        <tbody>
          {pool.records.map((r) => (
            <tr key={r.index} data-testid={`record-${r.index + 1}`}>
              <td className="num data-grid-num">{r.index + 1}</td>
              {pool.columns.map((c) => (
                <td key={c}>{r.values[c] ?? ""}</td>
              ))}
              <td>
                <StatusBadge status={r.state} />
              </td>
              <td>
                <Holder rec={r} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** PoolEditor edits a pool's name and records in the grid (a new pool: pool null). */
function PoolEditor({
  projectId,
  role,
  pool,
  onSaved,
  onCancel,
}: {
  projectId: string;
  role: Role | null;
  pool: DataPool | null;
  onSaved: (p: DataPool) => void;
  onCancel: () => void;
}) {
  const start = useRef<Grid>(
    pool
      ? gridFromTable(
          pool.columns,
          pool.records.map((r) => r.values),
        )
      : emptyGrid,
  );
  const [name, setName] = useState(pool?.name ?? "");
  const [grid, setGrid] = useState<Grid>(start.current);
  const [isProtected, setProtected] = useState(pool?.protected ?? false);
  const dirty =
    name !== (pool?.name ?? "") || gridContent(grid) !== gridContent(start.current) || isProtected !== (pool?.protected ?? false);
  useWarnBeforeUnload(dirty);
  const save = useMutation({
    mutationFn: () => {
      const t = tableFromGrid(grid);
      return saveDataPool(projectId, {
        ...(pool ? { id: pool.id } : {}),
        name: name.trim(),
        columns: t.columns,
        records: t.rows,
        protected: isProtected,
      });
    },
    onSuccess: onSaved,
  });
  const issues = save.error instanceof ApiError ? save.error.issues : [];
  const placed = placeGridIssues(issues, "records");
  const nameIssues = placed.other.filter((i) => i.path === "name");
  const recordsChanged = pool !== null && gridContent(grid) !== gridContent(start.current);
  return (
    <div className="pool-editor">
      {pool && pool.leased > 0 && (
        <p className="notice notice-warn">
          {pool.leased} record{pool.leased === 1 ? " is" : "s are"} leased by a run that is going on: the hub refuses changed records until
          it ends.
        </p>
      )}
      <div className="field data-name">
        <label htmlFor="data-pool-name">Name</label>
        <input
          id="data-pool-name"
          required
          maxLength={100}
          value={name}
          aria-invalid={nameIssues.length ? true : undefined}
          onChange={(e) => setName(e.target.value)}
        />
        {nameIssues.map((i) => (
          <span key={i.message} className="field-error">
            {i.message}
          </span>
        ))}
      </div>
      <ProtectedField id="data-pool-protected" checked={isProtected} onChange={setProtected} role={role} />
      <p className="hint">
        A run takes one record: <code>{"${column}"}</code> in its steps reads the record&apos;s value.
        {recordsChanged && " Saving changed records makes every record free again."}
      </p>
      <DataGrid grid={grid} onChange={setGrid} noun="Record" issues={placed} />
      {save.isError && (
        <div>
          <ErrorBox error={save.error} title="The data pool was not saved" />
          <IssueList
            error={
              new ApiError(
                422,
                "",
                "",
                placed.other.filter((i) => i.path !== "name"),
              )
            }
          />
        </div>
      )}
      <div className="row data-editor-actions">
        <button type="button" onClick={onCancel}>
          {dirty ? "Discard changes" : "Cancel"}
        </button>
        <button type="button" className="primary" onClick={() => save.mutate()} disabled={save.isPending || (!!pool && !dirty)}>
          {save.isPending ? "Saving…" : pool ? "Save records" : "Create data pool"}
        </button>
        {dirty && <span className="unsaved">Unsaved changes</span>}
      </div>
      <LeaveGuard when={dirty} what="This data pool has unsaved changes" />
    </div>
  );
}
