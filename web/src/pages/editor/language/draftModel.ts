// How the Draft panel reads a draft: each proposed step's mark (its target
// found on the start page, ambiguous, not found, or not checked and why),
// the dropped steps in words, and a failure of the language model in words.
// Pure, so it is tested on its own.
import { ApiError, describeError } from "../../../api";
import type { Draft, DraftIssue } from "../../../api/language";
import type { Step } from "../../../api/tests";

export type MarkKind = "verified" | "ambiguous" | "missing" | "unverified" | "none";

export interface Mark {
  kind: MarkKind;
  /** A few words shown beside the step. */
  label: string;
  /** Why, in a sentence (a tooltip and the accessible description). */
  detail: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** stepMark says whether a drafted step's target was found on the page the draft was checked on. */
export function stepMark(step: Step, draft: Draft): Mark {
  if (!step.target || step.target.locators.length === 0) {
    return { kind: "none", label: "No element", detail: "This step acts on no element of the page." };
  }
  const g = draft.grounding;
  if (!g.verified) {
    return { kind: "unverified", label: "Unverified", detail: g.reason || "The draft was not checked against a page." };
  }
  const c = draft.checks.find((x) => x.stepId === step.id);
  if (!c) return { kind: "unverified", label: "Not checked", detail: "The hub did not check this step's target." };
  if (c.found) {
    return { kind: "verified", label: `Verified: found ${plural(c.matches || 1, "element")}`, detail: `Found on ${g.url ?? "the page"}.` };
  }
  if (c.matches > 1) {
    return {
      kind: "ambiguous",
      label: `Ambiguous: ${c.matches} elements match`,
      detail: c.error || `${c.matches} elements match: pick the element to make the locator unique.`,
    };
  }
  return {
    kind: "missing",
    label: "Not found",
    detail: `${c.error || "No element on this page matches"}${g.url ? ` (${g.url})` : ""}. It may be on a later page; check it before running.`,
  };
}

/** markCounts sums the marks of a draft's steps, for the summary line. */
export function markCounts(draft: Draft): Record<MarkKind, number> {
  const out: Record<MarkKind, number> = { verified: 0, ambiguous: 0, missing: 0, unverified: 0, none: 0 };
  for (const s of draft.steps) out[stepMark(s, draft).kind]++;
  return out;
}

/** issueWhere names what an issue is about: "Proposed step 3" for steps[2]..., "The answer" otherwise. */
export function issueWhere(issue: DraftIssue): string {
  const m = /^steps\[(\d+)\](.*)$/.exec(issue.path);
  if (!m) return "The answer";
  const field = m[2].replace(/^\./, "");
  return `Proposed step ${Number(m[1]) + 1}${field ? ` (${field})` : ""}`;
}

/** groupIssues puts a dropped step's issues together, in the model's order. */
export function groupIssues(issues: DraftIssue[]): { where: string; messages: string[]; text?: string }[] {
  const out: { key: string; where: string; messages: string[]; text?: string }[] = [];
  for (const i of issues) {
    const key = /^steps\[\d+\]/.exec(i.path)?.[0] ?? i.path;
    const where = key === i.path ? issueWhere(i) : issueWhere({ ...i, path: key });
    const field = i.path.slice(key.length).replace(/^\./, "");
    const message = field ? `${field}: ${i.message}` : i.message;
    const found = out.find((g) => g.key === key);
    if (found) found.messages.push(message);
    else out.push({ key, where, messages: [message], text: i.text });
  }
  return out.map(({ where, messages, text }) => ({ where, messages, text }));
}

/** notConfigured tells the hub's "no language model" answer from other failures. */
export function notConfigured(err: unknown): boolean {
  return err instanceof ApiError && err.code === "language_model_not_configured";
}

const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** failureText is a failed draft in a tester's words, with the hub's own message. */
export function failureText(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 422 && err.issues.length > 0)
      return err.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
    // The hub's message says what failed and what to check (the key, the address, the model).
    if (err.code === "language_model_failed") return `Drafting failed: ${err.message}.`;
    // The hub's message says how long to wait.
    if (err.status === 429) return `${sentence(err.message)}.`;
  }
  return describeError(err);
}
