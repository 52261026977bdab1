// Sign-in accounts, for platform administrators: every account of the hub,
// creating one (for example before inviting its owner to an organization)
// and deleting one.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createAccount, deleteAccount, keys, listAccounts } from "../../api/admin";
import { ApiError, type User } from "../../api";
import { useWorkspace } from "../../session";
import { ErrorBox, Loading, When } from "../../components/ui";
import { ConfirmAction } from "../../components/ConfirmAction";
import { explain } from "./words";

const MIN_PASSWORD = 10;

export function Accounts() {
  const ws = useWorkspace();
  const accounts = useQuery({ queryKey: keys.accounts, queryFn: listAccounts });
  const [deleting, setDeleting] = useState<User | null>(null);
  return (
    <div className="admin-section">
      <h2>Sign-in accounts</h2>
      <p className="hint">
        Every account that can sign in to this hub. Platform administrators manage them; organizations and their roles are managed by each
        organization's Admins.
      </p>
      {accounts.isPending ? (
        <Loading label="Loading accounts" />
      ) : accounts.isError ? (
        <ErrorBox error={accounts.error} title="Accounts could not be loaded" />
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Platform administrator</th>
              <th>Created</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {accounts.data.map((u) => {
              const self = u.id === ws.user.id;
              return (
                <tr key={u.id}>
                  <td>
                    {u.name}
                    {self && <span className="muted"> (you)</span>}
                  </td>
                  <td>{u.email}</td>
                  <td>{u.platformAdmin ? "yes" : <span className="muted">no</span>}</td>
                  <td>
                    <When at={u.createdAt} />
                  </td>
                  <td className="admin-actions">
                    <button
                      type="button"
                      className="small"
                      aria-label={`Delete account ${u.name}`}
                      disabled={self}
                      title={self ? "You cannot delete your own account; ask another platform administrator" : undefined}
                      onClick={() => setDeleting(u)}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {deleting && <DeleteAccount account={deleting} onClose={() => setDeleting(null)} />}
      <CreateAccount />
    </div>
  );
}

function DeleteAccount({ account, onClose }: { account: User; onClose: () => void }) {
  return (
    <ConfirmAction
      title={`Delete the account of ${account.name}?`}
      confirmLabel="Delete account"
      action={() => deleteAccount(account.id)}
      refresh={[keys.accounts, ["orgMembers"], ["projectMembers"]]}
      onDone={onClose}
      onCancel={onClose}
      explain={(e) => explain(e, account.name)}
    >
      <p>
        <strong>{account.name}</strong> ({account.email}) can no longer sign in and leaves every organization. Tests they own stay, without
        an owner. This cannot be undone.
      </p>
    </ConfirmAction>
  );
}

function CreateAccount() {
  const qc = useQueryClient();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [platformAdmin, setPlatformAdmin] = useState(false);
  const create = useMutation({
    mutationFn: () => createAccount({ name: name.trim(), email: email.trim(), password, platformAdmin }),
    onSuccess: async () => {
      setName("");
      setEmail("");
      setPassword("");
      setPlatformAdmin(false);
      await qc.invalidateQueries({ queryKey: keys.accounts });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  const issue = (path: string) =>
    create.error instanceof ApiError ? create.error.issues.find((i) => i.path === path)?.message : undefined;
  const fieldShown = ["name", "email", "password"].some((p) => issue(p));
  return (
    <form className="admin-form account-form" onSubmit={submit} autoComplete="off">
      <h3>Create an account</h3>
      <p className="hint">Tell the person their password; they can change it on their profile. Then invite them to an organization.</p>
      <div className="field">
        <label>
          Name
          <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        {issue("name") && <span className="field-error">{issue("name")}</span>}
      </div>
      <div className="field">
        <label>
          Email
          <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        {issue("email") && <span className="field-error">{issue("email")}</span>}
      </div>
      <div className="field">
        <label>
          Password
          <input
            type="password"
            autoComplete="new-password"
            required
            minLength={MIN_PASSWORD}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-describedby="account-password-hint"
          />
        </label>
        <span className="hint" id="account-password-hint">
          At least {MIN_PASSWORD} characters.
        </span>
        {issue("password") && <span className="field-error">{issue("password")}</span>}
      </div>
      <label className="inline">
        <input type="checkbox" checked={platformAdmin} onChange={(e) => setPlatformAdmin(e.target.checked)} />
        Platform administrator (manages sign-in accounts)
      </label>
      {!fieldShown && <ErrorBox error={explain(create.error)} />}
      {create.isSuccess && (
        <p className="ok-box" role="status">
          Account created for {create.data.name} ({create.data.email}).
        </p>
      )}
      <div>
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create account"}
        </button>
      </div>
    </form>
  );
}
