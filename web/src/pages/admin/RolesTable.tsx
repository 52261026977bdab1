// The role to permission matrix as the hub serves it (GET /api/roles).
import { useQuery } from "@tanstack/react-query";
import { getRoles, keys } from "../../api/admin";
import { ErrorBox, Loading } from "../../components/ui";

export function RolesTable() {
  const roles = useQuery({ queryKey: keys.roles, queryFn: getRoles, staleTime: Infinity });
  if (roles.isPending) return <Loading label="Loading the roles" />;
  if (roles.isError) return <ErrorBox error={roles.error} title="The roles could not be loaded" />;
  const { roles: names, permissions } = roles.data;
  return (
    <div className="admin-section">
      <h2>Roles and permissions</h2>
      <p className="hint">
        The same four roles serve organizations and projects, each including what the ones before it may do. Platform administration
        (sign-in accounts) is separate from these roles.
      </p>
      <table className="table roles-table">
        <thead>
          <tr>
            <th>Permission</th>
            {names.map((r) => (
              <th key={r} className="role-col">
                {r}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {permissions.map((p) => (
            <tr key={p.id}>
              <td>{p.description}</td>
              {names.map((r) => (
                <td key={r} className="role-col">
                  {p.roles.includes(r) ? (
                    <span aria-label="yes" className="yes">
                      ✓
                    </span>
                  ) : (
                    <span aria-label="no" className="muted">
                      —
                    </span>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
