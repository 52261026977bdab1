// Types of the hub's JSON API shared by every screen. Each mirrors a
// response struct in hub/api (named in the comment); areas with many types
// keep them in their own module beside this one (tests.ts, runs.ts, ...),
// all re-exported from index.ts.

export type Role = "Tester" | "Test Developer" | "Test Manager" | "Admin";
export const ROLES: Role[] = ["Tester", "Test Developer", "Test Manager", "Admin"];

/** hub/api/auth.go userJSON */
export interface User {
  id: string;
  name: string;
  email: string;
  platformAdmin: boolean;
  createdAt: string;
}

/** hub/api/context.go projectJSON */
export interface Project {
  id: string;
  orgId: string;
  name: string;
  role: Role;
}

/** hub/api/context.go orgJSON */
export interface Organization {
  id: string;
  name: string;
  role: Role;
  projects?: Project[];
}

/** GET /api/context */
export interface Context {
  user: User;
  organizations: Organization[];
}

/** hub/api/tests.go refJSON */
export interface Ref {
  id: string;
  name: string;
}

/** GET /api/roles */
export interface RolesMatrix {
  roles: Role[];
  permissions: { id: string; description: string; roles: Role[] }[];
  matrix: Record<Role, string[]>;
}
