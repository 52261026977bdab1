// The options of a run, the same for one test and for many: the
// environment (remembered per project), a visible window or not, which
// steps get a screenshot, the device the pages emulate, what the trace
// keeps (docs/trace.md), and how often a failed test runs again
// (docs/retries.md).

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { ErrorBox } from "../../components/ui";
import { environmentChoicesKey, listEnvironmentChoices } from "../../api/runs";
import { fetchRegistry } from "../../api/editorApi";
import type { TraceMode } from "../../api/traceApi";

const LAST_ENV = "ta.lastEnvironment.";

/** rememberedEnvironment is the project's last-used environment, "" for none chosen on purpose, null when nothing is remembered. */
function rememberedEnvironment(projectId: string): string | null {
  try {
    return localStorage.getItem(LAST_ENV + projectId);
  } catch {
    return null;
  }
}

/**
 * chooseEnvironment is the environment to use: the one chosen (or last
 * used) while it exists, "" when none was chosen on purpose, else the
 * project's only environment, else none.
 */
export function chooseEnvironment(choice: string | null, envs: readonly { id: string }[] | undefined): string {
  if (!envs) return choice ?? "";
  if (choice === "" || (choice && envs.some((e) => e.id === choice))) return choice;
  return envs.length === 1 ? envs[0].id : "";
}

/** rememberEnvironment makes id the environment the next run dialog of the project offers first. */
export function rememberEnvironment(projectId: string, id: string): void {
  try {
    localStorage.setItem(LAST_ENV + projectId, id);
  } catch {
    /* private mode: remembering is a convenience */
  }
}

/** useRunOptions holds a run dialog's choices for a project. */
export function useRunOptions(projectId: string) {
  const envs = useQuery({
    queryKey: environmentChoicesKey(projectId),
    queryFn: () => listEnvironmentChoices(projectId),
    staleTime: 60_000,
  });
  const [environmentId, setEnvironmentId] = useState<string | null>(() => rememberedEnvironment(projectId));
  const [headed, setHeaded] = useState(false);
  const [screenshots, setScreenshots] = useState(true);
  const [device, setDevice] = useState("");
  const [trace, setTrace] = useState<TraceMode>("failures");
  const [retries, setRetries] = useState(0);
  // A remembered environment that was deleted since counts as not chosen.
  const envId = chooseEnvironment(environmentId, envs.data);
  const chosen = envs.data?.find((e) => e.id === envId);
  return {
    envs,
    envId,
    setEnvironmentId,
    chosen,
    headed,
    setHeaded,
    screenshots,
    setScreenshots,
    device,
    setDevice,
    trace,
    setTrace,
    retries,
    setRetries,
  };
}

export type RunOptions = ReturnType<typeof useRunOptions>;

/** traceChoice is the trace part of a run request: sent when it is not the hub's default (failures), as an environment is sent only when chosen. */
export function traceChoice(trace: TraceMode): { trace?: TraceMode } {
  return trace === "failures" ? {} : { trace };
}

/** retriesChoice is the retries part of a run request: sent when a failed test should run again, 0 being the hub's default. */
export function retriesChoice(retries: number): { retries?: number } {
  return retries > 0 ? { retries } : {};
}

/** EnvironmentField picks the environment; many: runs of many tests. */
export function EnvironmentField({ options, many }: { options: RunOptions; many?: boolean }) {
  const { envs, envId, setEnvironmentId } = options;
  return (
    <>
      <div className="field">
        <label>
          Environment
          <select value={envId} onChange={(e) => setEnvironmentId(e.target.value)} disabled={envs.isPending}>
            <option value="">No environment</option>
            {(envs.data ?? []).map((e) => (
              <option key={e.id} value={e.id}>
                {e.protected ? `${e.name} (protected)` : e.name}
              </option>
            ))}
          </select>
        </label>
        <span className="hint">
          {envs.isPending
            ? "Loading the environments…"
            : `Its variables (baseUrl and others) and secrets fill the ${many ? "tests'" : "test's"} \${…} references.`}
        </span>
      </div>
      {envs.isError && <ErrorBox error={envs.error} title="The environments could not be loaded" />}
    </>
  );
}

/** RunOptionsFields are the browser options; many: runs of many tests, each with its own window. */
export function RunOptionsFields({ options, many }: { options: RunOptions; many?: boolean }) {
  const { headed, setHeaded, screenshots, setScreenshots, device, setDevice, trace, setTrace, retries, setRetries } = options;
  const registry = useQuery({ queryKey: ["registry"], queryFn: fetchRegistry, staleTime: Infinity });
  return (
    <>
      <div className="field">
        <label>
          Device
          <select aria-label="Device" value={device} onChange={(e) => setDevice(e.target.value)} disabled={registry.isPending}>
            <option value="">Desktop (the agent&apos;s window)</option>
            {(registry.data?.devices ?? []).map((d) => (
              <option key={d.name} value={d.name}>
                {d.name} ({d.width}×{d.height})
              </option>
            ))}
          </select>
        </label>
        <span className="hint">The pages emulate the phone or tablet: its screen size, pixel ratio, touch and user agent.</span>
      </div>
      <label className="inline">
        <input type="checkbox" checked={headed} onChange={(e) => setHeaded(e.target.checked)} />
        {many ? "Headed (show the browser windows)" : "Headed (show the browser window)"}
      </label>
      <fieldset>
        <legend>Screenshots</legend>
        <label className="inline">
          <input type="radio" name="screenshots" checked={screenshots} onChange={() => setScreenshots(true)} />
          Every step
        </label>
        <label className="inline">
          <input type="radio" name="screenshots" checked={!screenshots} onChange={() => setScreenshots(false)} />
          Failures only
        </label>
      </fieldset>
      <div className="field">
        <label>
          Trace
          <select value={trace} onChange={(e) => setTrace(e.target.value as TraceMode)}>
            <option value="failures">On failure (default)</option>
            <option value="on">Every step</option>
            <option value="off">Off</option>
          </select>
        </label>
        <span className="hint">Console, requests and the page&apos;s DOM per step, shown on the run page to explain a failure.</span>
      </div>
      <div className="field">
        <label>
          Retries
          <select value={retries} onChange={(e) => setRetries(Number(e.target.value))}>
            <option value={0}>None (default)</option>
            <option value={1}>1</option>
            <option value={2}>2</option>
            <option value={3}>3</option>
          </select>
        </label>
        <span className="hint">
          A failed test runs again, in a fresh browser, up to this many times; one that then passes is marked flaky.
        </span>
      </div>
    </>
  );
}
