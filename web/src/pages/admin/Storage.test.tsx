import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext } from "../../test/render";
import { AdminPage } from "./AdminPage";

afterEach(() => vi.unstubAllGlobals());

const shop = {
  projectId: "prj_1",
  projectName: "Shop",
  orgId: "org_1",
  orgName: "Acme",
  runs: 120,
  prunedRuns: 80,
  artifactBytes: 3 * 1024 * 1024,
  traceBytes: 512 * 1024,
  files: 2,
  fileBytes: 1024,
  totalBytes: 3 * 1024 * 1024 + 512 * 1024 + 1024,
};
const empty = {
  projectId: "prj_2",
  projectName: "Empty",
  orgId: "org_2",
  orgName: "Beta",
  runs: 0,
  prunedRuns: 0,
  artifactBytes: 0,
  traceBytes: 0,
  files: 0,
  fileBytes: 0,
  totalBytes: 0,
};

describe("AdminPage: storage", () => {
  it("shows each project's runs, artifact, trace and file bytes, and their sum", async () => {
    fakeFetch({ "GET /api/storage": { body: { projects: [shop, empty] } } });
    renderPage(<AdminPage />, { route: "/admin?tab=storage", path: "/admin", context: testContext("Tester", true) });
    const row = await screen.findByTestId("storage-prj_1");
    const cells = within(row)
      .getAllByRole("cell")
      .map((c) => c.textContent);
    expect(cells).toEqual(["Acme", "Shop", "120 (80 pruned)", "3.0 MB", "512 KB", "1.0 KB (2 files)", "3.5 MB"]);
    expect(within(screen.getByTestId("storage-prj_2")).getAllByRole("cell")[2]).toHaveTextContent(/^0$/);
    expect(screen.getByTestId("storage-total")).toHaveTextContent("3.5 MB");
  });

  it("is a tab of platform administrators only", async () => {
    const { calls } = fakeFetch({ "GET /api/orgs/org_1/members": { body: { members: [] } } });
    renderPage(<AdminPage />, { route: "/admin?tab=storage", path: "/admin", context: testContext("Admin", false) });
    expect(await screen.findByRole("tab", { name: "Organization members" })).toBeInTheDocument();
    expect(screen.queryByRole("tab", { name: "Storage" })).not.toBeInTheDocument();
    expect(calls.some((c) => c.path === "/api/storage")).toBe(false);
  });
});
