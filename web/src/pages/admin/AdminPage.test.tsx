import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext } from "../../test/render";
import { AdminPage } from "./AdminPage";

afterEach(() => vi.unstubAllGlobals());

const me = { userId: "usr_me", name: "Mia Tester", email: "mia@example.com", role: "Admin" };
const bob = { userId: "usr_bob0000000000000000", name: "Bob", email: "bob@example.com", role: "Tester" };
const roles = {
  roles: ["Tester", "Test Developer", "Test Manager", "Admin"],
  permissions: [
    { id: "project.view", description: "See shared tests and their runs", roles: ["Tester", "Test Developer", "Test Manager", "Admin"] },
    { id: "environments.manage", description: "Manage environments, secrets and applications", roles: ["Test Manager", "Admin"] },
  ],
  matrix: {},
};

describe("AdminPage: organization members", () => {
  it("changes a member's role", async () => {
    const { calls } = fakeFetch({
      "GET /api/orgs/org_1/members": { body: { members: [me, bob] } },
      "PUT /api/orgs/org_1/members/usr_bob0000000000000000": { body: { ...bob, role: "Test Manager" } },
    });
    const user = userEvent.setup();
    renderPage(<AdminPage />, { route: "/admin", path: "/admin" });
    await user.selectOptions(await screen.findByLabelText("Role of Bob"), "Test Manager");
    await waitFor(() => expect(calls.find((c) => c.method === "PUT")).toBeDefined());
    const put = calls.find((c) => c.method === "PUT")!;
    expect(put.path).toBe("/api/orgs/org_1/members/usr_bob0000000000000000");
    expect(put.body).toEqual({ role: "Test Manager" });
    expect(await screen.findByText("Bob is now Test Manager in Acme.")).toBeInTheDocument();
  });

  it("says in words why the last Admin keeps the role", async () => {
    fakeFetch({
      "GET /api/orgs/org_1/members": { body: { members: [me, bob] } },
      "PUT /api/orgs/org_1/members/usr_me": {
        status: 409,
        body: { error: "an organization needs at least one Admin: make someone else Admin first", code: "last_admin" },
      },
    });
    const user = userEvent.setup();
    renderPage(<AdminPage />, { route: "/admin", path: "/admin" });
    const select = await screen.findByLabelText("Role of Mia Tester");
    await user.selectOptions(select, "Tester");
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Mia Tester is the organization's last Admin, and an organization needs at least one: make another member Admin first.",
    );
    expect(select).toHaveValue("Admin");
  });

  it("invites by email and explains an email without an account", async () => {
    let n = 0;
    const { calls } = fakeFetch({
      "GET /api/orgs/org_1/members": { body: { members: [me] } },
      "POST /api/orgs/org_1/members": () =>
        ++n === 1
          ? {
              status: 422,
              body: {
                error: "the invitation is not valid",
                code: "invalid",
                issues: [{ path: "email", code: "unknown", message: "no account has this email: the person must register first" }],
              },
            }
          : { status: 201, body: { ...bob, role: "Test Developer" } },
    });
    const user = userEvent.setup();
    renderPage(<AdminPage />, { route: "/admin", path: "/admin" });
    await user.type(await screen.findByLabelText("Email"), "bob@example.com");
    await user.selectOptions(screen.getByLabelText("Role"), "Test Developer");
    await user.click(screen.getByRole("button", { name: "Invite" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(/No account has the email bob@example.com\. Ask the person to create one/);
    await user.click(screen.getByRole("button", { name: "Invite" }));
    expect(await screen.findByText("Bob (bob@example.com) joined Acme as Test Developer.")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "POST")[0].body).toEqual({ email: "bob@example.com", role: "Test Developer" });
  });

  it("removes a member after confirming", async () => {
    const { calls } = fakeFetch({
      "GET /api/orgs/org_1/members": { body: { members: [me, bob] } },
      "DELETE /api/orgs/org_1/members/usr_bob0000000000000000": { status: 204 },
    });
    const user = userEvent.setup();
    renderPage(<AdminPage />, { route: "/admin", path: "/admin" });
    await user.click(await screen.findByRole("button", { name: "Remove Bob" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Remove member" }));
    await waitFor(() => expect(calls.some((c) => c.method === "DELETE")).toBe(true));
  });
});

describe("AdminPage: project members", () => {
  const members = [
    { ...me, role: "Admin", orgRole: "Admin", projectRole: null },
    { ...bob, orgRole: "Tester", projectRole: "Test Manager" },
  ];

  it("sets a project role, and Organization role removes it", async () => {
    const { calls } = fakeFetch({
      "GET /api/projects/prj_1/members": { body: { members } },
      "PUT /api/projects/prj_1/members/usr_bob0000000000000000": { body: members[1] },
      "DELETE /api/projects/prj_1/members/usr_bob0000000000000000": { status: 204 },
    });
    const user = userEvent.setup();
    renderPage(<AdminPage />, { route: "/admin?tab=project", path: "/admin" });
    const select = await screen.findByLabelText("Project role of Bob");
    expect(select).toHaveValue("Test Manager");
    expect(screen.getByLabelText("Project role of Mia Tester")).toBeDisabled();
    await user.selectOptions(select, "Test Developer");
    await waitFor(() => expect(calls.find((c) => c.method === "PUT")?.body).toEqual({ role: "Test Developer" }));
    await user.selectOptions(select, "Organization role (Tester)");
    await waitFor(() =>
      expect(calls.some((c) => c.method === "DELETE" && c.path === "/api/projects/prj_1/members/usr_bob0000000000000000")).toBe(true),
    );
  });

  it("shows a Tester the project members read-only", async () => {
    fakeFetch({
      "GET /api/projects/prj_1/members": { body: { members } },
      "GET /api/roles": { body: roles },
    });
    renderPage(<AdminPage />, { route: "/admin?tab=project", path: "/admin", context: testContext("Tester") });
    await screen.findByText("Bob");
    expect(screen.queryByLabelText("Project role of Bob")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Delete project/ })).not.toBeInTheDocument();
  });
});

describe("AdminPage: who can do what", () => {
  it("explains the roles to a member who administers nothing", async () => {
    fakeFetch({ "GET /api/roles": { body: roles } });
    renderPage(<AdminPage />, { route: "/admin", path: "/admin", context: testContext("Tester") });
    expect(screen.getByText(/Who can do what/)).toBeInTheDocument();
    expect(screen.queryByRole("tab", { name: "Sign-in accounts" })).not.toBeInTheDocument();
    const table = await screen.findByRole("table");
    const row = within(table).getByText("Manage environments, secrets and applications").closest("tr")!;
    expect(within(row).getAllByLabelText("yes")).toHaveLength(2);
  });
});

describe("AdminPage: sign-in accounts", () => {
  const accounts = [
    { id: "usr_me", name: "Mia Tester", email: "mia@example.com", platformAdmin: true, createdAt: "2026-11-01T10:00:00Z" },
    { id: "usr_bob0000000000000000", name: "Bob", email: "bob@example.com", platformAdmin: false, createdAt: "2026-11-01T10:00:00Z" },
  ];

  it("creates an account and explains a refused delete", async () => {
    const { calls } = fakeFetch({
      "GET /api/members": { body: { members: accounts } },
      "POST /api/members": { status: 201, body: { ...accounts[1], id: "usr_cat0000000000000000", name: "Cat", email: "cat@example.com" } },
      "DELETE /api/members/usr_bob0000000000000000": {
        status: 409,
        body: { error: 'this account is the only Admin of organization "Beta": make someone else Admin there first', code: "last_admin" },
      },
    });
    const user = userEvent.setup();
    renderPage(<AdminPage />, { route: "/admin?tab=accounts", path: "/admin", context: testContext("Tester", true) });
    expect(await screen.findByRole("button", { name: "Delete account Mia Tester" })).toBeDisabled();
    await user.type(screen.getByLabelText("Name"), "Cat");
    await user.type(screen.getByLabelText("Email"), "cat@example.com");
    await user.type(screen.getByLabelText("Password"), "a-long-password");
    await user.click(screen.getByLabelText(/Platform administrator/));
    await user.click(screen.getByRole("button", { name: "Create account" }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === "POST")?.body).toEqual({
        name: "Cat",
        email: "cat@example.com",
        password: "a-long-password",
        platformAdmin: true,
      }),
    );
    await user.click(screen.getByRole("button", { name: "Delete account Bob" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Delete account" }));
    expect(await within(screen.getByRole("dialog")).findByRole("alert")).toHaveTextContent(
      'This account is the only Admin of organization "Beta": make someone else Admin there first.',
    );
  });
});
