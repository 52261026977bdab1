// Validation issues of a 422 answer, shown beside the field they name or,
// for the rest, in one list under the form.
import { ApiError, type Issue } from "../../api";
import { ErrorBox } from "../../components/ui";

export function issuesOf(err: unknown): Issue[] {
  return err instanceof ApiError ? err.issues : [];
}

export function fieldIssue(err: unknown, field: string): string | undefined {
  return issuesOf(err).find((i) => i.path === field)?.message;
}

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <span className="field-error" id={id}>
      {message}
    </span>
  ) : null;
}

/**
 * FormError shows what the fields beside them do not: a non-422 failure in
 * an error box, and the issues of a 422 that name none of `shown`.
 */
export function FormError({ error, shown }: { error: unknown; shown: string[] }) {
  if (!error) return null;
  if (error instanceof ApiError && error.status === 422 && error.issues.length > 0) {
    const rest = error.issues.filter((i) => !shown.includes(i.path));
    if (rest.length === 0) return null;
    return (
      <div className="error-box" role="alert">
        {error.message}
        <ul className="issue-list">
          {rest.map((i, n) => (
            <li key={n}>
              {i.path && <code>{i.path}</code>} {i.message}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  return <ErrorBox error={error} />;
}
