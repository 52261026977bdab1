// How the editor explains what went wrong: issues beside the field they
// name, and a refused save or action (409, 412, 422) in words with the way out.
import { useState } from "react";
import { ApiError, type Issue } from "../../api";
import { ErrorBox } from "../../components/ui";
import type { FieldIssue } from "./documentModel";

/** FieldErrors lists the issues of one field; id lets the input point at them with aria-describedby. */
export function FieldErrors({ issues, id }: { issues?: FieldIssue[]; id?: string }) {
  if (!issues || issues.length === 0) return null;
  return (
    <span className="field-error" id={id}>
      {issues.map((i, n) => (
        <span key={n} className="issue-line">
          {i.message}
        </span>
      ))}
    </span>
  );
}

/** describedBy joins the ids of a field's hint and errors, leaving out what is absent. */
export function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  const s = ids.filter(Boolean).join(" ");
  return s || undefined;
}

const STALE_MESSAGE = "Someone saved a newer version of this test. Reload to see it (your changes will be lost) or copy your JSON first.";
const FROZEN_MESSAGE = "This test is Ready; start a new revision to change it.";
const DEPRECATED_MESSAGE = "This test is Deprecated and read-only; duplicate it to work from a copy.";

function conflictMessage(err: ApiError): string {
  if (err.code === "frozen") return FROZEN_MESSAGE;
  if (err.code === "deprecated") return DEPRECATED_MESSAGE;
  return err.message.charAt(0).toUpperCase() + err.message.slice(1) + ".";
}

/**
 * ActionProblem explains a refused save or lifecycle action. A 412 or 409
 * means the page shows an outdated test, so it offers Reload (and, for
 * 412, copying the unsaved document first).
 */
export function ActionProblem({ error, onReload, copyText }: { error: unknown; onReload: () => void; copyText: () => string }) {
  const [copied, setCopied] = useState(false);
  if (!error) return null;
  if (!(error instanceof ApiError) || (error.status !== 409 && error.status !== 412 && error.status !== 422)) {
    return <ErrorBox error={error} />;
  }
  if (error.status === 422) {
    return (
      <div className="error-box" role="alert">
        The test has problems; each is shown beside the field or step it names.
      </div>
    );
  }
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(copyText());
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="error-box editor-problem" role="alert">
      <p>{error.status === 412 ? STALE_MESSAGE : conflictMessage(error)}</p>
      <div className="row">
        <button type="button" onClick={onReload}>
          Reload
        </button>
        {error.status === 412 && (
          <button type="button" onClick={copy}>
            {copied ? "Copied" : "Copy JSON"}
          </button>
        )}
      </div>
    </div>
  );
}

/** TopIssues lists the issues that name nothing shown on the page. */
export function TopIssues({ issues }: { issues: Issue[] }) {
  if (issues.length === 0) return null;
  return (
    <ul className="issue-list" aria-label="Problems with the test">
      {issues.map((i, n) => (
        <li key={n}>
          {i.path && <code>{i.path}</code>} {i.message}
        </li>
      ))}
    </ul>
  );
}
