// Environments, secrets, applications, suites, agents and pairing, and
// administration (organizations, projects, members, sign-in accounts).
// Each type mirrors a response struct in hub/api (named in the comment).
import type { Answer, Body, Schema } from "./types";
import { del, get, inProject, post, put } from "./client";
import type { Role, RolesMatrix, User } from "./types";
import { ROLES } from "./types";
import type { Suite } from "./testsApi";

/**
 * Query keys of these areas. Each starts with the area's name, so
 * invalidating ["suites"] also refreshes another screen's suite list.
 */
export const keys = {
  environments: (projectId: string) => ["environments", projectId, "list"] as const,
  secrets: (projectId: string) => ["secrets", projectId, "list"] as const,
  applications: (projectId: string) => ["applications", projectId, "list"] as const,
  suites: (projectId: string) => ["suites", projectId, "list"] as const,
  agents: ["agent", "list"] as const,
  pendingAgents: ["agent", "pending"] as const,
  pairing: (code: string) => ["agent", "pairing", code] as const,
  roles: ["roles"] as const,
  orgMembers: (orgId: string) => ["orgMembers", orgId] as const,
  projectMembers: (projectId: string) => ["projectMembers", projectId] as const,
  accounts: ["accounts"] as const,
  storage: ["storage"] as const,
};

// ---- roles ---------------------------------------------------------------

/** atLeast reports whether role is min or higher (Tester < Test Developer < Test Manager < Admin). */
export function atLeast(role: Role | null | undefined, min: Role): boolean {
  if (!role) return false;
  const r = ROLES.indexOf(role);
  return r >= 0 && r >= ROLES.indexOf(min);
}

/** What a project role may do here, as hub/access.Matrix says. */
export const may = {
  /** access.ManageEnvironments: environments, secrets, applications. */
  manageEnvironments: (role: Role | null | undefined) => atLeast(role, "Test Manager"),
  /** access.EditSharedTests: suites, components, test data. */
  manageSuites: (role: Role | null | undefined) => atLeast(role, "Test Developer"),
  /** access.AdministerProject: members, settings, rename or delete the project. */
  administerProject: (role: Role | null | undefined) => atLeast(role, "Admin"),
};

export const getRoles = () => get<RolesMatrix>("/api/roles");

// ---- environments and secrets -------------------------------------------

/** hub/api/environments.go environmentJSON; secrets holds names only. */
export type Environment = Schema<"Environment">;

/**
 * POST /api/environments body. variables replaces the whole set; in secrets
 * a string sets that secret, null deletes it, and secrets not named stay as
 * they are. applicationId "" removes the application.
 */
export type EnvironmentSave = Omit<Body<"/api/environments", "post">, "variables"> & {
  /** Narrowed to required (optional in the document): the form always sends the whole set. */
  variables: Record<string, string>;
};

/** hub/api/secrets.go secretJSON: the inventory, never a value. */
export type SecretInfo = Schema<"Secret">;

export const listEnvironments = async (projectId: string) =>
  (await get<{ environments: Environment[] }>("/api/environments", inProject(projectId))).environments;
export const saveEnvironment = (projectId: string, body: EnvironmentSave) =>
  post<Environment>("/api/environments", body, inProject(projectId));
export const deleteEnvironment = (id: string) => del(`/api/environments/${encodeURIComponent(id)}`);
export const listSecrets = async (projectId: string) =>
  (await get<{ secrets: SecretInfo[] }>("/api/secrets", inProject(projectId))).secrets;
export const setSecret = (projectId: string, environmentId: string, name: string, value: string) =>
  post<SecretInfo>("/api/secrets", { environmentId, name, value }, inProject(projectId));

/** A variable or secret name: what ${name} and ${secrets.NAME} can refer to. */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

// ---- applications --------------------------------------------------------

/** hub/api/applications.go applicationJSON */
export type Application = Schema<"Application">;

/** POST /api/applications body. */
export type ApplicationSave = Body<"/api/applications", "post">;

export const listApplications = async (projectId: string) =>
  (await get<{ applications: Application[] }>("/api/applications", inProject(projectId))).applications;
export const saveApplication = (projectId: string, body: ApplicationSave) =>
  post<Application>("/api/applications", body, inProject(projectId));
export const deleteApplication = (id: string) => del(`/api/applications/${encodeURIComponent(id)}`);

// ---- suites --------------------------------------------------------------

// Suite and listSuites live in testsApi.ts (tests counts the tests the caller can see).

const suitePath = (name: string) => `/api/suites/${encodeURIComponent(name)}`;
export const addSuite = (projectId: string, name: string) => post<Suite>("/api/suites", { name }, inProject(projectId));
/** Renames a suite; moved counts its tests, each of which got a new version noting the rename. */
export const renameSuite = (projectId: string, from: string, to: string) =>
  put<Answer<"/api/suites/{name}", "put">>(suitePath(from), { name: to }, inProject(projectId));
export const deleteSuite = (projectId: string, name: string) => del(suitePath(name), inProject(projectId));

// ---- agents and pairing ---------------------------------------------------

/** hub/api/agents.go agentJSON; busy counts the runs it is executing. */
export type Agent = Schema<"Agent">;

/** GET /api/agent: needed is true while the caller has no connected agent. */
export type AgentList = Answer<"/api/agent", "get">;

/** hub/api/agents.go pairingJSON: the computer waiting on a code. */
export type Pairing = Schema<"Pairing">;

/** hub/api/agents.go pendingJSON: a computer waiting for approval from the caller's own address. */
export type PendingAgent = Schema<"Pending">;

