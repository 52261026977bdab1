// The profile's API tokens: the caller's tokens (GET /api/tokens) with
// revoke (DELETE /api/tokens/:id), and a form that creates one
// (POST /api/tokens) and shows it once, to copy.
import { useId, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, ROLES, type Organization, type Role } from "../../api";
import { atLeast } from "../../api/admin";
import {
  createApiToken,
  listApiTokens,
  revokeApiToken,
  tokenKeys,
  type ApiToken,
  type CreatedApiToken,
  type NewApiToken,
} from "../../api/tokens";
import { useWorkspace } from "../../session";
import { Confirm, ErrorBox, Loading, formatDate } from "../../components/ui";

export type Expiry = "30" | "90" | "365" | "never" | "date";

const DAY = 24 * 60 * 60 * 1000;

/**
 * expiresAt turns the form's choice into the RFC 3339 time the hub takes:
 * undefined for a token that never expires, null for a date that is
 * missing or not after today. A chosen date lasts until the end of that day.
 */
export function expiresAt(choice: Expiry, date: string, now: Date): string | undefined | null {
  if (choice === "never") return undefined;
  if (choice !== "date") return new Date(now.getTime() + Number(choice) * DAY).toISOString();
  const end = new Date(`${date}T23:59:59`);
  if (!date || Number.isNaN(end.getTime()) || end.getTime() <= now.getTime()) return null;
  return end.toISOString();
}

/** highestRole is the caller's highest role in any organization or project. */
export function highestRole(orgs: Organization[]): Role | null {
  let best: Role | null = null;
  for (const o of orgs) {
    for (const r of [o.role, ...(o.projects ?? []).map((p) => p.role)]) {
      if (!best || atLeast(r, best)) best = r;
    }
  }
  return best;
}

/** rolesUpTo lists the roles a token may have when the caller's role is max. */
export function rolesUpTo(max: Role | null): Role[] {
  return ROLES.filter((r) => atLeast(max, r));
}

export function ApiTokens() {
  const tokens = useQuery({ queryKey: tokenKeys.list, queryFn: listApiTokens });
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  return (
    <section aria-labelledby="profile-tokens-heading" className="profile-tokens">
      <h2 id="profile-tokens-heading">API tokens</h2>
      <p className="hint">
        A token lets CI jobs and scripts use the API as you: send it as <code>Authorization: Bearer tat_…</code>. It never does more than
        your own role allows, and a token for one project acts only there.
      </p>
      {created ? <NewToken token={created} onDone={() => setCreated(null)} /> : <CreateToken onCreated={setCreated} />}
      {tokens.isPending ? (
        <Loading label="Loading your tokens" />
      ) : tokens.isError ? (
        <ErrorBox error={tokens.error} />
      ) : tokens.data.tokens.length === 0 ? (
        <p className="muted">You have no API tokens.</p>
      ) : (
        <TokenTable tokens={tokens.data.tokens} onRevoke={setRevoking} />
      )}
      {revoking && <RevokeToken token={revoking} onClose={() => setRevoking(null)} />}
    </section>
  );
}

