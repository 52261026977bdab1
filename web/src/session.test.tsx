import { act, render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { getCurrentProject, setCurrentProject, type Context } from "./api";
import { useFollowProject, useWorkspace, WorkspaceProvider, type Workspace } from "./session";

const context: Context = {
  user: { id: "usr_me", name: "Mia Tester", email: "mia@example.com", platformAdmin: false, createdAt: "2026-11-01T10:00:00Z" },
  organizations: [
    {
      id: "org_1",
      name: "Acme",
      role: "Admin",
      projects: [
        { id: "prj_1", orgId: "org_1", name: "Shop", role: "Admin" },
        { id: "prj_2", orgId: "org_1", name: "Blog", role: "Tester" },
      ],
    },
  ],
};

afterEach(() => {
  localStorage.clear();
  setCurrentProject(null);
});

let ws: Workspace | null = null;

function RecordPage({ projectId }: { projectId: string | undefined }) {
  useFollowProject(projectId);
  ws = useWorkspace();
  return <p>{ws.project?.name}</p>;
}

function renderRecord(client: QueryClient, projectId: string | undefined) {
  return render(
    <QueryClientProvider client={client}>
      <WorkspaceProvider context={context}>
        <RecordPage projectId={projectId} />
      </WorkspaceProvider>
    </QueryClientProvider>,
  );
}

describe("useFollowProject", () => {
  it("makes the project of the record shown the current one, and drops what other pages cached", () => {
    localStorage.setItem("ta.lastProject", "prj_1");
    const client = new QueryClient();
    client.setQueryData(["environments", "list"], [{ id: "env_shop" }]);
    renderRecord(client, "prj_2");
    expect(screen.getByText("Blog")).toBeInTheDocument();
    expect(getCurrentProject()).toBe("prj_2");
    expect(localStorage.getItem("ta.lastProject")).toBe("prj_2");
    expect(client.getQueryData(["environments", "list"])).toBeUndefined();
  });

  it("does not undo a project chosen afterwards, nor follow a project the caller lacks", () => {
    localStorage.setItem("ta.lastProject", "prj_1");
    const { rerender } = renderRecord(new QueryClient(), "prj_2");
    act(() => ws?.chooseProject("prj_1"));
    expect(screen.getByText("Shop")).toBeInTheDocument();
    const client = new QueryClient();
    rerender(
      <QueryClientProvider client={client}>
        <WorkspaceProvider context={context}>
          <RecordPage projectId="prj_elsewhere" />
        </WorkspaceProvider>
      </QueryClientProvider>,
    );
    expect(screen.getByText("Shop")).toBeInTheDocument();
  });
});

describe("WorkspaceProvider", () => {
  it("drops what was cached for a project the caller lost, and remembers the one shown instead", () => {
    localStorage.setItem("ta.lastProject", "prj_gone");
    const client = new QueryClient();
    client.setQueryData(["tests", "list"], [{ id: "tc_of_the_lost_project" }]);
    client.setQueryData(["context"], context);
    renderRecord(client, undefined);
    expect(screen.getByText("Shop")).toBeInTheDocument();
    expect(client.getQueryData(["tests", "list"])).toBeUndefined();
    expect(client.getQueryData(["context"])).toBe(context);
    expect(localStorage.getItem("ta.lastProject")).toBe("prj_1");
  });
});
