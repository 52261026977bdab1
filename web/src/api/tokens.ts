// API tokens (GET/POST /api/tokens, DELETE /api/tokens/:id): personal
// credentials for CI and scripts, sent as "Authorization: Bearer tat_...".
// The token text comes back once, from create; the list never holds it.
import { del, get, post } from "./client";
import type { Role } from "./types";

/** hub/api/tokens.go tokenJSON */
export interface ApiToken {
  id: string;
  name: string;
  /** null: every project of the user */
  projectId: string | null;
  projectName: string | null;
  /** null: the user's own role, whatever it is when the token is used */
  role: Role | null;
  expiresAt: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  lastUsedFrom: string | null;
  revokedAt?: string | null;
  expired: boolean;
}

/** The answer to create: the token itself, shown once. */
export interface CreatedApiToken extends ApiToken {
  token: string;
}

export interface NewApiToken {
  name: string;
  projectId?: string;
  role?: Role;
  expiresAt?: string;
}

export const tokenKeys = { list: ["tokens"] as const };

export const listApiTokens = () => get<{ tokens: ApiToken[] }>("/api/tokens");
export const createApiToken = (t: NewApiToken) => post<CreatedApiToken>("/api/tokens", t);
export const revokeApiToken = (id: string) => del(`/api/tokens/${encodeURIComponent(id)}`);