function TokenTable({ tokens, onRevoke }: { tokens: ApiToken[]; onRevoke: (t: ApiToken) => void }) {
  return (
    <table className="table">
      <caption className="sr-only">Your API tokens</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Project</th>
          <th scope="col">Role</th>
          <th scope="col">Expires</th>
          <th scope="col">Last used</th>
          <th scope="col">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {tokens.map((t) => (
          <tr key={t.id} className={t.revokedAt || t.expired ? "muted" : undefined}>
            <td>{t.name}</td>
            <td>{t.projectName ?? "All my projects"}</td>
            <td>{t.role ?? "Same as mine"}</td>
            <td>{t.expiresAt ? `${t.expired ? "Expired " : ""}${formatDate(t.expiresAt)}` : "Never"}</td>
            <td>{t.lastUsedAt ? `${formatDate(t.lastUsedAt)}${t.lastUsedFrom ? ` from ${t.lastUsedFrom}` : ""}` : "Never"}</td>
            <td>
              {t.revokedAt ? (
                <span className="muted">Revoked {formatDate(t.revokedAt)}</span>
              ) : (
                <button type="button" className="small danger" onClick={() => onRevoke(t)} aria-label={`Revoke ${t.name}`}>
                  Revoke
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function RevokeToken({ token, onClose }: { token: ApiToken; onClose: () => void }) {
  const qc = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => revokeApiToken(token.id),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: tokenKeys.list });
      onClose();
    },
  });
  return (
    <Confirm
      title={`Revoke ${token.name}?`}
      confirmLabel="Revoke token"
      danger
      busy={revoke.isPending}
      error={revoke.error}
      onConfirm={() => revoke.mutate()}
      onCancel={onClose}
    >
      <p>
        Jobs and scripts using this token are refused from now on, and the CI commands running with it are disconnected. This cannot be
        undone: create a new token to replace it.
      </p>
    </Confirm>
  );
}

function CreateToken({ onCreated }: { onCreated: (t: CreatedApiToken) => void }) {
  const ws = useWorkspace();
  const qc = useQueryClient();
  const ids = useId();
  const [name, setName] = useState("");
  const [projectId, setProjectId] = useState("");
  const [role, setRole] = useState<Role | "">("");
  const [expiry, setExpiry] = useState<Expiry>("90");
  const [date, setDate] = useState("");
  const [badDate, setBadDate] = useState(false);
  const projects = ws.organizations.flatMap((o) => (o.projects ?? []).map((p) => ({ ...p, orgName: o.name })));
  const project = projects.find((p) => p.id === projectId);
  const roles = rolesUpTo(project ? project.role : highestRole(ws.organizations));
  const create = useMutation({
    mutationFn: (t: NewApiToken) => createApiToken(t),
    onSuccess: (t) => {
      void qc.invalidateQueries({ queryKey: tokenKeys.list });
      setName("");
      onCreated(t);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const at = expiresAt(expiry, date, new Date());
    setBadDate(at === null);
    if (at === null) return;
    create.mutate({
      name: name.trim(),
      ...(projectId ? { projectId } : {}),
      ...(role ? { role } : {}),
      ...(at ? { expiresAt: at } : {}),
    });
  };
  const issue = (path: string) =>
    create.error instanceof ApiError ? create.error.issues.find((i) => i.path === path)?.message : undefined;
  const nameIssue = issue("name");
  const dateIssue = badDate ? "Choose a date after today." : issue("expiresAt");
  const fieldless = create.error instanceof ApiError && create.error.status === 422 && (nameIssue || dateIssue) ? null : create.error;
  return (
    <form className="form token-form" onSubmit={submit} noValidate aria-label="Create an API token">
      <div className={nameIssue ? "field has-error" : "field"}>
        <label>
          Token name
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={100}
            placeholder="CI for the shop"
            aria-invalid={nameIssue ? true : undefined}
            aria-describedby={nameIssue ? `${ids}-name` : undefined}
          />
        </label>
        {nameIssue && (
          <span className="field-error" id={`${ids}-name`}>
            {nameIssue}
          </span>
        )}
      </div>
      <label className="field">
        Project
        <select
          value={projectId}
          onChange={(e) => {
            setProjectId(e.target.value);
            setRole("");
          }}
        >
          <option value="">All my projects</option>
          {projects.map((p) => (
            <option key={p.id} value={p.id}>
              {p.orgName} / {p.name}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        Role
        <select value={role} onChange={(e) => setRole(e.target.value as Role | "")}>
          <option value="">Same as mine</option>
          {roles.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </label>
      <div className={dateIssue ? "field has-error" : "field"}>
        <label>
          Expires
          <select value={expiry} onChange={(e) => setExpiry(e.target.value as Expiry)}>
            <option value="30">In 30 days</option>
            <option value="90">In 90 days</option>
            <option value="365">In 1 year</option>
            <option value="never">Never</option>
            <option value="date">On a date…</option>
          </select>
        </label>
        {expiry === "date" && (
          <label>
            Expiry date
            <input
              type="date"
              value={date}
              onChange={(e) => setDate(e.target.value)}
              aria-invalid={dateIssue ? true : undefined}
              aria-describedby={dateIssue ? `${ids}-date` : undefined}
            />
          </label>
        )}
        {dateIssue && (
          <span className="field-error" id={`${ids}-date`}>
            {dateIssue}
          </span>
        )}
      </div>
      <ErrorBox error={fieldless} />
      <div className="row">
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create token"}
        </button>
      </div>
    </form>
  );
}

function NewToken({ token, onDone }: { token: CreatedApiToken; onDone: () => void }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token.token);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="ok-box token-created" role="status">
      <p>
        <strong>Token {token.name} created.</strong> Copy it now: it will not be shown again.
      </p>
      <div className="row">
        <input readOnly value={token.token} aria-label="New API token" onFocus={(e) => e.target.select()} className="token-text" />
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
      {copied === true && <p className="muted">Copied to the clipboard.</p>}
      {copied === false && <p className="muted">The browser did not allow copying: select the token and copy it by hand.</p>}
      <p className="muted">
        Keep it in your CI system's secret store as <code>TA_TOKEN</code>, then run tests from the pipeline with the agent:{" "}
        <code>ta-agent ci --hub {window.location.origin} --suite Smoke --junit report.xml</code> (exit code 1 when a test fails). API calls
        take it as <code>Authorization: Bearer …</code>.
      </p>
    </div>
  );
}