export const listPendingAgents = () => get<{ pending: PendingAgent[] }>("/api/agent/pending");
export const listAgents = () => get<AgentList>("/api/agent");
export const disconnectAgent = (id: string) => del(`/api/agent/${encodeURIComponent(id)}`);
/** PUT /api/agent/:id: rename one of the caller's computers and set its labels (each [a-z0-9._-], at most 20). */
export const updateAgent = (id: string, body: Body<"/api/agent/{id}", "put">) => put<Agent>(`/api/agent/${encodeURIComponent(id)}`, body);
/**
 * POST /api/agent/:id/token: a connected computer gets a new token over its
 * connection and the old one stops working (409 agent_not_connected when
 * it is not connected).
 */
export const rotateAgentToken = (id: string) => post<null>(`/api/agent/${encodeURIComponent(id)}/token`);
const pairPath = (code: string) => `/api/agent/pair/${encodeURIComponent(code)}`;
export const getPairing = (code: string) => get<Pairing>(pairPath(code));
export const approvePairing = (code: string) => post<Agent>(pairPath(code), {});

/** normalizeCode writes a pairing code as the agent prints it: "k7q4mp" → "K7Q-4MP". */
export function normalizeCode(s: string): string {
  const bare = s.trim().toUpperCase().replace(/[\s-]/g, "");
  return bare.length === 6 ? `${bare.slice(0, 3)}-${bare.slice(3)}` : bare;
}

// ---- agent downloads -------------------------------------------------------

export type AgentOS = "linux" | "windows" | "macos";
export type AgentArch = "amd64" | "arm64";
export type AgentKind = "deb" | "tar.gz" | "exe" | "msi" | "zip";

/**
 * hub/downloads File: an agent installer this hub serves. size and sha256
 * are those of the bytes served (the package carries the hub's address).
 */
export type AgentDownload = Omit<Schema<"File">, "os" | "arch" | "kind"> & {
  os: AgentOS;
  arch: AgentArch;
  kind: AgentKind;
};

/** Query key of the downloads list (under "agent", refreshed with the agents). */
export const agentDownloadsKey = ["agent", "downloads"] as const;

/**
 * hub/downloads SigningCertificate: the development certificate the Windows
 * installer is signed with (null when a real one signs it, or none is built).
 */
export type SigningCertificate = Schema<"SigningCertificate">;

/** GET /api/agent/download: sorted by OS and architecture, the preferred kind first. */
export const listAgentDownloads = () =>
  get<{ downloads: AgentDownload[]; signingCertificate: SigningCertificate | null }>("/api/agent/download");

/** The address that serves the development signing certificate as an attachment. */
export const agentCertificateHref = "/api/agent/download/certificate";

/** The address that serves one download as an attachment (a plain link: the browser sends the session cookie). */
export function agentDownloadHref(d: Pick<AgentDownload, "os" | "arch" | "kind">): string {
  return `/api/agent/download?${new URLSearchParams({ os: d.os, arch: d.arch, kind: d.kind })}`;
}

// ---- organizations, projects, members, accounts ---------------------------

/** hub/api/orgs.go memberJSON */
export type OrgMember = Schema<"Member">;

/** hub/api/projects.go projectMemberJSON: projectRole null means the organization role applies. */
export type ProjectMember = Schema<"ProjectMember">;

const orgPath = (id: string) => `/api/orgs/${encodeURIComponent(id)}`;
const projectPath = (id: string) => `/api/projects/${encodeURIComponent(id)}`;

export const renameOrg = (id: string, name: string) => put<Schema<"Org">>(orgPath(id), { name });
export const listOrgMembers = async (orgId: string) => (await get<{ members: OrgMember[] }>(`${orgPath(orgId)}/members`)).members;
/** Invites an existing account; an email without an account is refused with 422 (the person registers first). */
export const inviteOrgMember = (orgId: string, email: string, role: Role) => post<OrgMember>(`${orgPath(orgId)}/members`, { email, role });
export const setOrgMemberRole = (orgId: string, userId: string, role: Role) =>
  put<OrgMember>(`${orgPath(orgId)}/members/${encodeURIComponent(userId)}`, { role });
export const removeOrgMember = (orgId: string, userId: string) => del(`${orgPath(orgId)}/members/${encodeURIComponent(userId)}`);

export const renameProject = (id: string, name: string) => put<Schema<"Project">>(projectPath(id), { name });
export const deleteProject = (id: string) => del(projectPath(id));
export const listProjectMembers = async (projectId: string) =>
  (await get<{ members: ProjectMember[] }>(`${projectPath(projectId)}/members`)).members;
export const setProjectRole = (projectId: string, userId: string, role: Role) =>
  put<ProjectMember>(`${projectPath(projectId)}/members/${encodeURIComponent(userId)}`, { role });
/** Removes the project role: the member's organization role applies again. */
export const removeProjectRole = (projectId: string, userId: string) =>
  del(`${projectPath(projectId)}/members/${encodeURIComponent(userId)}`);

/**
 * Sign-in accounts (platform administrators only): POST /api/members body,
 * narrowed to every field required (all optional in the document's
 * AccountInput; the hub answers 422 without them).
 */
export type NewAccount = Required<Body<"/api/members", "post">>;
export const listAccounts = async () => (await get<{ members: User[] }>("/api/members")).members;
export const createAccount = (body: NewAccount) => post<User>("/api/members", body);
export const deleteAccount = (id: string) => del(`/api/members/${encodeURIComponent(id)}`);

/**
 * Storage used per project (platform administrators only; hub/api/storage.go
 * projectStorageJSON): runs, pruned runs, bytes of artifacts, traces and
 * files, the largest project first. A pruned run counts no bytes.
 */
export type ProjectStorage = Schema<"ProjectStorage">;
export const getStorage = async () => (await get<Schema<"Storage">>("/api/storage")).projects;
