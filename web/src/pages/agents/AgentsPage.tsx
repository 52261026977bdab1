// Agents: the caller's paired computers, which execute the runs they start,
// and how to pair another. The list refreshes every few seconds so a
// computer approved in another tab, or one that just connected, shows up.
// A computer whose token someone else tried to connect with says so, and
// its token can be rotated there.
import { Fragment, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  approvePairing,
  disconnectAgent,
  keys,
  listAgents,
  listPendingAgents,
  normalizeCode,
  rotateAgentToken,
  type Agent,
  type PendingAgent,
} from "../../api/admin";
import { Confirm, Empty, ErrorBox, formatDate, Loading, PageHeader, When } from "../../components/ui";
import { ConfirmAction } from "../../components/ConfirmAction";
import { ApiError } from "../../api";
import { AgentDownload } from "./AgentDownload";
import { EditAgent } from "./AgentEdit";
import { GONE_MESSAGE } from "./PairPage";
import "./agents.css";

export const AGENTS_POLL_MS = 5_000;

export function AgentsPage() {
  const agents = useQuery({ queryKey: keys.agents, queryFn: listAgents, refetchInterval: AGENTS_POLL_MS });
  const [disconnecting, setDisconnecting] = useState<Agent | null>(null);
  const [rotating, setRotating] = useState<Agent | null>(null);
  const [rotated, setRotated] = useState<Agent | null>(null);
  const [editing, setEditing] = useState<Agent | null>(null);

  return (
    <section className="agents">
      <PageHeader
        title="Agents"
        subtitle="Your paired computers. A run you start goes to one of your connected agents, which drives a local browser and streams the results back."
      />
      <PendingAgents />
      {agents.isPending ? (
        <Loading label="Loading your computers" />
      ) : agents.isError ? (
        <ErrorBox error={agents.error} title="Your computers could not be loaded" />
      ) : (
        <>
          {agents.data.needed && (
            <p className="notice" role="status">
              {agents.data.agents.length === 0
                ? "You have no paired computer yet: your runs wait as queued until one connects."
                : "None of your computers is connected: your runs wait as queued until one is. Start the agent on one of them."}
            </p>
          )}
          {agents.data.agents.length === 0 ? (
            <Empty>No computers paired yet. Follow the steps below to pair one.</Empty>
          ) : (
            <AgentTable agents={agents.data.agents} onDisconnect={setDisconnecting} onRotate={setRotating} onEdit={setEditing} />
          )}
        </>
      )}
      {rotated && (
        <p className="ok-box" role="status">
          <strong>{rotated.name}</strong> has a new token; the old one no longer works.
        </p>
      )}
      <PairHelp />
      {editing && <EditAgent agent={editing} onClose={() => setEditing(null)} />}
      {disconnecting && <DisconnectAgent agent={disconnecting} onClose={() => setDisconnecting(null)} />}
      {rotating && (
        <RotateToken
          agent={rotating}
          onClose={(done) => {
            setRotating(null);
            if (done) setRotated(rotating);
          }}
        />
      )}
    </section>
  );
}

