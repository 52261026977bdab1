// Environments: the project's named sets of variables and write-only
// secrets a run executes against, optionally tied to an application.
// Everyone sees names, variables and which are protected; Test Managers
// and Admins edit.
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { deleteEnvironment, listApplications, listEnvironments, keys, may, type Environment } from "../../api/admin";
import { useWorkspace } from "../../session";
import { PageHeader } from "../../components/ui";
import { ConfirmAction } from "../../components/ConfirmAction";
import { ResourceTable } from "../../components/ResourceTable";
import { EnvironmentForm } from "./EnvironmentForm";
import { ProtectedBadge } from "./protection";
import "./environments.css";

/** knownSecrets lists every secret name used by any environment of the project, sorted. */
export function knownSecrets(envs: Environment[]): string[] {
  return [...new Set(envs.flatMap((e) => e.secrets))].sort();
}

export function EnvironmentsPage() {
  const ws = useWorkspace();
  const canManage = may.manageEnvironments(ws.role);
  const projectId = ws.project?.id ?? "";
  const envs = useQuery({ queryKey: keys.environments(projectId), queryFn: () => listEnvironments(projectId) });
  const apps = useQuery({ queryKey: keys.applications(projectId), queryFn: () => listApplications(projectId) });
  const [editing, setEditing] = useState<Environment | "new" | null>(null);
  const [deleting, setDeleting] = useState<Environment | null>(null);

  const appNames = useMemo(() => new Map((apps.data ?? []).map((a) => [a.id, a.name])), [apps.data]);
  const known = useMemo(() => knownSecrets(envs.data ?? []), [envs.data]);

  return (
    <section className="environments">
      <PageHeader
        title="Environments"
        subtitle="The variables and secrets a run uses: ${name} for a variable, ${secrets.NAME} for a secret."
      >
        {canManage && (
          <button type="button" className="primary" onClick={() => setEditing("new")}>
            New environment
          </button>
        )}
      </PageHeader>
      {!canManage && (
        <p className="notice">
          Test Managers and Admins create and change environments and their secrets; your role in this project is {ws.role ?? "none"}, so
          you see names and variables only.
        </p>
      )}
      <ResourceTable
        query={envs}
        rowKey={(e) => e.id}
        loadingLabel="Loading environments"
        errorTitle="Environments could not be loaded"
        empty={
          <>
            No environments yet.{" "}
            {canManage ? "Create one to give runs a base URL, variables and secrets." : "A Test Manager or Admin can create one."}
          </>
        }
        columns={[
          {
            header: "Name",
            cell: (e) => (
              <>
                <strong>{e.name}</strong> {e.protected && <ProtectedBadge />}
              </>
            ),
          },
          {
            header: "Application",
            cell: (e) =>
              e.applicationId ? (
                <Link to="/applications">{appNames.get(e.applicationId) ?? "an application"}</Link>
              ) : (
                <span className="muted">—</span>
              ),
          },
          { header: "Variables", cell: (e) => <Variables vars={e.variables} /> },
          { header: "Secrets", cell: (e) => <SecretStates env={e} known={known} /> },
        ]}
        actions={
          canManage
            ? (e) => (
                <>
                  <button type="button" className="small" onClick={() => setEditing(e)} aria-label={`Edit ${e.name}`}>
                    Edit
                  </button>
                  <button type="button" className="small" onClick={() => setDeleting(e)} aria-label={`Delete ${e.name}`}>
                    Delete
                  </button>
                </>
              )
            : undefined
        }
      />
      {editing && (
        <EnvironmentForm
          env={editing === "new" ? null : editing}
          applications={apps.data ?? []}
          known={known}
          names={(envs.data ?? []).map((e) => e.name)}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && <DeleteEnvironment env={deleting} onClose={() => setDeleting(null)} />}
    </section>
  );
}

function Variables({ vars }: { vars: Record<string, string> }) {
  const names = Object.keys(vars).sort();
  if (names.length === 0) return <span className="muted">none</span>;
  return (
    <details className="env-vars">
      <summary>
        {names.length} variable{names.length === 1 ? "" : "s"}
      </summary>
      <dl>
        {names.map((k) => (
          <div key={k}>
            <dt className="mono">{k}</dt>
            <dd className="mono">{vars[k] === "" ? <span className="muted">(empty)</span> : vars[k]}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

/** Each secret name known in the project, and whether this environment sets it: never a value. */
function SecretStates({ env, known }: { env: Environment; known: string[] }) {
  if (known.length === 0) return <span className="muted">none</span>;
  return (
    <ul className="secret-states">
      {known.map((name) => {
        const set = env.secrets.includes(name);
        return (
          <li key={name}>
            <span className="mono">{name}</span>{" "}
            <span className={set ? "badge badge-set" : "badge badge-not-set"}>{set ? "set" : "not set"}</span>
          </li>
        );
      })}
    </ul>
  );
}

function DeleteEnvironment({ env, onClose }: { env: Environment; onClose: () => void }) {
  const n = Object.keys(env.variables).length;
  return (
    <ConfirmAction
      title={`Delete environment ${env.name}?`}
      confirmLabel="Delete environment"
      action={() => deleteEnvironment(env.id)}
      refresh={[["environments"], ["secrets"]]}
      onDone={onClose}
      onCancel={onClose}
    >
      <p>
        Environment <strong>{env.name}</strong> is deleted with its {n} variable{n === 1 ? "" : "s"} and {env.secrets.length} secret
        {env.secrets.length === 1 ? "" : "s"}. Runs already made against it keep their results. This cannot be undone.
      </p>
    </ConfirmAction>
  );
}
