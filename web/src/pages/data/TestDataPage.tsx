// Test data (/test-data): the project's data sets. A test that binds one
// runs once per row, ${column} reading the row's value. Everyone reads and
// exports them; Test Developers and up create (in the grid or from a CSV
// file), change and delete them, except protected sets (Test Managers and
// Admins only), which the list marks.
import { useRef, useState, type ChangeEvent } from "react";
import { Link, useNavigate } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { dataSetCsvUrl, deleteDataSet, listDataSets, saveDataSetCsv, testDataKeys, type DataSetSummary } from "../../api/testData";
import { may } from "../../api/admin";
import { useWorkspace } from "../../session";
import { ErrorBox, IssueList, PageHeader, When } from "../../components/ui";
import { ConfirmAction } from "../../components/ConfirmAction";
import { ResourceTable } from "../../components/ResourceTable";
import { nameFromFile, readFileText } from "./useUnsaved";
import { DataProtectedBadge, mayProtect } from "./protection";
import "./data.css";

export function TestDataPage() {
  const ws = useWorkspace();
  const canManage = may.manageSuites(ws.role);
  const projectId = ws.project?.id ?? "";
  const qc = useQueryClient();
  const navigate = useNavigate();
  const sets = useQuery({ queryKey: testDataKeys.list(projectId), queryFn: () => listDataSets(projectId) });
  const [deleting, setDeleting] = useState<DataSetSummary | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [fileName, setFileName] = useState("");

  const importCsv = useMutation({
    mutationFn: async (file: File) => saveDataSetCsv(projectId, await readFileText(file), { name: nameFromFile(file.name) }),
    onSuccess: async (set) => {
      await qc.invalidateQueries({ queryKey: ["test-data"] });
      void navigate(`/test-data/${set.id}`);
    },
  });
  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = ""; // the same file may be chosen again after fixing it
    if (!file) return;
    setFileName(file.name);
    importCsv.mutate(file);
  };

  return (
    <section className="data-page">
      <PageHeader title="Test data" subtitle="Tables a test runs with once per row: ${column} in a step reads the row's value.">
        {canManage && (
          <>
            <button type="button" onClick={() => fileInput.current?.click()} disabled={importCsv.isPending}>
              {importCsv.isPending ? "Importing…" : "Import CSV…"}
            </button>
            <input
              ref={fileInput}
              type="file"
              accept=".csv,text/csv"
              hidden
              aria-label="CSV file to import as a new data set"
              data-testid="import-csv-new"
              onChange={onFile}
            />
            <Link className="button primary" to="/test-data/new">
              New data set
            </Link>
          </>
        )}
      </PageHeader>
      {!canManage && (
        <p className="notice">
          Test Developers, Test Managers and Admins create and change test data; your role in this project is {ws.role ?? "none"}, so you
          can view and export it.
        </p>
      )}
      {importCsv.isError && (
        <div>
          <ErrorBox error={importCsv.error} title={`${fileName} was not imported`} />
          <IssueList error={importCsv.error} />
        </div>
      )}
      <ResourceTable
        query={sets}
        rowKey={(s) => s.id}
        loadingLabel="Loading test data"
        errorTitle="Test data could not be loaded"
        empty={<>No data sets yet.{canManage ? " Create one in the grid or import a CSV file whose first line names the columns." : ""}</>}
        columns={[
          {
            header: "Name",
            cell: (s) => (
              <>
                <Link to={`/test-data/${s.id}`}>{s.name}</Link>
                {s.protected && (
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
            cell: (s) => (s.columns.length ? <span className="mono">{s.columns.join(", ")}</span> : <span className="muted">none</span>),
          },
          { header: "Rows", className: "num", headerClassName: "num", cell: (s) => s.rowCount },
          { header: "Updated", cell: (s) => <When at={s.updatedAt} /> },
        ]}
        actionsClassName="data-actions"
        actions={(s) => (
          <>
            <a className="button small" href={dataSetCsvUrl(s.id)} download aria-label={`Export ${s.name} as CSV`}>
              Export CSV
            </a>
            {canManage && (!s.protected || mayProtect(ws.role)) && (
              <button type="button" className="small" aria-label={`Delete ${s.name}`} onClick={() => setDeleting(s)}>
                Delete
              </button>
            )}
          </>
        )}
      />
      {deleting && <DeleteDataSet set={deleting} onClose={() => setDeleting(null)} />}
    </section>
  );
}

export function DeleteDataSet({
  set,
  onClose,
  onDeleted,
}: {
  set: Pick<DataSetSummary, "id" | "name">;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  return (
    <ConfirmAction
      title={`Delete data set ${set.name}?`}
      confirmLabel="Delete data set"
      action={() => deleteDataSet(set.id)}
      refresh={[["test-data"]]}
      onDone={() => {
        onClose();
        onDeleted?.();
      }}
      onCancel={onClose}
    >
      <p>
        Data set <strong>{set.name}</strong> and all its rows are deleted; this cannot be undone. Tests that bind it can no longer run until
        another data set is chosen in their settings. Runs made with it keep their rows.
      </p>
    </ConfirmAction>
  );
}
