// One data set (/test-data/:id, /test-data/new): its name and its rows in a
// grid editor. Save sends the whole table (POST /api/test-data); the hub's
// problems show at the column, row or cell they name, a file too large
// (413) or other refusals above the grid. Import CSV puts a file's rows in
// the grid to review before saving; Export CSV downloads the saved set.
// Protected (Test Managers and Admins only) marks the data runs on
// protected environments may use; a protected set is read-only for the
// other roles. Leaving with unsaved edits asks first.
import { useRef, useState, type ChangeEvent } from "react";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "../../api";
import { may } from "../../api/admin";
import { dataSetCsvUrl, getDataSet, saveDataSet, testDataKeys, type DataSet } from "../../api/testData";
import { useFollowProject, useWorkspace } from "../../session";
import { Confirm, ErrorBox, IssueList, Loading, PageHeader, When } from "../../components/ui";
import { DISCARDED, LeaveGuard } from "../editor/LeaveGuard";
import { parseCsv } from "./csv";
import { DataGrid } from "./DataGrid";
import { emptyGrid, gridContent, gridFromCells, gridFromTable, placeGridIssues, tableFromGrid, type Grid } from "./gridModel";
import { DeleteDataSet } from "./TestDataPage";
import { readFileText, useWarnBeforeUnload } from "./useUnsaved";
import { DataProtectedBadge, mayProtect, ProtectedField, ProtectedNotice } from "./protection";
import "./data.css";

export function DataSetPage() {
  const { id = "" } = useParams();
  if (id === "new") return <DataSetEditor key="new" initial={null} />;
  return <LoadDataSet key={id} id={id} />;
}

function LoadDataSet({ id }: { id: string }) {
  const q = useQuery({ queryKey: testDataKeys.one(id), queryFn: () => getDataSet(id) });
  useFollowProject(q.data?.projectId);
  if (q.isPending) return <Loading label="Loading the data set" />;
  if (q.isError) {
    return (
      <>
        <PageHeader title="Data set" />
        <ErrorBox error={q.error} />
        <Link to="/test-data">Back to test data</Link>
      </>
    );
  }
  return <DataSetEditor initial={q.data} />;
}

function gridOf(set: DataSet | null): Grid {
  return set ? gridFromTable(set.columns, set.rows) : emptyGrid;
}

/** Sent to the hub: the name, the protected flag and the grid's table, the id once saved. */
interface Sent {
  name: string;
  content: string;
  protected: boolean;
}

