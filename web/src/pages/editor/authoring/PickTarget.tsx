// Pick beside a target field: the agent's page shows live in the panel (and
// in its window, when the agent has a display); the element under the
// mouse is highlighted with its best locator, the next click picks it
// (without reaching the page) and fills the target at once with its best
// unique locator first and the other unique candidates as fallbacks.
// Every candidate is listed with its score and how many elements it
// matches now, to use another instead. The picker is polled while open and
// closed with the panel.
import { useEffect, useId, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { JsonObject } from "../../../api/editorApi";
import {
  closePicker,
  fetchPicker,
  setPickerMode,
  startPicker,
  type PickedElement,
  type Picker,
  type PickerMode,
  type RankedLocator,
} from "../../../api/authoringApi";
import { AgentNeeded } from "../../runs/AgentNotice";
import { agentNeeded, baseUrlProblem, pageChoice, pageWords, problemText, useAuthoring } from "./AuthoringContext";
import { LiveView } from "./LiveView";
import { pickedTarget } from "./recordModel";

const MODES: [PickerMode, string][] = [
  ["pick", "Pick"],
  ["inspect", "Inspect"],
  ["off", "Off"],
];

const OPEN = new Set(["starting", "ready", "picked"]);

/** pickerHint says what to do in the browser now. */
function pickerHint(p: Picker): string {
  if (p.status === "starting") return "Opening the browser…";
  if (p.status === "closed") return `The picker was closed${p.error ? `: ${p.error}` : "."}`;
  if (p.status === "error") return `The picker stopped: ${p.error ?? "the agent gave no reason"}.`;
  if (p.mode === "inspect") return "Hover elements in the browser window to see their best locator; switch to Pick to choose one.";
  if (p.mode === "off") return "The page works normally now; switch to Pick to choose an element.";
  return p.status === "picked"
    ? "Click another element to pick it instead."
    : "Click an element in the live picture below (or in the agent's browser window, when it shows one).";
}

function candidateText(l: RankedLocator): string {
  return `${l.kind}=${l.value}${l.name ? ` "${l.name}"` : ""}`;
}

export function PickTarget({
  label,
  stepId,
  onTarget,
}: {
  label: string;
  /** The step picked for: with steps before it, the picker opens the page where it happens. */
  stepId?: string;
  /** Fills the step's target; element is what was picked (its text prefills an assertion). */
  onTarget: (target: JsonObject, element: PickedElement | null) => void;
}) {
  const authoring = useAuthoring();
  const id = useId();
  const [pickerId, setPickerId] = useState<string | null>(null);
  const [used, setUsed] = useState<string | null>(null);
  const qc = useQueryClient();
  const start = useMutation({
    mutationFn: async () => {
      const a = authoring!;
      const at = !a.recordingId && stepId && a.stepPage ? await a.stepPage(stepId) : null;
      return startPicker(a.projectId, at ? { ...at, document: at.document as never } : { ...pageChoice(a), headed: true });
    },
    onMutate: () => setUsed(null),
    onSuccess: (p) => {
      qc.setQueryData(["picker", p.id], p);
      setPickerId(p.id);
    },
  });
  const picker = useQuery({
    queryKey: ["picker", pickerId],
    queryFn: () => fetchPicker(pickerId ?? ""),
    enabled: pickerId !== null,
    refetchInterval: (q) => (q.state.data && !OPEN.has(q.state.data.status) ? false : 500),
    gcTime: 0,
  });
  const mode = useMutation({ mutationFn: (m: PickerMode) => setPickerMode(pickerId ?? "", m), onSuccess: () => picker.refetch() });

  // A pick fills the step at once with its best unique locator; each new pick fills it again.
  const fill = useRef(onTarget);
  fill.current = onTarget;
  const applied = useRef("");
  const pickedNow = picker.data?.target ?? null;
  useEffect(() => {
    if (!pickedNow) return;
    const key = JSON.stringify(pickedNow);
    const best = pickedNow.locators.findIndex((l) => l.matches === 1);
    if (key === applied.current || best < 0) return;
    applied.current = key;
    fill.current(pickedTarget(pickedNow, best), picker.data?.element ?? null);
    setUsed(candidateText(pickedNow.locators[best]));
  }, [pickedNow, picker.data?.element]);

  // A picker left open holds a page in the agent's browser: close it with the panel.
  const openId = useRef<string | null>(null);
  openId.current = pickerId && picker.data && OPEN.has(picker.data.status) ? pickerId : null;
  useEffect(
    () => () => {
      if (openId.current) closePicker(openId.current).catch(() => {});
    },
    [],
  );

  // The Pick button gives way to the panel and back: the focus goes with it.
  const pickRef = useRef<HTMLButtonElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const shown = pickerId !== null;
  const wasShown = useRef(shown);
  useEffect(() => {
    if (wasShown.current === shown) return;
    wasShown.current = shown;
    (shown ? closeRef : pickRef).current?.focus();
  }, [shown]);

  if (!authoring) return null;
  const close = () => {
    if (openId.current) closePicker(openId.current).catch(() => {});
    setPickerId(null);
    start.reset();
  };
  const use = (i: number) => {
    const p = picker.data;
    if (!p?.target) return;
    onTarget(pickedTarget(p.target, i), p.element ?? null);
    setUsed(candidateText(p.target.locators[i]));
    close();
  };
  const needEnv = baseUrlProblem(authoring.pageUrl, authoring);

  const p = picker.data;
  if (!pickerId) {
    return (
      <div className="pick-target">
        <button
          ref={pickRef}
          type="button"
          className="small"
          onClick={() => start.mutate()}
          disabled={start.isPending || !!needEnv}
          aria-describedby={`${id}-where`}
        >
          {start.isPending ? "Opening…" : `Pick ${label.toLowerCase()}`}
        </button>
        <span className="hint" id={`${id}-where`}>
          {needEnv ?? `Click the element in the agent's page, ${pageWords(authoring, !!stepId && stepId !== authoring.firstStepId)}.`}
        </span>
        {used && (
          <p role="status" className="muted">
            Filled with {used} and the other unique candidates as fallbacks.
          </p>
        )}
        {start.error &&
          (agentNeeded(start.error) ? (
            <AgentNeeded what="picking an element" />
          ) : (
            <p className="error-box" role="alert">
              The picker could not start: {problemText(start.error)}
            </p>
          ))}
      </div>
    );
  }
  return (
    <section className="pick-target picker-panel" aria-labelledby={`${id}-title`}>
      <div className="authoring-head">
        <h3 id={`${id}-title`}>Pick {label.toLowerCase()}</h3>
        <span className="row-buttons" role="group" aria-label="Picker mode">
          {MODES.map(([m, text]) => (
            <button
              key={m}
              type="button"
              className="small"
              aria-pressed={p?.mode === m}
              disabled={!p || !OPEN.has(p.status) || mode.isPending}
              onClick={() => mode.mutate(m)}
            >
              {text}
            </button>
          ))}
        </span>
        <span className="spacer" />
        <button ref={closeRef} type="button" className="small" onClick={close}>
          Close the picker
        </button>
      </div>
      <p role="status" className={p && (p.status === "error" || p.status === "closed") ? "error-box" : "hint"}>
        {p ? pickerHint(p) : "Opening the browser…"}
      </p>
      {used && (
        <p role="status" className="ok-box">
          Filled with {used} and the other unique candidates as fallbacks. Pick another element, or use another candidate below.
        </p>
      )}
      {p && (p.status === "ready" || p.status === "picked") && pickerId && (
        <LiveView sessionId={pickerId} label={`The page to pick ${label.toLowerCase()} in`} />
      )}
      {(picker.error || mode.error) && (
        <p className="error-box" role="alert">
          {problemText(picker.error ?? mode.error)}
        </p>
      )}
      {p?.element && (
        <p className="picked-element">
          Picked <code>&lt;{p.element.tag}&gt;</code>
          {p.element.role && (
            <>
              {" "}
              role <strong>{p.element.role}</strong>
            </>
          )}
          {p.element.name && <> named “{p.element.name}”</>}
          {p.element.text && <span className="muted"> · text “{p.element.text.slice(0, 80)}”</span>}
          {p.element.frame && p.element.frame.length > 0 && <span className="muted"> · in {p.element.frame.length} frame(s)</span>}
        </p>
      )}
      {p?.target && (
        <table className="candidates">
          <caption className="hint">
            Candidates, best first: a lower score is more robust; only a locator matching exactly one element is used.
          </caption>
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">Value</th>
              <th scope="col">Score</th>
              <th scope="col">Matches</th>
              <th scope="col">
                <span className="sr-only">Use</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {p.target.locators.map((l, i) => {
              const unique = l.matches === 1;
              return (
                <tr key={i} className={unique ? undefined : "not-unique"}>
                  <td>{l.kind}</td>
                  <td className="mono">
                    {l.value}
                    {l.name ? ` "${l.name}"` : ""}
                  </td>
                  <td>{l.score}</td>
                  <td>{l.matches}</td>
                  <td>
                    <button
                      type="button"
                      className="small"
                      disabled={!unique}
                      title={unique ? undefined : `Matches ${l.matches} elements, not exactly one`}
                      aria-label={`Use ${candidateText(l)}`}
                      onClick={() => use(i)}
                    >
                      Use
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
