// Pairing approval: the desktop agent prints /pair/<code>; the signed-in
// user sees which computer waits on it and approves it, and the hub hands
// that computer its token. A code is single use and lasts 10 minutes.
import { Link, useParams } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { approvePairing, getPairing, keys, normalizeCode, type Agent } from "../../api/admin";
import { ApiError } from "../../api";
import { ErrorBox, formatDate, Loading, PageHeader } from "../../components/ui";
import "./agents.css";

export const EXPIRED_MESSAGE = "This pairing code is unknown or has expired. Restart the agent to get a new code.";
export const GONE_MESSAGE = "This computer is no longer waiting: start the agent again for a new code.";

// The codes this browser approved, so that coming back to the page (the
// hub forgets a used code) says it was approved rather than unknown.
const APPROVED = "ta.pairedCodes";

function approvedName(code: string): string | null {
  try {
    const m = JSON.parse(sessionStorage.getItem(APPROVED) ?? "{}") as Record<string, string>;
    return typeof m[code] === "string" ? m[code] : null;
  } catch {
    return null;
  }
}

function rememberApproved(code: string, name: string): void {
  try {
    const m = JSON.parse(sessionStorage.getItem(APPROVED) ?? "{}") as Record<string, string>;
    m[code] = name;
    sessionStorage.setItem(APPROVED, JSON.stringify(m));
  } catch {
    /* a convenience only */
  }
}

/** expiresIn says how long a code still works: "in 9 minutes". */
export function expiresIn(iso: string, now = Date.now()): string {
  const ms = new Date(iso).getTime() - now;
  if (Number.isNaN(ms)) return iso;
  if (ms <= 0) return "now";
  const min = Math.ceil(ms / 60_000);
  return min <= 1 ? "within a minute" : `in ${min} minutes`;
}

function isGone(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 404 || err.status === 410);
}

/** stoppedWaiting: the code is right but its agent exited (410 pairing_gone). */
function stoppedWaiting(err: unknown): boolean {
  return err instanceof ApiError && err.code === "pairing_gone";
}

export function PairPage() {
  const params = useParams();
  const code = normalizeCode(params.code ?? "");
  const qc = useQueryClient();
  const pairing = useQuery({ queryKey: keys.pairing(code), queryFn: () => getPairing(code), retry: false, staleTime: Infinity });
  const approve = useMutation({
    mutationFn: () => approvePairing(code),
    onSuccess: async (agent: Agent) => {
      rememberApproved(code, agent.name);
      await qc.invalidateQueries({ queryKey: keys.agents });
    },
  });

  if (approve.isSuccess) {
    return (
      <section className="pair">
        <PageHeader title="Computer paired" />
        <div className="ok-box" role="status">
          Paired: <strong>{approve.data.name}</strong> is now connected. It runs the tests you start from now on.
        </div>
        <p>
          <Link to="/agents">See your computers</Link>
        </p>
      </section>
    );
  }

  if (pairing.isPending) return <Loading label="Looking up the pairing code" />;

  if (pairing.isError || isGone(approve.error)) {
    const err = pairing.error ?? approve.error;
    const already = approvedName(code);
    return (
      <section className="pair">
        <PageHeader title="Approve a computer" />
        {isGone(err) && already ? (
          <div className="ok-box" role="status">
            You already approved code <code>{code}</code>: <strong>{already}</strong> is paired.{" "}
            <Link to="/agents">See your computers</Link>
          </div>
        ) : stoppedWaiting(err) ? (
          <div className="error-box" role="alert">
            {GONE_MESSAGE}
          </div>
        ) : isGone(err) ? (
          <div className="error-box" role="alert">
            {EXPIRED_MESSAGE}
            {approve.error ? " (The computer stopped waiting, or someone approved it already.)" : ""}
          </div>
        ) : (
          <ErrorBox error={err} />
        )}
        <p>
          Pairing codes last 10 minutes and work once. <Link to="/agents">How to pair a computer</Link>
        </p>
      </section>
    );
  }

  const p = pairing.data;
  return (
    <section className="pair">
      <PageHeader title="Approve this computer?" />
      <div className="panel pair-card">
        <dl className="pair-facts">
          <dt>Computer</dt>
          <dd>
            <strong>{p.hostname}</strong>
          </dd>
          <dt>Operating system</dt>
          <dd>{p.os || "—"}</dd>
          <dt>Pairing code</dt>
          <dd>
            <code>{p.code}</code>
          </dd>
          <dt>Code expires</dt>
          <dd>
            <time dateTime={p.expiresAt} title={formatDate(p.expiresAt)}>
              {expiresIn(p.expiresAt)}
            </time>
          </dd>
        </dl>
        <p>
          Approve only a computer you control and whose code you see in its agent. It will run the tests you start, with your permissions,
          and receive the secrets of those runs.
        </p>
        <ErrorBox error={approve.error} />
        <div className="row">
          <button type="button" className="primary" disabled={approve.isPending} onClick={() => approve.mutate()}>
            {approve.isPending ? "Approving…" : "Approve"}
          </button>
          <Link to="/agents" className="button">
            Cancel
          </Link>
        </div>
      </div>
    </section>
  );
}
