// The current organization: its members and their roles, invitations and
// its name. Everyone in it sees the list; its Admins change it.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { inviteOrgMember, keys, listOrgMembers, removeOrgMember, renameOrg, setOrgMemberRole, type OrgMember } from "../../api/admin";
import { ApiError, ROLES, type Organization, type Role } from "../../api";
import { useWorkspace } from "../../session";
import { Confirm, ErrorBox, Loading } from "../../components/ui";
import { explain } from "./words";
import { RenameForm } from "./RenameForm";

export function OrgMembers({ org }: { org: Organization }) {
  const ws = useWorkspace();
  const qc = useQueryClient();
  const isAdmin = org.role === "Admin";
  const members = useQuery({ queryKey: keys.orgMembers(org.id), queryFn: () => listOrgMembers(org.id) });
  const [removing, setRemoving] = useState<OrgMember | null>(null);
  const [changed, setChanged] = useState<string | null>(null);

  const setRole = useMutation({
    mutationFn: (v: { member: OrgMember; role: Role }) => setOrgMemberRole(org.id, v.member.userId, v.role),
    onMutate: () => setChanged(null),
    onSuccess: async (m) => {
      setChanged(`${m.name} is now ${m.role} in ${org.name}.`);
      await qc.invalidateQueries({ queryKey: keys.orgMembers(org.id) });
      await qc.invalidateQueries({ queryKey: ["projectMembers"] });
      if (m.userId === ws.user.id) await qc.invalidateQueries({ queryKey: ["context"] });
    },
  });

  return (
    <div className="admin-section">
      <h2>Members of {org.name}</h2>
      <p className="hint">
        A member's organization role is their role in every project of {org.name}, unless a project sets another; an organization Admin is
        Admin everywhere in it.
      </p>
      {members.isPending ? (
        <Loading label="Loading members" />
      ) : members.isError ? (
        <ErrorBox error={members.error} title="Members could not be loaded" />
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Role</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.data.map((m) => {
              const self = m.userId === ws.user.id;
              return (
                <tr key={m.userId}>
                  <td>
                    {m.name}
                    {self && <span className="muted"> (you)</span>}
                  </td>
                  <td>{m.email}</td>
                  <td>
                    {isAdmin ? (
                      <select
                        aria-label={`Role of ${m.name}`}
                        value={m.role}
                        disabled={setRole.isPending}
                        onChange={(e) => setRole.mutate({ member: m, role: e.target.value as Role })}
                      >
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                    ) : (
                      m.role
                    )}
                  </td>
                  <td className="admin-actions">
                    {(isAdmin || self) && (
                      <button
                        type="button"
                        className="small"
                        aria-label={`${self ? "Leave" : "Remove"} ${m.name}`}
                        onClick={() => setRemoving(m)}
                      >
                        {self ? "Leave" : "Remove"}
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {setRole.isError && <ErrorBox error={explain(setRole.error, setRole.variables?.member.name)} title="The role was not changed" />}
      {changed && (
        <p className="ok-box" role="status">
          {changed}
        </p>
      )}
      {removing && <RemoveMember org={org} member={removing} onClose={() => setRemoving(null)} />}
      {isAdmin ? (
        <>
          <Invite org={org} />
          <RenameOrg org={org} />
        </>
      ) : (
        <p className="notice">
          Only the Admins of {org.name} invite members, change roles and rename it; your role is {org.role}.
        </p>
      )}
    </div>
  );
}

function RemoveMember({ org, member, onClose }: { org: Organization; member: OrgMember; onClose: () => void }) {
  const ws = useWorkspace();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const self = member.userId === ws.user.id;
  const remove = useMutation({
    mutationFn: () => removeOrgMember(org.id, member.userId),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: keys.orgMembers(org.id) });
      await qc.invalidateQueries({ queryKey: ["projectMembers"] });
      onClose();
      if (self) {
        await qc.invalidateQueries({ queryKey: ["context"] });
        navigate("/");
      }
    },
  });
  return (
    <Confirm
      title={self ? `Leave ${org.name}?` : `Remove ${member.name} from ${org.name}?`}
      confirmLabel={self ? "Leave organization" : "Remove member"}
      danger
      busy={remove.isPending}
      error={explain(remove.error, member.name)}
      onConfirm={() => remove.mutate()}
      onCancel={onClose}
    >
      <p>
        {self
          ? `You lose access to every project of ${org.name}. An Admin can invite you again.`
          : `${member.name} (${member.email}) loses access to every project of ${org.name}, and their project roles there are dropped. Their account stays; you can invite them again.`}
      </p>
    </Confirm>
  );
}

function Invite({ org }: { org: Organization }) {
  const ws = useWorkspace();
  const qc = useQueryClient();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("Tester");
  const [done, setDone] = useState<string | null>(null);
  const invite = useMutation({
    mutationFn: () => inviteOrgMember(org.id, email.trim(), role),
    onMutate: () => setDone(null),
    onSuccess: async (m) => {
      setDone(`${m.name} (${m.email}) joined ${org.name} as ${m.role}.`);
      setEmail("");
      await qc.invalidateQueries({ queryKey: keys.orgMembers(org.id) });
      await qc.invalidateQueries({ queryKey: ["projectMembers"] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate();
  };
  const err = invite.error;
  const unknown = err instanceof ApiError && err.issues.some((i) => i.path === "email" && i.code === "unknown");
  const emailIssue = err instanceof ApiError ? err.issues.find((i) => i.path === "email" && i.code !== "unknown")?.message : undefined;
  return (
    <form className="admin-form" onSubmit={submit}>
      <h3>Invite a member</h3>
      <p className="hint">The person needs a sign-in account with this email; they join at once, with no email sent.</p>
      <div className="admin-form-row">
        <label>
          Email
          <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} aria-invalid={!!emailIssue || unknown} />
        </label>
        <label>
          Role
          <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={invite.isPending}>
          {invite.isPending ? "Inviting…" : "Invite"}
        </button>
      </div>
      {emailIssue && <span className="field-error">{emailIssue}</span>}
      {unknown ? (
        <div className="error-box" role="alert">
          No account has the email {email.trim()}. Ask the person to create one at <code>{`${window.location.origin}/register`}</code> with
          this email
          {ws.user.platformAdmin ? ", or create it yourself under Sign-in accounts," : ""} then invite them again.
        </div>
      ) : (
        !emailIssue && <ErrorBox error={explain(err)} />
      )}
      {done && (
        <p className="ok-box" role="status">
          {done}
        </p>
      )}
    </form>
  );
}

function RenameOrg({ org }: { org: Organization }) {
  return (
    <RenameForm title="Rename the organization" label="Organization name" current={org.name} rename={(name) => renameOrg(org.id, name)} />
  );
}
