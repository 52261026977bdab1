// Types of the hub's JSON API shared by every screen, generated from the
// hub's OpenAPI document (schema.d.ts, `npm run api-types`); areas with
// many types alias theirs in their own module beside this one (tests.ts,
// runs.ts, ...), all re-exported from index.ts.
import type { components, paths } from "./schema";

/** A component schema of the hub's OpenAPI document. */
export type Schema<K extends keyof components["schemas"]> = components["schemas"][K];

type JSONOf<R> = R extends { content: { "application/json": infer B } } ? B : never;

/** The JSON a route answers with a status (200 unless given). */
export type Answer<P extends keyof paths, M extends "get" | "post" | "put" | "delete", S extends number = 200> = paths[P][M] extends {
  responses: infer Rs;
}
  ? S extends keyof Rs
    ? JSONOf<Rs[S]>
    : never
  : never;

/** The JSON body an operation takes (its requestBody's application/json). */
export type Body<P extends keyof paths, M extends "post" | "put"> = paths[P][M] extends {
  requestBody?: infer B;
}
  ? JSONOf<NonNullable<B>>
  : never;

export type Role = Schema<"Project">["role"];
export const ROLES: Role[] = ["Tester", "Test Developer", "Test Manager", "Admin"];

export type User = Schema<"User">;
export type Project = Schema<"Project">;
export type Organization = Schema<"Org">;
/** GET /api/context */
export type Context = Schema<"Context">;
export type Ref = Schema<"Ref">;
/** GET /api/roles */
export type RolesMatrix = Schema<"Roles">;
