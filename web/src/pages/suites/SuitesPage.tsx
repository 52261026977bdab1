// Suites: the project's named groups of tests. Test Developers and up add,
// rename (which moves the suite's tests, each getting a new version noting
// it) and delete empty ones. Everyone may run a suite: every test of it
// they can see that is not Deprecated, as one batch.
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { addSuite, deleteSuite, keys, may, renameSuite } from "../../api/admin";
import { listSuites, type Suite } from "../../api/testsApi";
import { ApiError } from "../../api";
import { useProjectId, useWorkspace } from "../../session";
import { Confirm, ErrorBox, IssueList, Modal, PageHeader } from "../../components/ui";
import { ResourceTable } from "../../components/ResourceTable";
import { BatchRunDialog } from "../runs/BatchRunDialog";
import "./suites.css";

export const NOT_EMPTY_HINT = "Only empty suites can be deleted";

/** describeSuiteError explains a refusal in words; the hub's 409s say what to do. */
function suiteError(err: unknown): unknown {
  if (err instanceof ApiError && err.code === "suite_not_empty") {
    return new ApiError(
      err.status,
      "This suite still has tests, perhaps private ones of other members that you cannot see: they must be moved or deleted first.",
      err.code,
    );
  }
  return err;
}

export function SuitesPage() {
  const ws = useWorkspace();
  const projectId = ws.project?.id ?? "";
  const canManage = may.manageSuites(ws.role);
  const suites = useQuery({ queryKey: keys.suites(projectId), queryFn: ({ signal }) => listSuites(projectId, signal) });
  const [renaming, setRenaming] = useState<Suite | null>(null);
  const [deleting, setDeleting] = useState<Suite | null>(null);
  const [running, setRunning] = useState<Suite | null>(null);
  const [done, setDone] = useState<string | null>(null);

  return (
    <section className="suites">
      <PageHeader title="Suites" subtitle="Groups of tests. A test names its suite; a test without one is unsorted." />
      {canManage ? (
        <AddSuite onAdded={(name) => setDone(`Suite ${name} added.`)} />
      ) : (
        <p className="notice">Test Developers, Test Managers and Admins manage suites; your role in this project is {ws.role ?? "none"}.</p>
      )}
      {done && (
        <p className="ok-box" role="status">
          {done}
        </p>
      )}
      <ResourceTable
        query={suites}
        className="table suites-table"
        rowKey={(s) => s.name}
        loadingLabel="Loading suites"
        errorTitle="Suites could not be loaded"
        empty="No suites yet."
        columns={[
          { header: "Name", cell: (s) => <Link to={`/tests?suite=${encodeURIComponent(s.name)}`}>{s.name}</Link> },
          { header: "Tests", headerClassName: "num", className: "num", cell: (s) => s.tests },
        ]}
        actionsClassName="suite-actions"
        actions={(s) => (
          <>
            <button
              type="button"
              className="small primary"
              aria-label={`Run suite ${s.name}`}
              disabled={s.tests === 0}
              onClick={() => setRunning(s)}
            >
              Run suite
            </button>
            {canManage && (
              <>
                <button type="button" className="small" aria-label={`Rename ${s.name}`} onClick={() => setRenaming(s)}>
                  Rename
                </button>
                <span title={s.tests > 0 ? NOT_EMPTY_HINT : undefined}>
                  <button
                    type="button"
                    className="small"
                    aria-label={`Delete ${s.name}`}
                    disabled={s.tests > 0}
                    aria-describedby={s.tests > 0 ? "suite-delete-hint" : undefined}
                    onClick={() => setDeleting(s)}
                  >
                    Delete
                  </button>
                </span>
              </>
            )}
          </>
        )}
      />
      {canManage && !!suites.data?.length && (
        <p className="hint" id="suite-delete-hint">
          {NOT_EMPTY_HINT}: move or delete a suite's tests first, or rename it.
        </p>
      )}
      {renaming && (
        <RenameSuite
          suite={renaming}
          onClose={() => setRenaming(null)}
          onRenamed={(to, moved) =>
            setDone(
              `Suite ${renaming.name} is now ${to}${moved > 0 ? `: ${moved} test${moved === 1 ? "" : "s"} moved, each with a new version noting the rename.` : "."}`,
            )
          }
        />
      )}
      {running && ws.project && (
        <BatchRunDialog
          title={`Run suite ${running.name}`}
          summary={`The tests of ${running.name} you can see (${running.tests}) will run, each as its own run; Deprecated tests are left out.`}
          selection={{ suite: running.name }}
          projectId={ws.project.id}
          onClose={() => setRunning(null)}
        />
      )}
      {deleting && (
        <DeleteSuite suite={deleting} onClose={() => setDeleting(null)} onDeleted={() => setDone(`Suite ${deleting.name} deleted.`)} />
      )}
    </section>
  );
}

