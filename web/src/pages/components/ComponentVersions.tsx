// A component's versions (each viewable: note, inputs, steps) and the test
// versions that call it, for the component page's Versions and Usages tabs.
import { Link, useSearchParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { componentKeys, getComponentVersion, type Component, type ComponentInput, type Registry } from "../../api";
import type { JsonObject } from "../../api/editorApi";
import { Empty, ErrorBox, Loading, StatusBadge, When } from "../../components/ui";
import { describeStep } from "../editor/stepText";

export function Versions({ component: c, registry }: { component: Component; registry: Registry | undefined }) {
  const [params, setParams] = useSearchParams();
  const shown = Number(params.get("version")) || null;
  const versions = [...c.versions].sort((a, b) => b.version - a.version);
  const open = (n: number | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (n === null) next.delete("version");
        else next.set("version", String(n));
        return next;
      },
      { replace: true },
    );
  return (
    <>
      <table className="table cmp-versions">
        <thead>
          <tr>
            <th>Version</th>
            <th>Author</th>
            <th>Published</th>
            <th>Note</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.version} className={shown === v.version ? "selected" : undefined}>
              <td className="mono">
                v{v.version}
                {v.version === c.latestVersion && <span className="badge badge-ready cmp-latest">latest</span>}
              </td>
              <td>{v.author?.name ?? <span className="muted">—</span>}</td>
              <td>
                <When at={v.createdAt} />
              </td>
              <td>{v.note || <span className="muted">—</span>}</td>
              <td className="row-actions">
                <button
                  type="button"
                  className="small"
                  aria-label={`View v${v.version}`}
                  aria-pressed={shown === v.version}
                  onClick={() => open(shown === v.version ? null : v.version)}
                >
                  {shown === v.version ? "Hide" : "View"}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown !== null && <VersionViewer componentId={c.id} version={shown} registry={registry} onClose={() => open(null)} />}
    </>
  );
}

function VersionViewer({
  componentId,
  version,
  registry,
  onClose,
}: {
  componentId: string;
  version: number;
  registry: Registry | undefined;
  onClose: () => void;
}) {
  const v = useQuery({
    queryKey: componentKeys.version(componentId, version),
    queryFn: ({ signal }) => getComponentVersion(componentId, version, signal),
    staleTime: Infinity,
  });
  return (
    <section className="panel cmp-version" aria-labelledby="cmp-version-title">
      <div className="row">
        <h2 id="cmp-version-title">Version v{version}</h2>
        <span className="spacer" />
        <button type="button" className="small" onClick={onClose}>
          Close
        </button>
      </div>
      {v.isPending && <Loading label="Loading the version" />}
      <ErrorBox error={v.error} />
      {v.data && (
        <>
          {v.data.note && <p>Note: {v.data.note}</p>}
          <h3>Inputs</h3>
          <InputsTable inputs={v.data.inputs} />
          <h3>Steps ({v.data.steps.length})</h3>
          <ol className="cmp-step-list">
            {v.data.steps.map((s, i) => (
              <li key={i}>
                {registry ? describeStep(s as unknown as JsonObject, registry) : s.type} <span className="mono muted">{s.id}</span>
              </li>
            ))}
          </ol>
          <details>
            <summary>Steps as JSON</summary>
            <pre className="mono cmp-json">{JSON.stringify(v.data.steps, null, 2)}</pre>
          </details>
        </>
      )}
    </section>
  );
}

export function InputsTable({ inputs }: { inputs: ComponentInput[] }) {
  if (inputs.length === 0) return <p className="muted">No inputs.</p>;
  return (
    <table className="table cmp-inputs-view">
      <thead>
        <tr>
          <th>Name</th>
          <th>Default</th>
          <th>Description</th>
        </tr>
      </thead>
      <tbody>
        {inputs.map((i) => (
          <tr key={i.name}>
            <td className="mono">{"${" + i.name + "}"}</td>
            <td>{i.default === null ? <em>required</em> : <span className="mono">{JSON.stringify(i.default)}</span>}</td>
            <td>{i.description || <span className="muted">—</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Usages({ component: c }: { component: Component }) {
  if (c.usages.length === 0) return <Empty>No test you can see calls this component.</Empty>;
  const usages = [...c.usages].sort((a, b) => a.testName.localeCompare(b.testName) || b.testVersion - a.testVersion);
  return (
    <>
      <p className="hint">
        Every version of a test you can see that calls this component. Only a test's current version counts as a usage; older versions are
        its history.
      </p>
      <table className="table cmp-usages">
        <thead>
          <tr>
            <th>Test</th>
            <th>Test version</th>
            <th>Calls</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {usages.map((u) => (
            <tr key={`${u.testId}:${u.testVersion}:${u.componentVersion}`} className={u.current ? undefined : "cmp-history"}>
              <td>
                <Link to={`/tests/${u.testId}`}>{u.testName}</Link>
              </td>
              <td>
                <Link to={`/tests/${u.testId}/versions?view=${u.testVersion}`} className="mono">
                  v{u.testVersion}
                </Link>{" "}
                <span className="muted">{u.current ? "current" : "earlier version"}</span>
              </td>
              <td>
                <span className="mono">v{u.componentVersion}</span>{" "}
                {u.componentVersion === c.latestVersion ? (
                  <span className="muted">latest</span>
                ) : (
                  <span className="cmp-behind">{c.latestVersion - u.componentVersion} behind</span>
                )}
              </td>
              <td>
                <StatusBadge status={u.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
