// The signed-in user's profile (/profile): who they are, changing their
// name (PUT /api/profile), the runs they started last (in any project), and
// changing the password, which signs out their other sessions and, when
// asked, revokes their API tokens (POST /api/auth/password), and their API
// tokens (ApiTokens.tsx).
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, describeError } from "../../api";
import { changePassword, fetchProfile, saveProfileName, type Profile } from "../../api/runs";
import { ErrorBox, Empty, Loading, PageHeader, formatDate } from "../../components/ui";
import { RunTable } from "../runs/runBits";
import { tokenKeys } from "../../api/tokens";
import { ApiTokens } from "./ApiTokens";
import "./profile.css";

const MIN_PASSWORD = 10;

export function ProfilePage() {
  const profile = useQuery({ queryKey: ["profile"], queryFn: fetchProfile });
  if (profile.isPending) return <Loading label="Loading your profile" />;
  if (profile.isError) {
    return (
      <>
        <PageHeader title="Profile" />
        <ErrorBox error={profile.error} />
      </>
    );
  }
  const { user, recentRuns } = profile.data;
  return (
    <div className="profile">
      <PageHeader title="Profile" subtitle={user.name} />
      <div className="profile-grid">
        <section className="panel" aria-labelledby="profile-account-heading">
          <h2 id="profile-account-heading">Account</h2>
          <dl className="profile-facts">
            <dt>Name</dt>
            <dd>
              <NameForm name={user.name} />
            </dd>
            <dt>Email</dt>
            <dd>{user.email}</dd>
            <dt>Member since</dt>
            <dd>
              <time dateTime={user.createdAt}>{formatDate(user.createdAt)}</time>
            </dd>
            {user.platformAdmin && (
              <>
                <dt>Platform</dt>
                <dd>Administrator of this hub (sign-in accounts)</dd>
              </>
            )}
          </dl>
        </section>
        <PasswordForm />
      </div>
      <section aria-labelledby="profile-runs-heading">
        <h2 id="profile-runs-heading">Your recent runs</h2>
        {recentRuns.length === 0 ? (
          <Empty>
            You have not started a run yet. Open a test in <Link to="/tests">Tests</Link> and press Run.
          </Empty>
        ) : (
          <RunTable runs={recentRuns} caption="Your recent runs" columns={{ test: true }} />
        )}
      </section>
      <ApiTokens />
    </div>
  );
}

/** NameForm shows the user's name and edits it in place. */
function NameForm({ name }: { name: string }) {
  const qc = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(name);
  const save = useMutation({
    mutationFn: () => saveProfileName(value),
    onSuccess: ({ user }) => {
      qc.setQueryData<Profile>(["profile"], (p) => (p ? { ...p, user } : p));
      void qc.invalidateQueries({ queryKey: ["session"] });
      void qc.invalidateQueries({ queryKey: ["context"] });
      setEditing(false);
    },
  });
  if (!editing) {
    return (
      <span className="profile-name">
        {name}{" "}
        <button
          type="button"
          className="small"
          onClick={() => {
            setValue(name);
            save.reset();
            setEditing(true);
          }}
        >
          Edit name
        </button>
        {save.isSuccess && (
          <span className="muted" role="status">
            {" "}
            Saved.
          </span>
        )}
      </span>
    );
  }
  const issue = issueFor(save.error, "name");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form className="profile-name-form" onSubmit={submit} noValidate>
      <label className={issue ? "field has-error" : "field"}>
        <span className="sr-only">Name</span>
        <input
          value={value}
          onChange={(e) => setValue(e.target.value)}
          autoComplete="name"
          aria-label="Name"
          maxLength={200}
          autoFocus
          aria-invalid={issue ? true : undefined}
          aria-describedby={issue ? "profile-name-error" : undefined}
        />
      </label>
      <button type="submit" className="primary small" disabled={save.isPending}>
        {save.isPending ? "Saving…" : "Save name"}
      </button>
      <button type="button" className="small" onClick={() => setEditing(false)}>
        Cancel
      </button>
      {issue ? (
        <span className="field-error" id="profile-name-error">
          {issue}
        </span>
      ) : (
        <ErrorBox error={save.error} />
      )}
    </form>
  );
}

