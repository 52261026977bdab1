// The signed-in frame: navigation, the organization and project switcher,
// the "agent needed" banner and the user menu around every page.
import { useEffect, useRef, useState, type FormEvent } from "react";
import { NavLink, Navigate, Outlet, useLocation, useNavigate } from "react-router";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { post, type Organization, type Project } from "../api";
import { useContextQuery, useSession, useSessionExpiry, useWorkspace, WorkspaceProvider } from "../session";
import { AgentBanner } from "../pages/agents/AgentBanner";
import { mayManageWebhooks } from "../api/webhooks";
import { ErrorBox, FormActions, Loading, Modal } from "./ui";

/**
 * NavMenu groups links of the top navigation under one button (Setup:
 * environments, applications, webhooks; Library: what tests are built
 * from), so the bar stays one line; it closes on a pick, a click elsewhere
 * or Escape.
 */
export function NavMenu({ label, links }: { label: string; links: [string, string][] }) {
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const active = links.some(([to]) => location.pathname === to || location.pathname.startsWith(`${to}/`));
  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const esc = (e: KeyboardEvent) => {
      if (e.key === "Escape") setOpen(false);
    };
    document.addEventListener("mousedown", away);
    document.addEventListener("keydown", esc);
    return () => {
      document.removeEventListener("mousedown", away);
      document.removeEventListener("keydown", esc);
    };
  }, [open]);
  return (
    <div className="nav-menu" ref={ref}>
      <button type="button" className={active ? "active" : undefined} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {label}
        <span aria-hidden="true"> ▾</span>
      </button>
      {open && (
        <div className="nav-menu-list">
          {links.map(([to, text]) => (
            <NavLink key={to} to={to}>
              {text}
            </NavLink>
          ))}
        </div>
      )}
    </div>
  );
}

/** RequireAuth sends a visitor without a session to sign-in, then back here. */
export function RequireAuth() {
  useSessionExpiry();
  const session = useSession();
  const location = useLocation();
  const ctx = useContextQuery(!!session.data);
  if (session.isPending) return <Loading label="Checking your session" />;
  if (session.isError) return <ErrorBox error={session.error} />;
  if (!session.data) {
    const next = location.pathname + location.search;
    return <Navigate to={`/login?next=${encodeURIComponent(next)}`} replace />;
  }
  if (ctx.isPending) return <Loading label="Loading your projects" />;
  if (ctx.isError) return <ErrorBox error={ctx.error} />;
  return (
    <WorkspaceProvider context={ctx.data}>
      <Outlet />
    </WorkspaceProvider>
  );
}

/** RequireProject shows how to get a project when the caller has none. */
export function RequireProject() {
  const ws = useWorkspace();
  if (ws.project) return <Outlet />;
  return <NoProject />;
}

function NoProject() {
  const ws = useWorkspace();
  const [creating, setCreating] = useState<"org" | "project" | null>(null);
  const adminOrg = ws.organizations.find((o) => o.role === "Admin");
  return (
    <section className="onboarding">
      <h1>Welcome, {ws.user.name}</h1>
      {ws.organizations.length === 0 ? (
        <p>
          Tests, runs and environments live in a project, and projects belong to an organization. Create your organization to begin, or ask
          an Admin of an existing one to invite you with the email <strong>{ws.user.email}</strong>.
        </p>
      ) : (
        <p>You belong to {ws.organizations.map((o) => o.name).join(", ")}, but to no project yet.</p>
      )}
      <div className="row">
        {ws.organizations.length === 0 && (
          <button className="primary" onClick={() => setCreating("org")}>
            Create an organization
          </button>
        )}
        {adminOrg && (
          <button className="primary" onClick={() => setCreating("project")}>
            Create a project in {adminOrg.name}
          </button>
        )}
      </div>
      {creating && <CreateDialog kind={creating} org={adminOrg ?? null} onClose={() => setCreating(null)} />}
    </section>
  );
}

