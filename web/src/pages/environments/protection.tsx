// Protected environments (hub/api/protected.go): their secrets go only to
// runs of Ready tests started by a Test Manager or Admin. The hub decides
// (403 environment_protected, and a test's can.runProtected); these pieces
// say so in the environment list, the environment form and the run dialog.
import type { Role, Test } from "../../api";

export const PROTECTED_RULE = "Secrets are sent only to runs of Ready tests started by a Test Manager or Admin.";

export function ProtectedBadge() {
  return (
    <span className="badge badge-protected" title={PROTECTED_RULE}>
      Protected
    </span>
  );
}

/**
 * protectedRefusal says why the caller may not run the test against the
 * protected environment envName, or null when they may. role is the
 * caller's role in the test's project, when known.
 */
export function protectedRefusal(envName: string, test: Pick<Test, "status" | "can">, role: Role | null): string | null {
  if (test.can.runProtected) return null;
  if (test.status !== "Ready") {
    return `${envName} is protected: its secrets go only to runs of Ready tests, and this test is ${test.status}. Choose another environment, or have the test marked Ready first.`;
  }
  const yours = role ? `; your role in this project is ${role}` : "";
  return `${envName} is protected: its secrets go only to runs started by a Test Manager or Admin${yours}. Choose another environment, or ask one of them to run the test.`;
}