function issueFor(err: unknown, field: string): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  return err.issues.find((i) => i.path === field)?.message;
}

function PasswordForm() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [repeat, setRepeat] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const [revokeTokens, setRevokeTokens] = useState(false);
  const qc = useQueryClient();
  const change = useMutation({
    mutationFn: (revoke: boolean) => changePassword(current, next, revoke),
    onSuccess: (_, revoke) => {
      setCurrent("");
      setNext("");
      setRepeat("");
      setRevokeTokens(false);
      if (revoke) void qc.invalidateQueries({ queryKey: tokenKeys.list });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (next !== repeat) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    change.mutate(revokeTokens);
  };
  const currentIssue = issueFor(change.error, "currentPassword");
  const newIssue = issueFor(change.error, "newPassword");
  // Issues beside their fields; anything else (403, 429, a network failure) in the box.
  const fieldless = change.error instanceof ApiError && change.error.status === 422 && (currentIssue || newIssue) ? null : change.error;

  return (
    <section className="panel" aria-labelledby="profile-password-heading">
      <h2 id="profile-password-heading">Change password</h2>
      <p className="hint">Changing it signs out your other sessions (other browsers and computers); this one stays signed in.</p>
      <form className="form" onSubmit={submit} noValidate>
        <div className={currentIssue ? "field has-error" : "field"}>
          <label>
            Current password
            <input
              type="password"
              autoComplete="current-password"
              required
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
              aria-invalid={currentIssue ? true : undefined}
              aria-describedby={currentIssue ? "current-password-error" : undefined}
            />
          </label>
          {currentIssue && (
            <span className="field-error" id="current-password-error">
              {currentIssue}
            </span>
          )}
        </div>
        <div className={newIssue ? "field has-error" : "field"}>
          <label>
            New password
            <input
              type="password"
              autoComplete="new-password"
              required
              minLength={MIN_PASSWORD}
              value={next}
              onChange={(e) => setNext(e.target.value)}
              aria-invalid={newIssue ? true : undefined}
              aria-describedby={newIssue ? "new-password-hint new-password-error" : "new-password-hint"}
            />
          </label>
          <span className="hint" id="new-password-hint">
            At least {MIN_PASSWORD} characters.
          </span>
          {newIssue && (
            <span className="field-error" id="new-password-error">
              {newIssue}
            </span>
          )}
        </div>
        <div className={mismatch ? "field has-error" : "field"}>
          <label>
            Repeat the new password
            <input
              type="password"
              autoComplete="new-password"
              required
              value={repeat}
              onChange={(e) => {
                setRepeat(e.target.value);
                if (mismatch && e.target.value === next) setMismatch(false);
              }}
              aria-invalid={mismatch ? true : undefined}
              aria-describedby={mismatch ? "repeat-password-error" : undefined}
            />
          </label>
          {mismatch && (
            <span className="field-error" id="repeat-password-error" role="alert">
              The two new passwords differ: type the same one twice.
            </span>
          )}
        </div>
        <div className="field">
          <label className="inline">
            <input
              type="checkbox"
              checked={revokeTokens}
              onChange={(e) => setRevokeTokens(e.target.checked)}
              aria-describedby="revoke-tokens-hint"
            />
            Also revoke my API tokens and CI agents
          </label>
          <span className="hint" id="revoke-tokens-hint">
            For when someone else may have used your account: every API token stops working and the CI commands running with them are
            disconnected. Create new tokens afterwards.
          </span>
        </div>
        {fieldless && (
          <div className="error-box" role="alert">
            <strong>The password was not changed: </strong>
            {describeError(fieldless)}
          </div>
        )}
        {change.isSuccess && (
          <p className="ok-box" role="status">
            Your password was changed. Your other sessions were signed out
            {change.variables ? ", and your API tokens were revoked (their CI agents disconnected)." : "."}
          </p>
        )}
        <div className="row">
          <button type="submit" className="primary" disabled={change.isPending}>
            {change.isPending ? "Changing…" : "Change password"}
          </button>
        </div>
      </form>
    </section>
  );
}
