// The hub's refusals of member and account changes, said in words that name
// the person and what to do next.
import { ApiError } from "../../api";

/** explain rewrites known conflict codes; other errors pass through unchanged. */
export function explain(err: unknown, who?: string): unknown {
  if (!(err instanceof ApiError)) return err;
  const name = who ?? "This member";
  let message: string | null = null;
  switch (err.code) {
    case "last_admin":
      message = err.message.includes("platform administrator")
        ? "This is the last platform administrator: make another account platform administrator before deleting it."
        : err.message.includes("only Admin of organization")
          ? `${capital(err.message)}.`
          : `${name} is the organization's last Admin, and an organization needs at least one: make another member Admin first.`;
      break;
    case "org_admin":
      message = `${name} is an Admin of the organization, and so Admin in every project: change the organization role first.`;
      break;
    case "already_member":
      message = "This account is already a member of the organization.";
      break;
    case "email_taken":
      message = "An account with this email exists already.";
      break;
  }
  return message ? new ApiError(err.status, message, err.code, err.issues) : err;
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
