// The current project: its members (every member of its organization) with
// their organization role, the project role that overrides it here, and the
// role that results; rename and delete for the project's Admins.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import {
  deleteProject,
  keys,
  listProjectMembers,
  may,
  removeProjectRole,
  renameProject,
  setProjectRole,
  type ProjectMember,
} from "../../api/admin";
import { ROLES, type Project, type Role } from "../../api";
import { useWorkspace } from "../../session";
import { Confirm, ErrorBox, Loading } from "../../components/ui";
import { explain } from "./words";
import { RenameForm } from "./RenameForm";

/** The option of the project role select that removes the project role. */
const ORG_ROLE = "";

/** effectiveRole is the member's role in the project, as hub/access.Effective decides it. */
export function effectiveRole(m: ProjectMember): Role {
  if (m.orgRole === "Admin") return "Admin";
  return m.projectRole ?? m.orgRole;
}

export function ProjectMembers({ project }: { project: Project }) {
  const ws = useWorkspace();
  const qc = useQueryClient();
  const isAdmin = may.administerProject(ws.role);
  const members = useQuery({ queryKey: keys.projectMembers(project.id), queryFn: () => listProjectMembers(project.id) });
  const [changed, setChanged] = useState<string | null>(null);

  const setRole = useMutation({
    mutationFn: async (v: { member: ProjectMember; role: Role | typeof ORG_ROLE }) => {
      if (v.role === ORG_ROLE) await removeProjectRole(project.id, v.member.userId);
      else await setProjectRole(project.id, v.member.userId, v.role);
    },
    onMutate: () => setChanged(null),
    onSuccess: async (_, v) => {
      setChanged(
        v.role === ORG_ROLE
          ? `${v.member.name}'s organization role (${v.member.orgRole}) applies in ${project.name} again.`
          : `${v.member.name} is now ${v.role} in ${project.name}.`,
      );
      await qc.invalidateQueries({ queryKey: keys.projectMembers(project.id) });
      if (v.member.userId === ws.user.id) await qc.invalidateQueries({ queryKey: ["context"] });
    },
  });

  return (
    <div className="admin-section">
      <h2>Members of project {project.name}</h2>
      <p className="hint">
        Every member of the organization is a member of its projects. A project role replaces the organization role in this project only;
        "Organization role" removes it. Organization Admins are Admin in every project.
      </p>
      {members.isPending ? (
        <Loading label="Loading project members" />
      ) : members.isError ? (
        <ErrorBox error={members.error} title="Project members could not be loaded" />
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Organization role</th>
              <th>Project role</th>
              <th>Role here</th>
            </tr>
          </thead>
          <tbody>
            {members.data.map((m) => {
              const orgAdmin = m.orgRole === "Admin";
              return (
                <tr key={m.userId}>
                  <td>
                    {m.name}
                    {m.userId === ws.user.id && <span className="muted"> (you)</span>}
                  </td>
                  <td>{m.email}</td>
                  <td>{m.orgRole}</td>
                  <td>
                    {isAdmin ? (
                      <select
                        aria-label={`Project role of ${m.name}`}
                        value={m.projectRole ?? ORG_ROLE}
                        disabled={orgAdmin || setRole.isPending}
                        title={
                          orgAdmin ? "Organization Admins are Admin in every project; change their organization role first" : undefined
                        }
                        onChange={(e) => setRole.mutate({ member: m, role: e.target.value as Role | typeof ORG_ROLE })}
                      >
                        <option value={ORG_ROLE}>Organization role ({m.orgRole})</option>
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                    ) : (
                      (m.projectRole ?? <span className="muted">organization role</span>)
                    )}
                  </td>
                  <td>
                    <strong>{effectiveRole(m)}</strong>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {setRole.isError && (
        <ErrorBox error={explain(setRole.error, setRole.variables?.member.name)} title="The project role was not changed" />
      )}
      {changed && (
        <p className="ok-box" role="status">
          {changed}
        </p>
      )}
      {isAdmin ? (
        <>
          <RenameProject project={project} />
          <DeleteProject project={project} />
        </>
      ) : (
        <p className="notice">
          Only the project's Admins set project roles and rename or delete it; your role here is {ws.role ?? "none"}.
        </p>
      )}
    </div>
  );
}

function RenameProject({ project }: { project: Project }) {
  return (
    <RenameForm title="Rename the project" label="Project name" current={project.name} rename={(name) => renameProject(project.id, name)} />
  );
}

function DeleteProject({ project }: { project: Project }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteProject(project.id),
    onSuccess: async () => {
      setAsking(false);
      await qc.invalidateQueries({ queryKey: ["context"] });
      navigate("/");
    },
  });
  return (
    <div className="admin-form danger-zone">
      <h3>Delete the project</h3>
      <p className="hint">
        Deletes its tests with every version, its runs and their results, environments, secrets, applications and suites.
      </p>
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        Delete project {project.name}
      </button>
      {asking && (
        <Confirm
          title={`Delete project ${project.name}?`}
          confirmLabel="Delete project"
          danger
          busy={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate()}
          onCancel={() => setAsking(false)}
        >
          <p>
            Project <strong>{project.name}</strong> is deleted with all its tests, versions, runs, environments, secrets and applications,
            for every member. This cannot be undone.
          </p>
        </Confirm>
      )}
    </div>
  );
}
