// The signed-in user and the current organization and project. The session
// comes from GET /api/auth/session, the organizations and projects from
// GET /api/context; the last chosen project is remembered in localStorage.
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { get, onUnauthorized, type Context, type Organization, type Project, type Role, type User } from "./api";

const LAST_PROJECT = "ta.lastProject";

export function useSession() {
  return useQuery({ queryKey: ["session"], queryFn: () => get<User | null>("/api/auth/session"), staleTime: 60_000 });
}

export interface Workspace {
  user: User;
  organizations: Organization[];
  org: Organization | null;
  project: Project | null;
  /** The caller's role in the current project, or null without one. */
  role: Role | null;
  chooseProject: (id: string) => void;
  /**
   * followProject makes the project of a record being shown (a test or run
   * opened from a link) the current one, when it is one of the caller's.
   */
  followProject: (id: string) => void;
}

const WorkspaceContext = createContext<Workspace | null>(null);

export function rememberedProject(): string | null {
  try {
    return localStorage.getItem(LAST_PROJECT);
  } catch {
    return null;
  }
}

export function rememberProject(id: string): void {
  try {
    localStorage.setItem(LAST_PROJECT, id);
  } catch {
    /* private mode: remembering is a convenience */
  }
}

/** pickProject chooses the remembered project when it still exists, else the first one. */
export function pickProject(orgs: Organization[], remembered: string | null): { org: Organization | null; project: Project | null } {
  let first: { org: Organization; project: Project } | null = null;
  for (const org of orgs) {
    for (const p of org.projects ?? []) {
      if (p.id === remembered) return { org, project: p };
      if (!first) first = { org, project: p };
    }
  }
  if (first) return first;
  return { org: orgs[0] ?? null, project: null };
}

export function useContextQuery(enabled = true) {
  return useQuery({ queryKey: ["context"], queryFn: () => get<Context>("/api/context"), enabled, staleTime: 30_000 });
}

export function WorkspaceProvider({ context, children }: { context: Context; children: ReactNode }) {
  const [selected, setSelected] = useState<string | null>(rememberedProject);
  const value = useMemo<Workspace>(() => {
    const { org, project } = pickProject(context.organizations, selected);
    return {
      user: context.user,
      organizations: context.organizations,
      org,
      project,
      role: project?.role ?? null,
      chooseProject: (id: string) => {
        rememberProject(id);
        setSelected(id);
      },
      followProject: (id: string) => {
        if (id === project?.id || !context.organizations.some((o) => (o.projects ?? []).some((p) => p.id === id))) return;
        rememberProject(id);
        setSelected(id);
      },
    };
  }, [context, selected]);
  const shown = value.project?.id ?? null;
  useEffect(() => {
    // The chosen project is gone (deleted, or the caller's access removed):
    // the workspace fell back to another one. What was cached for the old one
    // sits under its own project id in every query key, so none of it shows.
    if (selected && shown !== selected) {
      if (shown) rememberProject(shown);
      setSelected(shown);
    }
  }, [selected, shown]);
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}

/**
 * The id of the project the workspace shows ("" when there is none). Every
 * project-scoped call takes it (sent as x-project-id) and every
 * project-scoped query key holds it, so one project's data never shows in
 * another's.
 */
export function useProjectId(): string {
  return useWorkspace().project?.id ?? "";
}

export function useWorkspace(): Workspace {
  const ws = useContext(WorkspaceContext);
  if (!ws) throw new Error("useWorkspace outside WorkspaceProvider");
  return ws;
}

/**
 * useFollowProject switches to the project of the record a page shows, once
 * per project: a record page opened from a link to another of the caller's
 * projects then sits in that project (the switcher, the links to its lists),
 * and choosing another project on the page is not undone.
 */
export function useFollowProject(projectId: string | null | undefined): void {
  const ws = useWorkspace();
  const followed = useRef<string | null>(null);
  useEffect(() => {
    if (!projectId || followed.current === projectId) return;
    followed.current = projectId;
    ws.followProject(projectId);
  }, [projectId, ws]);
}

/** Drops the cached session when any call answers 401, so the app shows sign-in. */
export function useSessionExpiry() {
  const qc = useQueryClient();
  useEffect(
    () =>
      onUnauthorized(() => {
        qc.setQueryData(["session"], null);
      }),
    [qc],
  );
}

/** The workspace when inside one (sign-in pages have none). */
export function useOptionalWorkspace(): Workspace | null {
  return useContext(WorkspaceContext);
}
