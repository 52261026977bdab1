// Components: the project's reusable groups of steps. Each has numbered
// versions; tests call one pinned to a version. Test Developers and up
// write them: from scratch here, or from a test's steps in the editor.
import { Link } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { componentKeys, listComponents, may } from "../../api";
import { useWorkspace } from "../../session";
import { PageHeader, When } from "../../components/ui";
import { ResourceTable } from "../../components/ResourceTable";
import "./components.css";

export function ComponentsPage() {
  const ws = useWorkspace();
  const projectId = ws.project?.id ?? "";
  const canManage = may.manageSuites(ws.role);
  const list = useQuery({ queryKey: componentKeys.list(projectId), queryFn: ({ signal }) => listComponents(projectId, signal) });
  return (
    <section className="components">
      <PageHeader
        title="Components"
        subtitle="Reusable groups of steps. A test calls one with a callComponent step pinned to a version; publishing a new version changes no test until it is upgraded."
      >
        {canManage && (
          <Link className="button primary" to="/components/new">
            New component
          </Link>
        )}
      </PageHeader>
      {!canManage && (
        <p className="notice">
          Test Developers, Test Managers and Admins write components; your role in this project is {ws.role ?? "none"}.
        </p>
      )}
      <ResourceTable
        query={list}
        className="table cmp-table"
        rowKey={(c) => c.id}
        loadingLabel="Loading components"
        errorTitle="Components could not be loaded"
        empty={
          <>
            No components yet.
            {canManage ? " Create one here, or select steps of a test in the editor and choose Make component." : ""}
          </>
        }
        columns={[
          { header: "Name", cell: (c) => <Link to={`/components/${c.id}`}>{c.name}</Link> },
          { header: "Latest version", className: "mono", cell: (c) => `v${c.latestVersion}` },
          {
            header: "Description",
            className: "cmp-description",
            cell: (c) => c.description || <span className="muted">—</span>,
          },
          {
            header: "Used by",
            headerClassName: "num",
            className: "num",
            cell: (c) => (c.usages === 0 ? <span className="muted">no test</span> : `${c.usages} test${c.usages === 1 ? "" : "s"}`),
          },
          { header: "Updated", cell: (c) => <When at={c.updatedAt} /> },
        ]}
      />
    </section>
  );
}