function AddSuite({ onAdded }: { onAdded: (name: string) => void }) {
  const qc = useQueryClient();
  const projectId = useProjectId();
  const [name, setName] = useState("");
  const add = useMutation({
    mutationFn: (n: string) => addSuite(projectId, n),
    onSuccess: async (_, n) => {
      setName("");
      onAdded(n);
      await qc.invalidateQueries({ queryKey: ["suites"] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) add.mutate(name.trim());
  };
  return (
    <form className="suite-add" onSubmit={submit}>
      <label>
        New suite
        <input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} placeholder="Checkout" />
      </label>
      <button type="submit" className="primary" disabled={add.isPending || !name.trim()}>
        Add suite
      </button>
      <ErrorBox error={add.error} />
      <IssueList error={add.error} />
    </form>
  );
}

function RenameSuite({ suite, onClose, onRenamed }: { suite: Suite; onClose: () => void; onRenamed: (to: string, moved: number) => void }) {
  const qc = useQueryClient();
  const projectId = useProjectId();
  const [name, setName] = useState(suite.name);
  const rename = useMutation({
    mutationFn: () => renameSuite(projectId, suite.name, name.trim()),
    onSuccess: async (res) => {
      onRenamed(res.name, res.moved);
      await qc.invalidateQueries({ queryKey: ["suites"] });
      await qc.invalidateQueries({ queryKey: ["tests"] });
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    rename.mutate();
  };
  return (
    <Modal title={`Rename suite ${suite.name}`} onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <label>
          New name
          <input required autoFocus maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <p className="hint">
          Renaming moves every test of the suite to the new name
          {suite.tests > 0 ? ` (${suite.tests} you can see, and any private tests of other members)` : ""}. Each moved test gets a new
          version, with the same status, whose note says the suite was renamed; earlier versions are kept.
        </p>
        <ErrorBox error={rename.error} />
        <IssueList error={rename.error} />
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={rename.isPending || !name.trim() || name.trim() === suite.name}>
            {rename.isPending ? "Renaming…" : "Rename"}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function DeleteSuite({ suite, onClose, onDeleted }: { suite: Suite; onClose: () => void; onDeleted: () => void }) {
  const qc = useQueryClient();
  const projectId = useProjectId();
  const remove = useMutation({
    mutationFn: () => deleteSuite(projectId, suite.name),
    onSuccess: async () => {
      onDeleted();
      await qc.invalidateQueries({ queryKey: ["suites"] });
      onClose();
    },
  });
  return (
    <Confirm
      title={`Delete suite ${suite.name}?`}
      confirmLabel="Delete suite"
      danger
      busy={remove.isPending}
      error={suiteError(remove.error)}
      onConfirm={() => remove.mutate()}
      onCancel={onClose}
    >
      <p>
        Suite <strong>{suite.name}</strong> has no tests; it is removed from the project's suite list.
      </p>
    </Confirm>
  );
}
