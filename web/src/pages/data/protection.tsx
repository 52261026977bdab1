// Protected test data (hub/api/protected.go): a run on a protected
// environment uses only protected data sets and pools, and only Test
// Managers and Admins mark, change, reset or delete a protected one (403
// data_protected; a run with unprotected data: 403 data_unprotected). These
// pieces say so in the lists and the editors.
import type { Role } from "../../api";
import { may } from "../../api/admin";

export const DATA_PROTECTED_RULE =
  "Runs on protected environments use only protected data, which only Test Managers and Admins may change, reset or delete.";

/** mayProtect: the caller may mark data protected and change protected data (access.ManageEnvironments). */
export const mayProtect = (role: Role | null | undefined) => may.manageEnvironments(role);

export function DataProtectedBadge() {
  return (
    <span className="badge badge-protected" title={DATA_PROTECTED_RULE}>
      <span aria-hidden="true">🔒 </span>Protected
    </span>
  );
}

/** ProtectedField is the editors' "Protected" checkbox: only Test Managers and Admins may change it. */
export function ProtectedField({
  id,
  checked,
  onChange,
  role,
}: {
  id: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  role: Role | null | undefined;
}) {
  const can = mayProtect(role);
  return (
    <div className="field">
      <label className="inline">
        <input
          type="checkbox"
          checked={checked}
          disabled={!can}
          onChange={(e) => onChange(e.target.checked)}
          aria-describedby={`${id}-hint`}
        />
        Protected
      </label>
      <span className="hint" id={`${id}-hint`}>
        {DATA_PROTECTED_RULE}
        {!can && " Only a Test Manager or Admin may change this setting."}
      </span>
    </div>
  );
}

/** ProtectedNotice tells someone who may change test data that this protected record is read-only for them. */
export function ProtectedNotice({ what, role }: { what: string; role: Role | null | undefined }) {
  return (
    <p className="notice">
      This {what} is protected: runs on protected environments use it, so only Test Managers and Admins change it; your role in this project
      is {role ?? "none"}.
    </p>
  );
}
