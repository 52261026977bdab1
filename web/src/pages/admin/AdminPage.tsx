// Administration: the current organization's members, the current
// project's members and roles and its learned examples (drafting from
// text), sign-in accounts (platform administrators), and the role matrix.
// Each section shows its controls only to whom the hub would allow them,
// and explains the rest.
import { useSearchParams } from "react-router";
import { useWorkspace } from "../../session";
import { PageHeader } from "../../components/ui";
import { OrgMembers } from "./OrgMembers";
import { ProjectMembers } from "./ProjectMembers";
import { Accounts } from "./Accounts";
import { RolesTable } from "./RolesTable";
import { LearnedExamples } from "./LearnedExamples";
import { Storage } from "./Storage";
import "./admin.css";

type Tab = "org" | "project" | "examples" | "accounts" | "storage" | "roles";

export function AdminPage() {
  const ws = useWorkspace();
  const [params, setParams] = useSearchParams();
  const isOrgAdmin = ws.org?.role === "Admin";
  const isPlatformAdmin = ws.user.platformAdmin;

  const tabs: { id: Tab; label: string }[] = [];
  if (ws.org) tabs.push({ id: "org", label: "Organization members" });
  if (ws.project) tabs.push({ id: "project", label: "Project members" });
  if (ws.project) tabs.push({ id: "examples", label: "Learned examples" });
  if (isPlatformAdmin) tabs.push({ id: "accounts", label: "Sign-in accounts" });
  if (isPlatformAdmin) tabs.push({ id: "storage", label: "Storage" });
  tabs.push({ id: "roles", label: "Roles and permissions" });

  const fallback: Tab = isOrgAdmin ? "org" : isPlatformAdmin ? "accounts" : ws.role === "Admin" ? "project" : "roles";
  const asked = params.get("tab") as Tab | null;
  const tab = tabs.some((t) => t.id === asked) ? (asked as Tab) : fallback;
  const choose = (id: Tab) => setParams({ tab: id }, { replace: true });

  return (
    <section className="admin">
      <PageHeader
        title="Administration"
        subtitle={ws.org ? `Organization ${ws.org.name}${ws.project ? `, project ${ws.project.name}` : ""}` : undefined}
      />
      {!isOrgAdmin && !isPlatformAdmin && <WhoCanDoWhat />}
      <div role="tablist" aria-label="Administration" className="admin-tabs">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`admin-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`admin-panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            className={tab === t.id ? "active" : ""}
            onClick={() => choose(t.id)}
            onKeyDown={(e) => {
              const i = tabs.findIndex((x) => x.id === t.id);
              if (e.key === "ArrowRight") choose(tabs[(i + 1) % tabs.length].id);
              if (e.key === "ArrowLeft") choose(tabs[(i - 1 + tabs.length) % tabs.length].id);
            }}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`admin-panel-${tab}`} aria-labelledby={`admin-tab-${tab}`} className="admin-panel">
        {tab === "org" && ws.org && <OrgMembers org={ws.org} />}
        {tab === "project" && ws.project && <ProjectMembers project={ws.project} />}
        {tab === "examples" && ws.project && <LearnedExamples project={ws.project} />}
        {tab === "accounts" && isPlatformAdmin && <Accounts />}
        {tab === "storage" && isPlatformAdmin && <Storage />}
        {tab === "roles" && <RolesTable />}
      </div>
    </section>
  );
}

/** WhoCanDoWhat tells a member without administration rights who has them. */
function WhoCanDoWhat() {
  const ws = useWorkspace();
  return (
    <div className="notice admin-explain">
      <p>
        <strong>Who can do what.</strong> An organization's Admins invite members, set their roles, and create, rename and delete its
        projects; they are Admin in every project of it. A project's Admins set project roles and rename or delete the project. Platform
        administrators manage sign-in accounts.
      </p>
      <p>
        {ws.org ? (
          <>
            Your role in {ws.org.name} is <strong>{ws.org.role}</strong>
            {ws.project && ws.role ? (
              <>
                {" "}
                and in project {ws.project.name} <strong>{ws.role}</strong>
              </>
            ) : null}
            . Ask an Admin of {ws.org.name} for anything more.
          </>
        ) : (
          "You belong to no organization yet: create one, or ask an organization's Admin to invite you."
        )}
      </p>
    </div>
  );
}
