// Drafting steps from plain language with the hub's language model, and the
// project's learned examples that guide it (hub/api/language.go). Generate
// and the examples list act on a project (x-project-id); deleting an
// example is a record call.
import { del, get, inProject, post, recordCall } from "./client";
import type { Step } from "./tests";
import type { Body, Schema } from "./types";

/**
 * POST /api/language/generate body. testId: the test the steps are for (its
 * saved steps and variables go into the prompt); environmentId: its
 * variables and secret names go into the prompt, its base URL is the page
 * the draft is checked on. text narrowed to required (optional in the
 * document's GenerateRequest; the hub answers 422 without it).
 */
export type DraftRequest = Body<"/api/language/generate", "post"> & { text: string };

/**
 * hub/language.Issue: a step the hub dropped (path "steps[i]..."), or a
 * problem with the answer as a whole (path "" or "steps"). text is what the
 * model wrote for that step, shortened.
 */
export type DraftIssue = Schema<"LanguageIssue">;

/** hub/api groundingJSON: whether the draft was checked against a live page, and why not; elements counts those the model was shown. */
export type Grounding = Schema<"Grounding">;

/**
 * protocol.TargetCheck: found when a locator of the step's target matched
 * exactly one element of the start page; matches is how many elements the
 * first matching locator found (0: none did).
 */
export type TargetCheck = Schema<"TargetCheck">;

/** hub/api generateResponse: only valid steps; what was dropped is in issues. */
export type Draft = Omit<Schema<"GenerateResponse">, "steps"> & { steps: Step[] };

/**
 * generateSteps asks the hub's language model for steps. Errors: 503
 * language_model_not_configured, 502 language_model_failed, 429
 * rate_limited (with Retry-After), 422 with issues for a bad request.
 */
export function generateSteps(projectId: string, body: DraftRequest, signal?: AbortSignal): Promise<Draft> {
  return post<Draft>("/api/language/generate", body, inProject(projectId, { signal }));
}

/** hub/api exampleJSON: a request and the steps it should give, kept to guide later drafts. */
export type LearnedExample = Omit<Schema<"Example">, "steps"> & { steps: Step[] };

/** POST /api/language/examples body. */
export type NewExample = Omit<Body<"/api/language/examples", "post">, "steps"> & { steps: Step[] };

export const languageKeys = {
  examples: (projectId: string) => ["languageExamples", projectId] as const,
};

export async function listExamples(projectId: string): Promise<LearnedExample[]> {
  return (await get<{ examples: LearnedExample[] }>("/api/language/examples", inProject(projectId))).examples;
}

/** addExample keeps text and steps; 409 too_many_examples when the project has its maximum. */
export function addExample(projectId: string, body: NewExample): Promise<LearnedExample> {
  return post<LearnedExample>("/api/language/examples", body, inProject(projectId));
}

/** deleteExample: its author may, and Test Developers and up; others get 403. */
export async function deleteExample(id: string): Promise<void> {
  await del(`/api/language/examples/${encodeURIComponent(id)}`, recordCall);
}
