// Sign-in, registration, forgotten password and reset: the pages a visitor
// without a session sees. Each returns to `next` (a path on this site) when done.
import { useState, type FormEvent, type ReactNode } from "react";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, post, type User } from "../../api";
import { useSession } from "../../session";
import { ErrorBox, Loading } from "../../components/ui";

export const MIN_PASSWORD = 10;

/** safeNext keeps only a path on this site, so a link cannot send a user elsewhere after sign-in. */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  return next;
}

function AuthFrame({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="auth">
      <div className="auth-card">
        <div className="brand">Test Hub</div>
        <h1>{title}</h1>
        {children}
        {footer && <div className="auth-footer">{footer}</div>}
      </div>
    </div>
  );
}

function fieldIssue(err: unknown, field: string): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  return err.issues.find((i) => i.path === field)?.message;
}

function FieldError({ error, field }: { error: unknown; field: string }) {
  const msg = fieldIssue(error, field);
  return msg ? (
    <span className="field-error" id={`${field}-error`}>
      {msg}
    </span>
  ) : null;
}

/** The error box shows what no single field explains. */
function FormError({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.status === 422 && error.issues.length > 0) return null;
  return <ErrorBox error={error} />;
}

/**
 * useEnter is what signing in or registering ends with: the cache of any
 * earlier user dropped, the new session known, and the page that asked
 * (`next`) opened. `carry` passes `next` on to the other sign-in pages.
 */
function useEnter() {
  const [params] = useSearchParams();
  const next = safeNext(params.get("next"));
  const qc = useQueryClient();
  const navigate = useNavigate();
  return {
    next,
    carry: params.get("next") ? `?next=${encodeURIComponent(next)}` : "",
    enter: (user: User) => {
      qc.clear();
      qc.setQueryData(["session"], user);
      navigate(next, { replace: true });
    },
  };
}

export function LoginPage() {
  const [params] = useSearchParams();
  const { next, carry: q, enter } = useEnter();
  const session = useSession();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const login = useMutation({
    mutationFn: () => post<User>("/api/auth/login", { email, password }),
    onSuccess: enter,
  });
  if (session.isPending) return <Loading />;
  if (session.data && !login.isPending && !login.isSuccess) return <Navigate to={next} replace />;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate();
  };
  return (
    <AuthFrame
      title="Sign in"
      footer={
        <>
          <Link to={`/forgot${q}`}>Forgot your password?</Link> · New here? <Link to={`/register${q}`}>Create an account</Link>
        </>
      }
    >
      {params.get("reset") === "1" && <p className="notice">Your password was changed. Sign in with the new one.</p>}
      <form onSubmit={submit} className="form">
        <div className="field">
          <label>
            Email
            <input type="email" autoComplete="username" required autoFocus value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
        </div>
        <div className="field">
          <label>
            Password
            <input
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
        </div>
        <FormError error={login.error} />
        <button type="submit" className="primary" disabled={login.isPending}>
          {login.isPending ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </AuthFrame>
  );
}

export function RegisterPage() {
  const { carry: q, enter } = useEnter();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const register = useMutation({
    mutationFn: () => post<User>("/api/auth/register", { name, email, password }),
    onSuccess: enter,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    register.mutate();
  };
  return (
    <AuthFrame
      title="Create an account"
      footer={
        <>
          Already registered? <Link to={`/login${q}`}>Sign in</Link>
        </>
      }
    >
      <form onSubmit={submit} className="form">
        <div className="field">
          <label>
            Name
            <input autoComplete="name" required autoFocus value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
          </label>
          <FieldError error={register.error} field="name" />
        </div>
        <div className="field">
          <label>
            Email
            <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
          <FieldError error={register.error} field="email" />
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
              aria-describedby="password-hint"
            />
          </label>
          <span className="hint" id="password-hint">
            At least {MIN_PASSWORD} characters.
          </span>
          <FieldError error={register.error} field="password" />
        </div>
        <FormError error={register.error} />
        <button type="submit" className="primary" disabled={register.isPending}>
          {register.isPending ? "Creating…" : "Create account"}
        </button>
      </form>
    </AuthFrame>
  );
}

export function ForgotPage() {
  const [email, setEmail] = useState("");
  const forgot = useMutation({ mutationFn: () => post<null>("/api/auth/forgot", { email }) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    forgot.mutate();
  };
  return (
    <AuthFrame title="Reset your password" footer={<Link to="/login">Back to sign in</Link>}>
      {forgot.isSuccess ? (
        <p className="notice" role="status">
          If an account exists for <strong>{email}</strong>, a reset link is on its way. This hub prints reset links in its log: ask whoever
          runs it. The link works once, for one hour.
        </p>
      ) : (
        <form onSubmit={submit} className="form">
          <p>Enter the email you signed up with; we will send a link to choose a new password.</p>
          <div className="field">
            <label>
              Email
              <input type="email" autoComplete="email" required autoFocus value={email} onChange={(e) => setEmail(e.target.value)} />
            </label>
          </div>
          <FormError error={forgot.error} />
          <button type="submit" className="primary" disabled={forgot.isPending}>
            Send reset link
          </button>
        </form>
      )}
    </AuthFrame>
  );
}

export function ResetPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const reset = useMutation({
    mutationFn: () => post<null>("/api/auth/reset", { token, password }),
    onSuccess: () => {
      qc.clear();
      navigate("/login?reset=1", { replace: true });
    },
  });
  if (!token) {
    return (
      <AuthFrame title="Reset your password" footer={<Link to="/forgot">Ask for a new link</Link>}>
        <p className="error-box" role="alert">
          This page needs the link from the reset message (it ends in <code>?token=…</code>).
        </p>
      </AuthFrame>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (password !== confirm) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    reset.mutate();
  };
  return (
    <AuthFrame title="Choose a new password" footer={<Link to="/forgot">Ask for a new link</Link>}>
      <form onSubmit={submit} className="form">
        <div className="field">
          <label>
            New password
            <input
              type="password"
              autoComplete="new-password"
              required
              minLength={MIN_PASSWORD}
              autoFocus
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          <span className="hint">At least {MIN_PASSWORD} characters. Your other sessions will be signed out.</span>
          <FieldError error={reset.error} field="password" />
        </div>
        <div className="field">
          <label>
            Repeat the new password
            <input type="password" autoComplete="new-password" required value={confirm} onChange={(e) => setConfirm(e.target.value)} />
          </label>
          {mismatch && <span className="field-error">The two passwords differ.</span>}
        </div>
        <FormError error={reset.error} />
        <button type="submit" className="primary" disabled={reset.isPending}>
          Set password
        </button>
      </form>
    </AuthFrame>
  );
}