/** CreateDialog creates an organization (and then its first project) or a project. */
export function CreateDialog({ kind, org, onClose }: { kind: "org" | "project"; org: Organization | null; onClose: () => void }) {
  const ws = useWorkspace();
  const qc = useQueryClient();
  const [orgName, setOrgName] = useState("");
  const [projectName, setProjectName] = useState("");
  const create = useMutation({
    mutationFn: async () => {
      let orgId = org?.id ?? "";
      if (kind === "org") {
        const o = await post<Organization>("/api/orgs", { name: orgName.trim() });
        orgId = o.id;
      }
      return post<Project>(`/api/orgs/${orgId}/projects`, { name: projectName.trim() });
    },
    onSuccess: async (p) => {
      await qc.invalidateQueries({ queryKey: ["context"] });
      ws.chooseProject(p.id);
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <Modal title={kind === "org" ? "Create an organization" : `New project in ${org?.name ?? ""}`} onClose={onClose}>
      <form onSubmit={submit} className="form">
        {kind === "org" && (
          <label>
            Organization name
            <input required autoFocus value={orgName} onChange={(e) => setOrgName(e.target.value)} maxLength={200} />
          </label>
        )}
        <label>
          {kind === "org" ? "First project's name" : "Project name"}
          <input
            required
            autoFocus={kind === "project"}
            value={projectName}
            onChange={(e) => setProjectName(e.target.value)}
            maxLength={200}
          />
        </label>
        <ErrorBox error={create.error} />
        <FormActions onCancel={onClose} label="Create" busyLabel="Creating…" busy={create.isPending} />
      </form>
    </Modal>
  );
}

function ProjectSwitcher() {
  const ws = useWorkspace();
  const navigate = useNavigate();
  const [creating, setCreating] = useState<{ kind: "org" | "project"; org: Organization | null } | null>(null);
  const onChange = (value: string) => {
    if (value === "__new_org") setCreating({ kind: "org", org: null });
    else if (value.startsWith("__new_project:")) {
      const org = ws.organizations.find((o) => o.id === value.slice("__new_project:".length)) ?? null;
      setCreating({ kind: "project", org });
    } else if (value) {
      // The switch happens once the navigation does: a page with unsaved
      // work may hold it (and its data must stay until then).
      navigate("/", { state: { switchProject: value } });
    }
  };
  const location = useLocation();
  const switchTo = (location.state as { switchProject?: string } | null)?.switchProject;
  useEffect(() => {
    if (switchTo && switchTo !== ws.project?.id) ws.chooseProject(switchTo);
    // Once per navigation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.key]);
  return (
    <div className="switcher">
      <label htmlFor="project-switcher" className="sr-only">
        Project
      </label>
      <select id="project-switcher" value={ws.project?.id ?? ""} onChange={(e) => onChange(e.target.value)}>
        {!ws.project && <option value="">Choose a project</option>}
        {ws.organizations.map((o) => (
          <optgroup key={o.id} label={o.name}>
            {(o.projects ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {o.name} / {p.name}
              </option>
            ))}
            {o.role === "Admin" && <option value={`__new_project:${o.id}`}>+ New project in {o.name}…</option>}
          </optgroup>
        ))}
        <option value="__new_org">+ New organization…</option>
      </select>
      {ws.role && (
        <span className="role-chip" title="Your role in this project">
          {ws.role}
        </span>
      )}
      {creating && <CreateDialog kind={creating.kind} org={creating.org} onClose={() => setCreating(null)} />}
    </div>
  );
}

function UserMenu() {
  const ws = useWorkspace();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const logout = useMutation({
    mutationFn: () => post<null>("/api/auth/logout"),
    onSettled: () => {
      qc.clear();
      qc.setQueryData(["session"], null);
      navigate("/login");
    },
  });
  return (
    <div className="user-menu">
      <NavLink to="/profile" title={ws.user.email}>
        {ws.user.name}
      </NavLink>
      <button type="button" className="link-button" onClick={() => logout.mutate()} disabled={logout.isPending}>
        Sign out
      </button>
    </div>
  );
}

export function Layout() {
  const ws = useWorkspace();
  // An organization Admin, a project Admin (project members, renaming) and a
  // platform administrator (sign-in accounts) each have something to do there.
  const administers = ws.organizations.some((o) => o.role === "Admin") || ws.role === "Admin" || ws.user.platformAdmin;
  return (
    <div className="app">
      <header className="topbar">
        <NavLink to="/" className="brand">
          Test Hub
        </NavLink>
        <ProjectSwitcher />
        <nav aria-label="Main">
          <NavLink to="/" end>
            Dashboard
          </NavLink>
          <NavLink to="/tests">Tests</NavLink>
          <NavLink to="/runs">Runs</NavLink>
          <NavLink to="/schedules">Schedules</NavLink>
          <NavMenu
            label="Setup"
            links={[
              ["/environments", "Environments"],
              ["/applications", "Applications"],
              ...(mayManageWebhooks(ws.role) ? ([["/webhooks", "Webhooks"]] as [string, string][]) : []),
            ]}
          />
          <NavMenu
            label="Library"
            links={[
              ["/suites", "Suites"],
              ["/components", "Components"],
              ["/test-data", "Test data"],
              ["/data-pools", "Data pools"],
              ["/files", "Files"],
            ]}
          />
          <NavLink to="/agents">Agents</NavLink>
          {administers && <NavLink to="/admin">Admin</NavLink>}
        </nav>
        <UserMenu />
      </header>
      <AgentBanner />
      <main className="content">
        <Outlet />
      </main>
    </div>
  );
}
