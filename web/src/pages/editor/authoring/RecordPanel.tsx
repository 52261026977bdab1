// The Record panel: a start URL and an environment, then the agent's
// browser opens and every action the tester takes there appears here as a
// step, live. Stop puts the captured steps into the test at the cursor as
// unsaved edits; closing while steps were captured asks first, so none is
// lost by accident.
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import type { Registry } from "../../../api";
import type { JsonObject } from "../../../api/editorApi";
import { recordingPreviewUrl } from "../../../api/authoringApi";
import { useFileNames } from "../../../api/files";
import { Modal } from "../../../components/ui";
import { AgentNeeded } from "../../runs/AgentNotice";
import { rememberEnvironment } from "../../runs/RunOptionsFields";
import { describeStep } from "../stepText";
import { agentNeeded, baseUrlProblem, problemText, type Authoring } from "./AuthoringContext";
import { FileOfferPrompt } from "./FileOfferPrompt";
import { LiveView } from "./LiveView";
import { running, type RecordingState } from "./useRecording";

const STATUS_WORDS: Record<string, string> = {
  starting: "Starting the browser…",
  recording: "Recording",
  stopped: "Stopped",
  error: "Stopped by an error",
};

export function RecordPanel({
  recording,
  authoring,
  registry,
  onInsert,
  onClose,
  into = "test",
}: {
  recording: RecordingState;
  authoring: Authoring;
  registry: Registry;
  /** Puts steps into the test at the cursor; answers how many were added. */
  onInsert: (steps: JsonObject[]) => number;
  onClose: () => void;
  /** What the steps go into, in its messages: "test" or "component". */
  into?: string;
}) {
  const id = useId();
  const { rec, live, streamLost, offer, start, stop, forget } = recording;
  const [url, setUrl] = useState(authoring.pageUrl);
  const [headed, setHeaded] = useState(true);
  const [added, setAdded] = useState<string | null>(null);
  const [previewMissing, setPreviewMissing] = useState(false);
  const [asking, setAsking] = useState(false);
  const captured = live.map((l) => l.step);
  // Recorded uploads read with their files' names, as in the step list.
  const fileNames = useFileNames(
    authoring.projectId,
    captured.some((s) => s.type === "upload"),
  );
  // The focus follows the panel's phase, so a keyboard user is never left on a button that went away.
  const urlRef = useRef<HTMLInputElement>(null);
  const actionRef = useRef<HTMLButtonElement>(null);
  const phase = rec ? (running(rec) ? "running" : "ended") : "idle";
  useEffect(() => {
    if (phase === "idle") urlRef.current?.focus();
    else actionRef.current?.focus();
  }, [phase]);

  const needEnv = baseUrlProblem(url, authoring);
  const onStart = (e: FormEvent) => {
    e.preventDefault();
    setAdded(null);
    setPreviewMissing(false);
    if (needEnv) return;
    // The next Run dialog offers the environment the steps were recorded in.
    if (authoring.options.envId) rememberEnvironment(authoring.projectId, authoring.options.envId);
    start.mutate({
      url: url.trim(),
      environmentId: authoring.options.envId || undefined,
      testId: authoring.testId,
      headed,
    });
  };
  /** add puts steps into the test and leaves the recording behind. */
  const add = (steps: JsonObject[]) => {
    const n = steps.length > 0 ? onInsert(steps) : 0;
    setAdded(n === 0 ? "No new steps were captured." : `Added ${n} recorded step${n === 1 ? "" : "s"} to the ${into} (unsaved).`);
    forget();
  };
  const onStop = async () => {
    if (!rec) return;
    try {
      const final = await stop.mutateAsync(rec.id);
      add(final.steps.length > 0 ? (final.steps as unknown as JsonObject[]) : captured);
    } catch {
      // The failure is shown; what was captured can still be added.
    }
  };
  const close = () => {
    if (rec && captured.length > 0) return setAsking(true);
    if (rec && running(rec)) stop.mutate(rec.id);
    forget();
    onClose();
  };
  const answer = async (keep: boolean) => {
    setAsking(false);
    if (rec && running(rec)) {
      if (keep) await onStop();
      else stop.mutate(rec.id);
    } else if (keep) add(captured);
    forget();
    onClose();
  };

  const isRunning = running(rec);
  const failure = start.error ?? stop.error;
  return (
    <section className="panel record-panel" aria-labelledby={`${id}-title`}>
      <div className="authoring-head">
        <h2 id={`${id}-title`}>Record</h2>
        {rec && (
          <span role="status" className={`badge record-status record-${rec.status}`}>
            {STATUS_WORDS[rec.status] ?? rec.status}
          </span>
        )}
        <span className="spacer" />
        <button type="button" className="small" aria-label="Close the Record panel" title="Close" onClick={close}>
          ✕
        </button>
      </div>

      {!rec && (
        <form className="record-start" onSubmit={onStart}>
          <div className="field">
            <label htmlFor={`${id}-url`}>Start URL</label>
            <input
              ref={urlRef}
              id={`${id}-url`}
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://shop.example.com/login or /login"
              aria-describedby={`${id}-url-hint`}
            />
            <span className="hint" id={`${id}-url-hint`}>
              An http(s) address, or a path relative to the environment's base URL; empty opens the base URL itself.
            </span>
          </div>
          <p className="hint">
            Environment: {authoring.options.chosen ? authoring.options.chosen.name : "none"} (chosen in the editor's toolbar).
          </p>
          {needEnv && (
            <p className="error-box" role="alert">
              {needEnv}
            </p>
          )}
          <label className="inline">
            <input type="checkbox" checked={headed} onChange={(e) => setHeaded(e.target.checked)} />
            Show the browser window (an agent without a display records headless)
          </label>
          <div className="row">
            <button type="submit" className="primary" disabled={start.isPending || !!needEnv}>
              {start.isPending ? "Starting…" : "Start recording"}
            </button>
            {added && (
              <span role="status" className="muted">
                {added}
              </span>
            )}
          </div>
        </form>
      )}

      {failure &&
        (agentNeeded(failure) ? (
          <AgentNeeded what="recording" />
        ) : (
          <p className="error-box" role="alert">
            {stop.error ? "The recording could not be stopped: " : "The recording could not start: "}
            {problemText(failure)}
          </p>
        ))}

      {rec && (
        <>
          <p className="hint">
            {isRunning
              ? `Use the page at ${rec.url} in the live picture below (or in the agent's browser window, when it shows one): every click, entry and key press appears as a step.`
              : `The recording of ${rec.url} has ended.`}
          </p>
          {rec.status === "error" && (
            <p className="error-box" role="alert">
              The recording stopped: {rec.error ?? "the agent gave no reason"}.
            </p>
          )}
          {streamLost && isRunning && <p className="notice notice-warn">The live stream of steps was interrupted; reconnecting…</p>}
          {offer && isRunning && <FileOfferPrompt sessionId={rec.id} offer={offer} />}
          <h3 id={`${id}-captured`}>Captured steps ({captured.length})</h3>
          {captured.length === 0 ? (
            <p className="muted">None yet.</p>
          ) : (
            <ol className="captured-steps" aria-labelledby={`${id}-captured`}>
              {live.map((l) => (
                <li key={l.seq}>{describeStep(l.step, registry, undefined, fileNames)}</li>
              ))}
            </ol>
          )}
          <div className="row">
            {isRunning ? (
              <button ref={actionRef} type="button" className="primary" disabled={stop.isPending} onClick={onStop}>
                {stop.isPending ? "Stopping…" : "Stop and add the steps"}
              </button>
            ) : (
              <>
                <button ref={actionRef} type="button" className="primary" disabled={captured.length === 0} onClick={() => add(captured)}>
                  Add the {captured.length} captured step{captured.length === 1 ? "" : "s"}
                </button>
                <button type="button" onClick={forget}>
                  Discard them
                </button>
              </>
            )}
          </div>
          {isRunning ? (
            rec.status === "recording" && <LiveView sessionId={rec.id} label={`The recorded page, ${rec.url}`} />
          ) : (
            // Where the recording ended: the screenshot taken when it stopped.
            <figure className="record-preview">
              {previewMissing ? (
                <figcaption className="muted">No picture of where the recording ended.</figcaption>
              ) : (
                <img
                  src={recordingPreviewUrl(rec.id, 0)}
                  alt={`The recorded page, ${rec.url}, where the recording ended`}
                  onError={() => setPreviewMissing(true)}
                />
              )}
            </figure>
          )}
        </>
      )}
      {asking && (
        <Modal title="Keep the captured steps?" onClose={() => setAsking(false)}>
          <div className="modal-body">
            <p>
              {captured.length} step{captured.length === 1 ? " was" : "s were"} captured. Closing the panel
              {isRunning ? " stops the recording" : ""}. Add them to the {into} first?
            </p>
          </div>
          <div className="modal-actions">
            <button type="button" onClick={() => setAsking(false)}>
              {isRunning ? "Keep recording" : "Cancel"}
            </button>
            <button type="button" onClick={() => answer(false)}>
              Discard them
            </button>
            <button type="button" className="primary" onClick={() => answer(true)}>
              Add them and close
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}
