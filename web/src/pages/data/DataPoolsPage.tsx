// Data pools (/data-pools): records that runs take one at a time, each
// pool with how many records are free, leased by a running test, or
// consumed until the pool is reset. Test Developers and up create, change,
// reset and delete pools, except protected pools (Test Managers and Admins
// only), which the list marks.
import { Link } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { dataPoolKeys, listDataPools, type DataPoolSummary } from "../../api/dataPools";
import { may } from "../../api/admin";
import { useWorkspace } from "../../session";
import { PageHeader, When } from "../../components/ui";
import { ResourceTable } from "../../components/ResourceTable";
import { DataProtectedBadge } from "./protection";
import "./data.css";

/** PoolCounts shows a pool's free, leased and consumed records. */
export function PoolCounts({ pool }: { pool: Pick<DataPoolSummary, "free" | "leased" | "consumed" | "total"> }) {
  return (
    <span className="pool-counts" data-testid="pool-counts">
      <span className="badge badge-free">{pool.free} free</span> <span className="badge badge-leased">{pool.leased} leased</span>{" "}
      <span className="badge badge-consumed">{pool.consumed} consumed</span> <span className="muted">of {pool.total}</span>
    </span>
  );
}

export function DataPoolsPage() {
  const ws = useWorkspace();
  const canManage = may.manageSuites(ws.role);
  const projectId = ws.project?.id ?? "";
  const pools = useQuery({
    queryKey: dataPoolKeys.list(projectId),
    queryFn: () => listDataPools(projectId),
    // Leases come back when their runs end.
    refetchInterval: (q) => ((q.state.data ?? []).some((p) => p.leased > 0) ? 10_000 : false),
  });
  return (
    <section className="data-page">
      <PageHeader
        title="Data pools"
        subtitle="Records a test takes one per run: leased while the run goes on, or consumed until the pool is reset."
      >
        {canManage && (
          <Link className="button primary" to="/data-pools/new">
            New data pool
          </Link>
        )}
      </PageHeader>
      {!canManage && (
        <p className="notice">
          Test Developers, Test Managers and Admins create, change and reset data pools; your role in this project is {ws.role ?? "none"}.
        </p>
      )}
      <ResourceTable
        query={pools}
        rowKey={(p) => p.id}
        loadingLabel="Loading data pools"
        errorTitle="Data pools could not be loaded"
        empty={<>No data pools yet.{canManage ? " Create one with the accounts, cards or other records tests must not share." : ""}</>}
        columns={[
          {
            header: "Name",
            cell: (p) => (
              <>
                <Link to={`/data-pools/${p.id}`}>{p.name}</Link>
                {p.protected && (
                  <>
                    {" "}
                    <DataProtectedBadge />
                  </>
                )}
              </>
            ),
          },
          {
            header: "Columns",
            className: "data-columns",
            cell: (p) => (p.columns.length ? <span className="mono">{p.columns.join(", ")}</span> : <span className="muted">none</span>),
          },
          { header: "Free", className: "num", headerClassName: "num", cell: (p) => p.free },
          { header: "Leased", className: "num", headerClassName: "num", cell: (p) => p.leased },
          { header: "Consumed", className: "num", headerClassName: "num", cell: (p) => p.consumed },
          { header: "Records", className: "num", headerClassName: "num", cell: (p) => p.total },
          { header: "Updated", cell: (p) => <When at={p.updatedAt} /> },
        ]}
      />
    </section>
  );
}