function AgentTable({
  agents,
  onDisconnect,
  onRotate,
  onEdit,
}: {
  agents: Agent[];
  onDisconnect: (a: Agent) => void;
  onRotate: (a: Agent) => void;
  onEdit: (a: Agent) => void;
}) {
  return (
    <table className="table">
      <thead>
        <tr>
          <th>Name</th>
          <th>System</th>
          <th>Status</th>
          <th>Last seen</th>
          <th>Activity</th>
          <th>Paired</th>
          <th>
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {agents.map((a) => (
          <Fragment key={a.id}>
            <tr>
              <td>
                <strong>{a.name}</strong>
                {a.labels.length > 0 && (
                  <span className="agent-labels" aria-label={`Labels of ${a.name}`}>
                    {a.labels.map((l) => (
                      <span key={l} className="agent-label">
                        {l}
                      </span>
                    ))}
                  </span>
                )}
              </td>
              <td>
                {a.os || <span className="muted">—</span>}
                {a.browserVersion && <div className="muted agent-browser">{a.browserVersion}</div>}
              </td>
              <td>
                <span className={a.connected ? "badge badge-connected" : "badge badge-offline"}>
                  {a.connected ? "Connected" : "Offline"}
                </span>
                {a.ephemeral && (
                  <span
                    className="badge badge-running"
                    title="A CI command's agent (ta-agent ci): it runs only the tests its command started and goes away when the command ends."
                  >
                    CI
                  </span>
                )}
                {a.display ? (
                  <span className="badge badge-display" title="This computer has a display: headed runs can show their window there.">
                    Display
                  </span>
                ) : (
                  <span className="badge badge-offline" title="This computer has no display: headed runs never go to it.">
                    No display
                  </span>
                )}
              </td>
              <td>{a.connected ? "now" : <When at={a.lastSeen} />}</td>
              <td>
                {a.state === "busy" ? (
                  <span className="badge badge-running">
                    Running {a.busy} run{a.busy === 1 ? "" : "s"}
                  </span>
                ) : a.state === "paused" ? (
                  "Paused"
                ) : a.state === "idle" ? (
                  "Idle"
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
              <td>
                <When at={a.createdAt} />
              </td>
              <td className="agent-actions">
                <button type="button" className="small" aria-label={`Edit ${a.name}`} onClick={() => onEdit(a)}>
                  Edit
                </button>
                <button type="button" className="small" aria-label={`Disconnect ${a.name}`} onClick={() => onDisconnect(a)}>
                  Disconnect
                </button>
              </td>
            </tr>
            {a.refusedAt && (
              <tr className="agent-refused">
                <td colSpan={7}>
                  <TokenAttempt agent={a} onRotate={() => onRotate(a)} />
                </td>
              </tr>
            )}
          </Fragment>
        ))}
      </tbody>
    </table>
  );
}

/** waitingFor says how long a computer has waited: "for 3 minutes". */
export function waitingFor(since: string, now = Date.now()): string {
  const ms = now - new Date(since).getTime();
  if (Number.isNaN(ms)) return "";
  const min = Math.floor(ms / 60_000);
  return min < 1 ? "less than a minute" : min === 1 ? "1 minute" : `${min} minutes`;
}

/**
 * PendingAgents lists the computers near the user (the hub shows only those
 * whose agent connects from the browser's own address) that wait for
 * approval. Everyone behind the same address (an office's NAT, a proxy) sees
 * them too, so the hub lists them without their codes: approving one asks
 * for the code the computer itself shows.
 */
function PendingAgents() {
  const qc = useQueryClient();
  const pending = useQuery({ queryKey: keys.pendingAgents, queryFn: listPendingAgents, refetchInterval: AGENTS_POLL_MS });
  const [chosen, setChosen] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const approve = useMutation({
    mutationFn: (c: string) => approvePairing(c),
    onSuccess: () => {
      setChosen(null);
      setCode("");
    },
    onSettled: () => qc.invalidateQueries({ queryKey: ["agent"] }),
  });
  const list = pending.data?.pending ?? [];
  if (list.length === 0 && !approve.isSuccess) return null;
  const choose = (p: PendingAgent) => {
    approve.reset();
    setCode("");
    setChosen(chosen === p.id ? null : p.id);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const c = normalizeCode(code);
    if (c) approve.mutate(c);
  };
  return (
    <section className="panel pending-agents" aria-labelledby="pending-title">
      <h2 id="pending-title">Computers waiting for approval</h2>
      {approve.isSuccess && (
        <p className="ok-box" role="status">
          Paired: <strong>{approve.data.name}</strong> is now one of your computers.
        </p>
      )}
      {list.length > 0 && (
        <>
          <p className="hint">
            Agents started near you (on this network address) that wait for their pairing code to be approved. Approve only a computer you
            control: it runs the tests you start, with your permissions. To approve, enter the code the computer shows in its tray (a
            headless agent prints it).
          </p>
          <ul className="pending-list">
            {list.map((p) => (
              <li key={p.id}>
                <span>
                  <strong>{p.hostname}</strong> <span className="muted">{p.os}</span> · waiting for{" "}
                  <time dateTime={p.since}>{waitingFor(p.since)}</time>
                </span>
                <button
                  type="button"
                  className="small"
                  aria-label={`Approve ${p.hostname}`}
                  aria-expanded={chosen === p.id}
                  onClick={() => choose(p)}
                >
                  Approve
                </button>
                {chosen === p.id && (
                  <form className="pair-code" onSubmit={submit}>
                    <label>
                      Code shown on {p.hostname}
                      <input
                        value={code}
                        onChange={(e) => setCode(e.target.value)}
                        placeholder="K7Q-4MP"
                        autoComplete="off"
                        spellCheck={false}
                        autoFocus
                      />
                    </label>
                    <button type="submit" className="primary small" disabled={!code.trim() || approve.isPending}>
                      Pair
                    </button>
                  </form>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      <ApproveError error={approve.error} />
    </section>
  );
}

/**
 * TokenAttempt tells the owner that a connection with this computer's token
 * was refused while the computer was connected: someone may hold a copy of
 * the token (or a second copy of the agent runs).
 */
function TokenAttempt({ agent, onRotate }: { agent: Agent; onRotate: () => void }) {
  return (
    <div className="notice notice-warn token-attempt" role="alert">
      <p>
        Someone tried to connect with this computer's token at <time dateTime={agent.refusedAt ?? ""}>{formatDate(agent.refusedAt)}</time>{" "}
        from <code>{agent.refusedFrom}</code>. The hub refused, because <strong>{agent.name}</strong> was connected.
        {agent.connected && agent.connectedFrom && (
          <>
            {" "}
            It is connected now from <code>{agent.connectedFrom}</code>.
          </>
        )}{" "}
        If that was not a second copy of your agent, rotate the token: a copy of the old one stops working.
      </p>
      <button type="button" className="small" aria-label={`Rotate the token of ${agent.name}`} onClick={onRotate}>
        Rotate token
      </button>
    </div>
  );
}

/** RotateToken gives a connected computer a new token over its connection. */
function RotateToken({ agent, onClose }: { agent: Agent; onClose: (done: boolean) => void }) {
  const qc = useQueryClient();
  const rotate = useMutation({
    mutationFn: () => rotateAgentToken(agent.id),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ["agent"] });
      onClose(true);
    },
  });
  return (
    <Confirm
      title={`Rotate the token of ${agent.name}?`}
      confirmLabel="Rotate token"
      busy={rotate.isPending}
      error={rotate.error}
      onConfirm={() => rotate.mutate()}
      onCancel={() => onClose(false)}
    >
      <p>
        The hub sends <strong>{agent.name}</strong> a new token over its connection
        {agent.connectedFrom ? (
          <>
            {" "}
            (from <code>{agent.connectedFrom}</code>)
          </>
        ) : null}
        ; once the agent has stored it, the old token no longer works. Its runs go on.
      </p>
      <p className="hint">
        If that connection is not your computer's, disconnect the computer instead and pair it again. A computer that is not connected
        cannot be rotated: start its agent first.
      </p>
    </Confirm>
  );
}

export const WRONG_CODE_MESSAGE = "No computer is waiting with this code: check the code the computer shows (codes last 10 minutes).";

/** ApproveError says why a code did not pair: a wrong code, a computer that stopped waiting, or what the hub said. */
function ApproveError({ error }: { error: unknown }) {
  const title = "The computer was not paired";
  if (error instanceof ApiError && (error.status === 404 || error.code === "pairing_gone")) {
    return (
      <p className="error-box" role="alert">
        <strong>{title}: </strong>
        {error.status === 404 ? WRONG_CODE_MESSAGE : GONE_MESSAGE}
      </p>
    );
  }
  return <ErrorBox error={error} title={title} />;
}

function DisconnectAgent({ agent, onClose }: { agent: Agent; onClose: () => void }) {
  return (
    <ConfirmAction
      title={`Disconnect ${agent.name}?`}
      confirmLabel="Disconnect"
      action={() => disconnectAgent(agent.id)}
      refresh={[["agent"]]}
      onDone={onClose}
      onCancel={onClose}
    >
      <p>
        <strong>{agent.name}</strong> loses its access to the hub and closes its connection
        {agent.busy > 0 ? "; the run it is executing goes back to the queue once for another of your agents, then ends as an error" : ""}.
        To use it again, start its agent and pair it anew.
      </p>
    </ConfirmAction>
  );
}

/** PairHelp offers the agent's download and tells how to approve the code it shows. */
function PairHelp() {
  const navigate = useNavigate();
  const origin = window.location.origin;
  const [code, setCode] = useState("");
  const open = (e: FormEvent) => {
    e.preventDefault();
    const c = normalizeCode(code);
    if (c) navigate(`/pair/${encodeURIComponent(c)}`);
  };
  return (
    <section className="panel pair-help" aria-labelledby="pair-help-title">
      <h2 id="pair-help-title">How to pair a computer</h2>
      <ol>
        <li>
          On the computer that should run your tests, download the desktop agent and install it. It comes from this hub, so it pairs with
          this hub without being told its address.
          <AgentDownload />
        </li>
        <li>
          The agent shows a pairing code in its tray, with a way to open this hub's approval page; a headless agent prints them:
          <pre>{`pairing code: K7Q-4MP\nopen ${origin}/pair/K7Q-4MP`}</pre>
        </li>
        <li>Open that page while signed in here and approve the computer. It appears in the list above within a few seconds.</li>
      </ol>
      <form className="pair-code" onSubmit={open}>
        <label>
          Pairing code
          <input value={code} onChange={(e) => setCode(e.target.value)} placeholder="K7Q-4MP" autoComplete="off" spellCheck={false} />
        </label>
        <button type="submit" className="primary" disabled={!code.trim()}>
          Open
        </button>
      </form>
      <p className="hint">Codes last 10 minutes; a stopped agent asks for a new one when it starts again.</p>
      <div className="headless-note">
        <h3>Advanced: headless on a server</h3>
        <p className="hint">
          On a machine without a desktop (a server, CI), install the Linux package and start the agent without its tray, pointed at this
          hub; it prints its pairing code:
        </p>
        <pre>ta-agent --headless --hub {origin}</pre>
        <p className="hint">
          The .deb installs it as <code>/usr/bin/ta-agent</code>; from the .tar.gz it is <code>./ta-agent/ta-agent</code>.
        </p>
      </div>
    </section>
  );
}
