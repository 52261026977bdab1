// API tokens (GET/POST /api/tokens, DELETE /api/tokens/:id): personal
// credentials for CI and scripts, sent as "Authorization: Bearer tat_...".
// The token text comes back once, from create; the list never holds it.
import { del, get, post } from "./client";
import type { Body, Role, Schema } from "./types";

/**
 * hub/api/tokens.go tokenJSON: projectId null means every project of the
 * user; role null means the user's own role, whatever it is when the token
 * is used.
 */
export type ApiToken = Schema<"Token">;

/** The answer to create: the token itself, shown once. */
export type CreatedApiToken = Schema<"TokenCreated">;

/**
 * POST /api/tokens body. Narrowed: the document's TokenInput has every
 * field optional and role a plain string; name is required (422 without)
 * and role is a project role.
 */
export type NewApiToken = Omit<Body<"/api/tokens", "post">, "name" | "role"> & { name: string; role?: Role };

export const tokenKeys = { list: ["tokens"] as const };

export const listApiTokens = () => get<{ tokens: ApiToken[] }>("/api/tokens");
export const createApiToken = (t: NewApiToken) => post<CreatedApiToken>("/api/tokens", t);
export const revokeApiToken = (id: string) => del(`/api/tokens/${encodeURIComponent(id)}`);