function DataSetEditor({ initial }: { initial: DataSet | null }) {
  const ws = useWorkspace();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const projectId = initial?.projectId ?? ws.project?.id ?? "";
  const role = ws.project?.id === projectId ? ws.role : null;
  const [saved, setSaved] = useState<DataSet | null>(initial);
  // A protected set is changed by Test Managers and Admins only.
  const mayEdit = may.manageSuites(role);
  const canManage = mayEdit && (!saved?.protected || mayProtect(role));
  const [isProtected, setProtected] = useState(initial?.protected ?? false);
  const [savedContent, setSavedContent] = useState(() => gridContent(gridOf(initial)));
  const [name, setName] = useState(initial?.name ?? "");
  const [grid, setGrid] = useState<Grid>(() => gridOf(initial));
  const [imported, setImported] = useState<{ file: string; rows: number; columns: number; problems: string[] } | null>(null);
  const [importError, setImportError] = useState<string | null>(null);
  const [replacing, setReplacing] = useState<{ file: string; grid: Grid; problems: string[] } | null>(null);
  const [deleting, setDeleting] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const latest = useRef<Sent>({ name, content: gridContent(grid), protected: isProtected });
  latest.current = { name, content: gridContent(grid), protected: isProtected };

  const dirty = name !== (saved?.name ?? "") || gridContent(grid) !== savedContent || isProtected !== (saved?.protected ?? false);
  // A new set's first save opens its own page: it says so there.
  const justSaved = (useLocation().state as { justSaved?: boolean } | null)?.justSaved === true;
  useWarnBeforeUnload(dirty);

  const save = useMutation({
    mutationFn: async (sent: Sent & { grid: Grid }) => {
      const table = tableFromGrid(sent.grid);
      return saveDataSet(projectId, { ...(saved ? { id: saved.id } : {}), name: sent.name.trim(), protected: sent.protected, ...table });
    },
    onSuccess: (set, sent) => {
      qc.setQueryData(testDataKeys.one(set.id), set);
      void qc.invalidateQueries({ queryKey: testDataKeys.list(projectId) });
      setSaved(set);
      const content = gridContent(gridFromTable(set.columns, set.rows));
      setSavedContent(content);
      // Edits made while the save was on its way stay unsaved.
      if (latest.current.name === sent.name) setName(set.name);
      if (latest.current.protected === sent.protected) setProtected(set.protected);
      if (latest.current.content === sent.content && content !== sent.content) setGrid(gridFromTable(set.columns, set.rows));
      setImported(null);
      if (!saved) void navigate(`/test-data/${set.id}`, { replace: true, state: { ...DISCARDED, justSaved: true } });
    },
  });
  const onSave = () => {
    if (!canManage || save.isPending) return;
    save.mutate({ name, content: gridContent(grid), protected: isProtected, grid });
  };

  const issues = save.error instanceof ApiError ? save.error.issues : [];
  const placed = placeGridIssues(issues, "rows");
  const nameIssues = placed.other.filter((i) => i.path === "name");
  const otherIssues = placed.other.filter((i) => i.path !== "name");

  const takeImport = (file: string, next: Grid, problems: string[]) => {
    setGrid(next);
    setImported({ file, rows: next.rows.length, columns: next.columns.length, problems });
    setReplacing(null);
  };
  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (!file) return;
    setImportError(null);
    setImported(null);
    let text: string;
    try {
      text = await readFileText(file);
    } catch (err) {
      setImportError(`${file.name} could not be read: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    const parsed = parseCsv(text);
    if ("error" in parsed) {
      setImportError(`${file.name} is not a CSV file the grid can read: ${parsed.error}.`);
      return;
    }
    const next = gridFromCells(parsed.columns, parsed.rows);
    if (grid.columns.length > 0 || grid.rows.length > 0) setReplacing({ file: file.name, grid: next, problems: parsed.problems });
    else takeImport(file.name, next, parsed.problems);
    if (!name.trim()) setName(file.name.replace(/\.[^.]*$/, "").slice(0, 100));
  };

  return (
    <section className="data-page data-set-page">
      <PageHeader
        title={
          <>
            {saved ? saved.name : "New data set"}
            {saved?.protected && (
              <>
                {" "}
                <DataProtectedBadge />
              </>
            )}
          </>
        }
        subtitle={
          <span className="row">
            <Link to="/test-data">All test data</Link>
            {saved && (
              <span className="muted">
                Updated <When at={saved.updatedAt} />
              </span>
            )}
          </span>
        }
      >
        {canManage && (
          <>
            <button type="button" onClick={() => fileInput.current?.click()}>
              Import CSV…
            </button>
            <input
              ref={fileInput}
              type="file"
              accept=".csv,text/csv"
              hidden
              aria-label="CSV file to put in the grid"
              data-testid="import-csv"
              onChange={(e) => void onFile(e)}
            />
          </>
        )}
        {saved && (
          <a
            className="button"
            href={dataSetCsvUrl(saved.id)}
            download
            title={dirty ? "Exports the saved version, without unsaved changes" : undefined}
          >
            Export CSV
          </a>
        )}
        {canManage && saved && (
          <button type="button" onClick={() => setDeleting(true)}>
            Delete
          </button>
        )}
        {canManage && (
          <button type="button" className="primary" onClick={onSave} disabled={!dirty || save.isPending}>
            {save.isPending ? "Saving…" : "Save"}
          </button>
        )}
      </PageHeader>
      {!mayEdit && (
        <p className="notice">
          Test Developers, Test Managers and Admins change test data; your role in this project is {ws.role ?? "none"}, so this data set is
          read-only for you.
        </p>
      )}
      {mayEdit && !canManage && <ProtectedNotice what="data set" role={role} />}
      <div className="row data-status">
        <span role="status" className={dirty ? "unsaved" : "muted"}>
          {dirty ? "Unsaved changes" : save.isSuccess || (justSaved && save.isIdle) ? "Saved." : ""}
        </span>
      </div>
      {save.isError && (
        <div>
          <ErrorBox error={save.error} title="The data set was not saved" />
          <IssueList error={new ApiError(422, "", "", otherIssues)} />
        </div>
      )}
      {importError && (
        <p className="error-box" role="alert">
          {importError}
        </p>
      )}
      {imported && (
        <div className="notice" role="status">
          Imported {imported.rows} row{imported.rows === 1 ? "" : "s"} and {imported.columns} column{imported.columns === 1 ? "" : "s"} from{" "}
          {imported.file}. Review them, then Save.
          {imported.problems.length > 0 && (
            <ul>
              {imported.problems.map((p) => (
                <li key={p}>{p}: its missing values are empty, extra ones left out.</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div className="field data-name">
        <label htmlFor="data-set-name">Name</label>
        {canManage ? (
          <input
            id="data-set-name"
            required
            maxLength={100}
            value={name}
            aria-invalid={nameIssues.length ? true : undefined}
            onChange={(e) => setName(e.target.value)}
          />
        ) : (
          <strong id="data-set-name">{name}</strong>
        )}
        {nameIssues.map((i) => (
          <span key={i.message} className="field-error">
            {i.message}
          </span>
        ))}
      </div>
      {canManage && <ProtectedField id="data-set-protected" checked={isProtected} onChange={setProtected} role={role} />}
      <p className="hint">
        Each row is one run of a test that binds this set; a step reads a column as <code>{"${name}"}</code>. Column names are letters,
        digits and _.
      </p>
      <DataGrid grid={grid} onChange={setGrid} readOnly={!canManage} noun="Row" issues={placed} />
      {replacing && (
        <Confirm
          title={`Replace the grid with ${replacing.file}?`}
          confirmLabel="Replace"
          onConfirm={() => takeImport(replacing.file, replacing.grid, replacing.problems)}
          onCancel={() => setReplacing(null)}
        >
          <p>
            The grid&apos;s {grid.columns.length} column{grid.columns.length === 1 ? "" : "s"} and {grid.rows.length} row
            {grid.rows.length === 1 ? "" : "s"} are replaced by the file&apos;s {replacing.grid.columns.length} column
            {replacing.grid.columns.length === 1 ? "" : "s"} and {replacing.grid.rows.length} row
            {replacing.grid.rows.length === 1 ? "" : "s"}. Nothing is saved until you Save.
          </p>
        </Confirm>
      )}
      {deleting && saved && (
        <DeleteDataSet set={saved} onClose={() => setDeleting(false)} onDeleted={() => void navigate("/test-data", { state: DISCARDED })} />
      )}
      <LeaveGuard when={dirty} what="This data set has unsaved changes" />
    </section>
  );
}
