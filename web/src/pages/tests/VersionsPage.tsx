// A test's version history: every version with its author, time and note;
// any version's document on demand; the step-level changes between any two
// versions; Restore adds a new Draft version with an old version's content
// (history is never rewritten).
import { useState } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Test, TestVersion } from "../../api";
import { getTest, getVersion, listVersions, restoreVersion } from "../../api/testsApi";
import { Confirm, ErrorBox, Loading, PageHeader, StatusBadge, When } from "../../components/ui";
import { useFollowProject } from "../../session";
import { DocumentView } from "./DocumentView";
import { VersionDiffPanel } from "./VersionDiffPanel";
import "./tests.css";

export function VersionsPage() {
  const { id = "" } = useParams();
  const [params, setParams] = useSearchParams();
  const viewing = Number(params.get("view")) || null;
  const compared = /^(\d+)\.\.(\d+)$/.exec(params.get("compare") ?? "");
  const qc = useQueryClient();
  const [restoring, setRestoring] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const test = useQuery({ queryKey: ["tests", "detail", id], queryFn: ({ signal }) => getTest(id, signal) });
  const versions = useQuery({ queryKey: ["tests", "versions", id], queryFn: ({ signal }) => listVersions(id, signal) });
  useFollowProject(test.data?.projectId);
  const restore = useMutation({
    mutationFn: (version: number) => restoreVersion(id, version),
    onSuccess: (t, version) => {
      setRestoring(null);
      setNotice(`Restored version ${version} as version ${t.version}`);
      qc.setQueryData(["tests", "detail", id], t);
      void qc.invalidateQueries({ queryKey: ["tests"] });
      // The editor's copy of this test is stale too.
      void qc.invalidateQueries({ queryKey: ["test", id] });
    },
  });

  const setParam = (name: string, value: string | null) => {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  };
  const view = (v: number | null) => setParam("view", v ? String(v) : null);

  if (test.isPending) return <Loading label="Loading the test" />;
  if (test.isError) return <ErrorBox error={test.error} />;
  const t = test.data;
  const testLink = `/tests/${encodeURIComponent(t.id)}`;
  const list = [...(versions.data ?? [])].sort((a, b) => b.version - a.version);
  const latest = Math.max(t.version, ...list.map((v) => v.version));

  return (
    <div className="tl-page">
      <PageHeader
        title={`Version history of ${t.name}`}
        subtitle={
          <>
            Current version v{t.version} · <StatusBadge status={t.status} />
          </>
        }
      >
        <Link to={testLink} className="button">
          Back to the test
        </Link>
      </PageHeader>
      {notice && (
        <div className="ok-box tl-notice" role="status">
          {notice}
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => setNotice(null)}>
            ×
          </button>
        </div>
      )}
      {!t.can.restore && (
        <p className="muted">
          You may look at every version but not restore one:{" "}
          {t.status === "Deprecated"
            ? "restoring a Deprecated test needs a Test Manager or Admin."
            : "Testers restore only their own tests."}
        </p>
      )}
      {versions.isPending ? (
        <Loading label="Loading versions" />
      ) : versions.isError ? (
        <ErrorBox error={versions.error} />
      ) : (
        <>
          {list.length > 1 && <CompareForm key={list.length} versions={list} onCompare={(a, b) => setParam("compare", `${a}..${b}`)} />}
          <VersionTable versions={list} test={t} viewing={viewing} onView={view} onRestore={(v) => setRestoring(v)} />
        </>
      )}
      {compared && (
        <VersionDiffPanel testId={t.id} from={Number(compared[1])} to={Number(compared[2])} onClose={() => setParam("compare", null)} />
      )}
      {viewing !== null && <VersionPanel testId={t.id} version={viewing} onClose={() => view(null)} />}
      {restoring !== null && (
        <Confirm
          title={`Restore version ${restoring}?`}
          confirmLabel="Restore"
          busy={restore.isPending}
          error={restore.error}
          onConfirm={() => restore.mutate(restoring)}
          onCancel={() => {
            setRestoring(null);
            restore.reset();
          }}
        >
          <p>
            A new version {latest + 1} is added with the content of version {restoring} as a Draft; history is kept.
          </p>
        </Confirm>
      )}
    </div>
  );
}

