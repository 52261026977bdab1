// What the editor's Pick and Try buttons need to know, deep in the
// inspector: the test's project, the environment chosen in the Record
// panel, the running recording (a picker or a script then uses its page)
// and the address a fresh page opens otherwise (the test's first navigate).
import { createContext, useContext } from "react";
import { ApiError, describeError, type PageChoice } from "../../../api";
import type { JsonObject } from "../../../api/editorApi";
import type { RunOptions } from "../../runs/RunOptionsFields";

export interface Authoring {
  projectId: string;
  testId: string;
  options: RunOptions;
  /** The recording running now, whose page Pick and Try use. */
  recordingId: string | null;
  /** The test's first navigate url, or "" (then the environment's base URL). */
  pageUrl: string;
  /**
   * stepPage gives, for a step that has steps before it, the editor's live
   * session with those steps replayed on its page (the picker then opens
   * where the step happens); null for the first step.
   */
  stepPage?: (stepId: string) => Promise<StepPage | null>;
  /** The test's first step's id: picking for it opens a fresh page. */
  firstStepId?: string | null;
}

/** StepPage is a picker's start on the live session's page, before the step. */
export type StepPage = { sessionId: string; stepId: string; document: JsonObject };

const AuthoringContext = createContext<Authoring | null>(null);

export const AuthoringProvider = AuthoringContext.Provider;

/** useAuthoring is null outside an editor that can author (read-only tests, forms shown alone). */
export function useAuthoring(): Authoring | null {
  return useContext(AuthoringContext);
}

/** pageChoice says where a picker or a tried script runs: the recording's page, else a fresh one. */
export function pageChoice(a: Authoring): PageChoice {
  if (a.recordingId) return { recordingId: a.recordingId };
  const out: PageChoice = {};
  if (a.pageUrl) out.url = a.pageUrl;
  if (a.options.envId) out.environmentId = a.options.envId;
  return out;
}

/** pageWords says the same in words, for the panels; atStep: a step with steps before it. */
export function pageWords(a: Authoring, atStep = false): string {
  if (a.recordingId) return "in the recording's page";
  if (atStep && a.stepPage) return "in the page where this step happens (the steps before it run first on your live session)";
  const env = a.options.chosen ? ` with the environment ${a.options.chosen.name}` : "";
  if (a.pageUrl) return `in a fresh page at ${a.pageUrl}${env}`;
  return a.options.chosen ? `in a fresh page at the base URL of ${a.options.chosen.name}` : "in a blank page";
}

/** agentNeeded tells the hub's "no connected agent of yours" from other failures. */
export function agentNeeded(err: unknown): boolean {
  return err instanceof ApiError && err.code === "agent_needed";
}

/** problemText is a failure in a tester's words, with the hub's issue for a bad URL or code. */
export function problemText(err: unknown): string {
  if (err instanceof ApiError && err.issues.length > 0) return err.issues.map((i) => `${i.path}: ${i.message}`).join("; ");
  return describeError(err);
}

/**
 * baseUrlProblem says why a page at url cannot open: it uses ${baseUrl}
 * and no environment is chosen (Issue 27, defect 3). null when it can; a
 * recording's page needs no address.
 */
export function baseUrlProblem(url: string, a: Authoring): string | null {
  if (a.recordingId || a.options.envId || !url.includes("${baseUrl}")) return null;
  return "Choose an environment (in the editor's toolbar): this test uses ${baseUrl}.";
}
