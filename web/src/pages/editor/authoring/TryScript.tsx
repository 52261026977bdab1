// Try on a script step: the agent runs the step's code in a page (the
// running recording's, else a fresh one) within a time limit and answers
// its value, its console lines and its error, secrets masked by the hub.
import { useId } from "react";
import { useMutation } from "@tanstack/react-query";
import { tryScript } from "../../../api/authoringApi";
import { AgentNeeded } from "../../runs/AgentNotice";
import { agentNeeded, baseUrlProblem, pageChoice, pageWords, problemText, useAuthoring } from "./AuthoringContext";
import { LiveView } from "./LiveView";

/** valueText shows a returned value as JSON; undefined (nothing returned) says so. */
function valueText(v: unknown): string {
  if (v === undefined || v === null) return "null (nothing returned)";
  return JSON.stringify(v, null, 2);
}

export function TryScript({ code, timeoutMs }: { code: string; timeoutMs?: number }) {
  const authoring = useAuthoring();
  const id = useId();
  const run = useMutation({
    mutationFn: () => tryScript(authoring?.projectId ?? "", { ...pageChoice(authoring!), code, timeoutMs }),
  });
  if (!authoring) return null;
  const res = run.data;
  const needEnv = baseUrlProblem(authoring.pageUrl, authoring);
  return (
    <div className="param-wide try-script">
      <div className="row">
        <button
          type="button"
          className="small"
          onClick={() => run.mutate()}
          disabled={run.isPending || code.trim() === "" || !!needEnv}
          aria-describedby={`${id}-where`}
        >
          {run.isPending ? "Trying…" : "Try the script"}
        </button>
        <span className="hint" id={`${id}-where`}>
          {needEnv ?? `Runs it on your agent ${pageWords(authoring)}.`}
        </span>
      </div>
      {run.error &&
        (agentNeeded(run.error) ? (
          <AgentNeeded what="trying a script" />
        ) : (
          <p className="error-box" role="alert">
            The script could not be tried: {problemText(run.error)}
          </p>
        ))}
      {res && (
        <section className="try-result" aria-label="Script result">
          <p className="muted">Ran in {res.durationMs} ms.</p>
          {res.error ? (
            <p className="error-box" role="alert">
              Error: {res.error.message}
            </p>
          ) : (
            <>
              <h4>Value</h4>
              <pre className="mono">{valueText(res.value)}</pre>
            </>
          )}
          <h4>Console ({res.console.length})</h4>
          {res.console.length === 0 ? (
            <p className="muted">No console lines.</p>
          ) : (
            <ol className="console-lines mono">
              {res.console.map((c, i) => (
                <li key={i} className={`console-${c.level}`}>
                  <span className="muted">[{c.level}]</span> {c.text}
                </li>
              ))}
            </ol>
          )}
        </section>
      )}
      {res && authoring.recordingId && <LiveView sessionId={authoring.recordingId} label="The recording's page after the script" />}
    </div>
  );
}