/** CompareForm chooses two versions to compare: by default the two newest. */
function CompareForm({ versions, onCompare }: { versions: TestVersion[]; onCompare: (from: number, to: number) => void }) {
  const [from, setFrom] = useState(versions[1].version);
  const [to, setTo] = useState(versions[0].version);
  const options = versions.map((v) => (
    <option key={v.version} value={v.version}>
      v{v.version}
    </option>
  ));
  return (
    <form
      className="row tl-compare"
      onSubmit={(e) => {
        e.preventDefault();
        onCompare(Math.min(from, to), Math.max(from, to));
      }}
    >
      <label className="inline-label">
        Compare
        <select aria-label="Older version" value={from} onChange={(e) => setFrom(Number(e.target.value))}>
          {options}
        </select>
      </label>
      <label className="inline-label">
        with
        <select aria-label="Newer version" value={to} onChange={(e) => setTo(Number(e.target.value))}>
          {options}
        </select>
      </label>
      <button type="submit" disabled={from === to}>
        Show changes
      </button>
    </form>
  );
}

function VersionTable({
  versions,
  test,
  viewing,
  onView,
  onRestore,
}: {
  versions: TestVersion[];
  test: Test;
  viewing: number | null;
  onView: (v: number) => void;
  onRestore: (v: number) => void;
}) {
  return (
    <table className="table tl-versions">
      <thead>
        <tr>
          <th scope="col">Version</th>
          <th scope="col">Status</th>
          <th scope="col">Author</th>
          <th scope="col">Saved</th>
          <th scope="col" className="num">
            Steps
          </th>
          <th scope="col">Note</th>
          <th scope="col">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {versions.map((v) => (
          <tr key={v.version} className={viewing === v.version ? "tl-selected" : undefined}>
            <td>
              v{v.version} {v.current && <span className="badge tl-current">current</span>}
            </td>
            <td>
              <StatusBadge status={v.status} />
            </td>
            <td>{v.author ? v.author.name : <span className="muted">(account removed)</span>}</td>
            <td>
              <When at={v.savedAt} />
            </td>
            <td className="num">{v.steps}</td>
            <td>{v.note || <span className="muted">—</span>}</td>
            <td className="tl-actions">
              <button type="button" className="small" aria-label={`View version ${v.version}`} onClick={() => onView(v.version)}>
                View
              </button>
              {test.can.restore && !v.current && (
                <button type="button" className="small" aria-label={`Restore version ${v.version}`} onClick={() => onRestore(v.version)}>
                  Restore
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function VersionPanel({ testId, version, onClose }: { testId: string; version: number; onClose: () => void }) {
  const v = useQuery({
    queryKey: ["tests", "version", testId, version],
    queryFn: ({ signal }) => getVersion(testId, version, signal),
    staleTime: Infinity,
  });
  return (
    <section className="panel tl-version-panel" aria-labelledby="tl-version-title">
      <div className="tl-panel-head">
        <h2 id="tl-version-title">Version {version}</h2>
        {v.data && (
          <span className="muted">
            <StatusBadge status={v.data.status} /> saved <When at={v.data.savedAt} /> by {v.data.author?.name ?? "(account removed)"}
            {v.data.note && <> · {v.data.note}</>}
          </span>
        )}
        <span className="spacer" />
        <button type="button" className="small" onClick={onClose}>
          Hide
        </button>
      </div>
      {v.isPending ? (
        <Loading label={`Loading version ${version}`} />
      ) : v.isError ? (
        <ErrorBox error={v.error} />
      ) : v.data.document ? (
        <DocumentView document={v.data.document} />
      ) : (
        <p className="muted">This version has no document.</p>
      )}
    </section>
  );
}
