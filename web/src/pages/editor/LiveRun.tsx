// Step by step on the caller's agent (Playwright UI mode's loop, Katalon's
// "run from here"): the editor keeps a live session (a page open on the
// agent) while it is open and runs the CURRENT document on it, saved or
// not: "Run this step", "Run to here" (from the first step, on a fresh
// page) and "Run from here" (on the page as it is). With "Pause on
// failure" the page stays at a failed step: pick a better locator there,
// then continue from that step. The session closes when the editor does.
import { useEffect, useRef, useState } from "react";
import { closePicker, fetchPicker, startPicker } from "../../api/authoringApi";
import type { EditorDocument, JsonObject } from "../../api/editorApi";
import { closeLive, fetchLive, liveOpen, openLive, runLive, type LiveRunBody, type LiveSession } from "../../api/liveApi";
import { ErrorBox } from "../../components/ui";
import type { RunOptions } from "../runs/RunOptionsFields";
import { LiveView } from "./authoring/LiveView";
import { pickedTarget } from "./authoring/recordModel";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const busy = (s: LiveSession | null) => s?.status === "starting" || s?.status === "running";

/** useLiveRun keeps the editor's live session: opened on first use, followed while it works, closed on leaving. */
export function useLiveRun(projectId: string, testId: string, environmentId: string) {
  const [session, setSession] = useState<LiveSession | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const open = useRef<string | null>(null);
  useEffect(
    () => () => {
      if (open.current) closeLive(open.current).catch(() => undefined);
    },
    [],
  );
  // Followed only while it works: a session no one runs on goes idle and closes after 10 minutes.
  useEffect(() => {
    if (!session || !busy(session)) return;
    const t = setTimeout(() => {
      fetchLive(session.id).then(setSession, setProblem);
    }, 300);
    return () => clearTimeout(t);
  }, [session]);

  /** ensure gives a ready session for the chosen environment, opening one when needed. */
  const ensure = async (): Promise<LiveSession> => {
    if (liveOpen(session) && (session.environmentId ?? "") === environmentId) return session;
    if (liveOpen(session)) await closeLive(session.id).catch(() => undefined);
    let s = await openLive(projectId, { testId, ...(environmentId ? { environmentId } : {}) });
    open.current = s.id;
    setSession(s);
    for (let i = 0; i < 150 && s.status === "starting"; i++) {
      await sleep(200);
      s = await fetchLive(s.id);
    }
    if (s.status === "error") throw new Error(s.error ?? "the agent could not open a page");
    return s;
  };
  const act = async (f: (s: LiveSession) => Promise<LiveSession | void>) => {
    setProblem(null);
    setPending(true);
    try {
      const s = await ensure();
      const next = await f(s);
      setSession(next ?? (await fetchLive(s.id)));
    } catch (err) {
      setProblem(err);
    } finally {
      setPending(false);
    }
  };
  const run = (doc: EditorDocument, body: Omit<LiveRunBody, "document">) =>
    act((s) => runLive(s.id, { ...body, document: doc as unknown as LiveRunBody["document"] }));
  return { projectId, session, problem, pending: pending || busy(session), run, act, ensure };
}

export type LiveRun = ReturnType<typeof useLiveRun>;

/** LiveRunBar runs steps of doc on the live session; stepId is the step shown in the inspector. */
export function LiveRunBar({
  live,
  options,
  doc,
  stepId,
  onFix,
}: {
  live: LiveRun;
  /** The editor's environment choice, shared with Record and Run. */
  options: RunOptions;
  doc: EditorDocument;
  stepId: string | null;
  onFix: (stepId: string, target: JsonObject) => void;
}) {
  const [pause, setPause] = useState(true);
  const [picking, setPicking] = useState(false);
  const [showPage, setShowPage] = useState(false);
  const [pickerId, setPickerId] = useState<string | null>(null);
  const s = live.session;
  const index = (id: string | null) => doc.steps.findIndex((st) => st.id === id);
  const n = index(stepId) + 1;
  const off = live.pending || n === 0 || picking;
  const failed = s?.status === "paused" ? s.failedStepId : null;
  const failedMark = failed ? s?.steps[failed] : undefined;
  const pickBetter = (id: string) =>
    live.act(async (ses) => {
      setPicking(true);
      try {
        let p = await startPicker(live.projectId, { sessionId: ses.id, stepId: id, document: doc as never });
        setPickerId(p.id);
        for (let i = 0; i < 600 && p.status !== "picked" && p.status !== "closed" && p.status !== "error"; i++) {
          await sleep(400);
          p = await fetchPicker(p.id);
        }
        if (p.target) onFix(id, pickedTarget(p.target, 0));
        await closePicker(p.id).catch(() => undefined);
      } finally {
        setPickerId(null);
        setPicking(false);
      }
    });
  return (
    <section className="panel live-run" aria-label="Run step by step">
      <div className="row">
        <strong>Step by step</strong>
        <span role="status" className="muted" aria-label="Live session">
          {s ? `Live session: ${s.status}` : "Runs on your agent, the steps as shown here, saved or not"}
        </span>
        <span className="spacer" />
        <span className="muted small" aria-label="Live session environment">
          {envName(options) ? `on ${envName(options)}` : "no environment"}
        </span>
        <button
          type="button"
          className="small"
          disabled={off}
          onClick={() => live.run(doc, { stepIds: [stepId ?? ""], pauseOnFailure: pause })}
        >
          Run this step
        </button>
        <button type="button" className="small" disabled={off} onClick={() => live.run(doc, { to: stepId ?? "", pauseOnFailure: pause })}>
          Run to here
        </button>
        <button type="button" className="small" disabled={off} onClick={() => live.run(doc, { from: stepId ?? "", pauseOnFailure: pause })}>
          Run from here
        </button>
        <label className="inline">
          <input type="checkbox" checked={pause} onChange={(e) => setPause(e.target.checked)} /> Pause on failure
        </label>
      </div>
      {n === 0 && <p className="muted small">Choose a step in the list to run it, up to it or from it.</p>}
      {failed && (
        <div className="notice live-paused" role="alert">
          <p>
            Paused at step {index(failed) + 1} ({failed}): {failedMark?.error ?? "it failed"}. The page is left as it was: pick a better
            locator or edit the step, then continue.
          </p>
          <div className="row">
            <button type="button" className="small" disabled={live.pending || picking} onClick={() => pickBetter(failed)}>
              {picking ? "Click the element in the page below…" : "Pick a better locator"}
            </button>
            <button
              type="button"
              className="small primary"
              disabled={live.pending || picking}
              onClick={() => live.run(doc, { from: failed, pauseOnFailure: pause })}
            >
              Continue
            </button>
          </div>
        </div>
      )}
      {s && liveOpen(s) && (showPage || picking) && (
        <LiveView sessionId={pickerId ?? s.id} label={picking ? "The page to pick a better locator in" : "The live session's page"} />
      )}
      {s && liveOpen(s) && !picking && (
        <button type="button" className="small link" onClick={() => setShowPage((v) => !v)}>
          {showPage ? "Hide the page" : "Show the page"}
        </button>
      )}
      {s?.lastRun?.status === "error" && !live.pending && (
        <p className="error-box" role="alert">
          The steps could not run: {s.lastRun.error ?? "the agent gave no reason"}
        </p>
      )}
      <ErrorBox error={live.problem} />
    </section>
  );
}

/** envName is the editor's chosen environment's name, "" without one. */
function envName(options: RunOptions): string {
  return (options.envs.data ?? []).find((e) => e.id === options.envId)?.name ?? "";
}
