import { act, render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { keys, listEnvironments, type Context } from "./api";
import { useFollowProject, useProjectId, useWorkspace, WorkspaceProvider, type Workspace } from "./session";
import { fakeFetch } from "./test/render";

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
  vi.unstubAllGlobals();
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
  it("makes the project of the record shown the current one", () => {
    localStorage.setItem("ta.lastProject", "prj_1");
    renderRecord(new QueryClient(), "prj_2");
    expect(screen.getByText("Blog")).toBeInTheDocument();
    expect(ws?.project?.id).toBe("prj_2");
    expect(localStorage.getItem("ta.lastProject")).toBe("prj_2");
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
  it("falls back from a project the caller lost to one they have, and remembers the one shown instead", () => {
    localStorage.setItem("ta.lastProject", "prj_gone");
    renderRecord(new QueryClient(), undefined);
    expect(screen.getByText("Shop")).toBeInTheDocument();
    expect(ws?.project?.id).toBe("prj_1");
    expect(localStorage.getItem("ta.lastProject")).toBe("prj_1");
  });

  it("shows each project's own list after a switch, nothing of the other project, with nothing purged", async () => {
    localStorage.setItem("ta.lastProject", "prj_1");
    const { calls } = fakeFetch({
      "GET /api/environments": (call) => ({
        body: { environments: [{ id: `env_${call.headers["x-project-id"]}`, name: `Staging of ${call.headers["x-project-id"]}` }] },
      }),
    });
    function EnvironmentNames() {
      ws = useWorkspace();
      const projectId = useProjectId();
      const envs = useQuery({ queryKey: keys.environments(projectId), queryFn: () => listEnvironments(projectId) });
      return <p>{envs.data ? envs.data.map((e) => e.name).join(", ") : "loading"}</p>;
    }
    const client = new QueryClient();
    render(
      <QueryClientProvider client={client}>
        <WorkspaceProvider context={context}>
          <EnvironmentNames />
        </WorkspaceProvider>
      </QueryClientProvider>,
    );
    expect(await screen.findByText("Staging of prj_1")).toBeInTheDocument();
    act(() => ws?.chooseProject("prj_2"));
    // Never the first project's list while the second one's loads.
    expect(screen.queryByText("Staging of prj_1")).not.toBeInTheDocument();
    expect(await screen.findByText("Staging of prj_2")).toBeInTheDocument();
    expect(calls.map((c) => c.headers["x-project-id"])).toEqual(["prj_1", "prj_2"]);
    // Each project's list is cached under its own key: switching back shows the first one's own list.
    expect(client.getQueryData(keys.environments("prj_1"))).toEqual([{ id: "env_prj_1", name: "Staging of prj_1" }]);
    act(() => ws?.chooseProject("prj_1"));
    expect(screen.getByText("Staging of prj_1")).toBeInTheDocument();
    expect(screen.queryByText("Staging of prj_2")).not.toBeInTheDocument();
  });
});
