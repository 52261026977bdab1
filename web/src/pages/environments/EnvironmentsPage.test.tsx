import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext } from "../../test/render";
import type { Environment } from "../../api/admin";
import { EnvironmentsPage } from "./EnvironmentsPage";

afterEach(() => vi.unstubAllGlobals());

const staging: Environment = {
  id: "env_staging000000000000",
  projectId: "prj_1",
  name: "Staging",
  variables: { user: "alice", region: "eu" },
  secrets: ["PASSWORD", "TOKEN"],
  applicationId: "app_shop00000000000000",
  protected: false,
  createdAt: "2026-11-01T10:00:00Z",
  updatedAt: "2026-11-01T10:00:00Z",
};
const prod: Environment = {
  ...staging,
  id: "env_prod0000000000000000",
  name: "Production",
  secrets: ["PASSWORD"],
  applicationId: null,
  protected: true,
};
const shop = {
  id: "app_shop00000000000000",
  projectId: "prj_1",
  name: "Shop",
  baseUrl: "https://shop.example.com",
  description: "",
  createdAt: "",
  updatedAt: "",
};

function routes(extra: Record<string, unknown> = {}) {
  return fakeFetch({
    "GET /api/environments": { body: { environments: [staging, prod] } },
    "GET /api/applications": { body: { applications: [shop] } },
    "GET /api/secrets": { body: { secrets: [] } },
    ...(extra as object),
  });
}

describe("EnvironmentsPage", () => {
  it("lists environments with their application, variables and which secrets are set", async () => {
    routes();
    renderPage(<EnvironmentsPage />, { route: "/environments", path: "/environments", context: testContext("Test Manager") });
    const row = (await screen.findByText("Production")).closest("tr")!;
    expect(within(row).getByText("2 variables")).toBeInTheDocument();
    // TOKEN is known in the project (Staging has it) but Production lacks it.
    expect(within(row).getByText("TOKEN").parentElement).toHaveTextContent("TOKEN not set");
    expect(within(row).getByText("PASSWORD").parentElement).toHaveTextContent("PASSWORD set");
    const stagingRow = screen.getByText("Staging").closest("tr")!;
    expect(within(stagingRow).getByText("Shop")).toBeInTheDocument();
    // Which environments are protected, and what that means.
    expect(within(row).getByText("Protected")).toHaveAttribute("title", expect.stringMatching(/only to runs of Ready tests/));
    expect(within(stagingRow).queryByText("Protected")).not.toBeInTheDocument();
  });

  it("creates an environment with variables and secrets, and never shows a secret's value", async () => {
    const created: Environment = {
      ...prod,
      id: "env_new00000000000000000",
      name: "QA",
      variables: { baseUrl: "https://qa.example.com" },
      secrets: ["API_KEY"],
    };
    let saved = false;
    const { calls } = fakeFetch({
      "GET /api/environments": () => ({ body: { environments: saved ? [staging, prod, created] : [staging, prod] } }),
      "GET /api/applications": { body: { applications: [shop] } },
      "POST /api/environments": () => {
        saved = true;
        return { status: 201, body: created };
      },
    });
    const user = userEvent.setup();
    renderPage(<EnvironmentsPage />, { route: "/environments", path: "/environments", context: testContext("Test Manager") });
    await user.click(await screen.findByRole("button", { name: "New environment" }));
    await user.type(screen.getByLabelText("Name"), "QA");
    await user.selectOptions(screen.getByLabelText("Application"), "app_shop00000000000000");
    await user.click(screen.getByRole("button", { name: "Add variable" }));
    await user.type(screen.getByLabelText("Variable name 1"), "baseUrl");
    await user.type(screen.getByLabelText("Variable value 1"), "https://qa.example.com");
    await user.click(screen.getByRole("button", { name: "Add secret" }));
    await user.type(screen.getByLabelText("Secret name 1"), "API_KEY");
    const secret = screen.getByLabelText("Secret value 1");
    expect(secret).toHaveAttribute("type", "password");
    await user.type(secret, "s3cr3t-value-42");
    // A known secret the new environment does not have yet: shown as not set, left empty.
    expect(screen.getByLabelText("Set PASSWORD")).toHaveValue("");
    await user.click(screen.getByRole("button", { name: "Create environment" }));

    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")!.body).toEqual({
      name: "QA",
      variables: { baseUrl: "https://qa.example.com" },
      secrets: { API_KEY: "s3cr3t-value-42" },
      applicationId: "app_shop00000000000000",
      protected: false,
    });
    await screen.findByText("QA");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(document.body.innerHTML).not.toContain("s3cr3t-value-42");
  });

  it("replaces and removes secrets of an existing environment without ever showing a value", async () => {
    const { calls } = routes({ "POST /api/environments": { body: staging } });
    const user = userEvent.setup();
    renderPage(<EnvironmentsPage />, { route: "/environments", path: "/environments", context: testContext("Admin") });
    await user.click(await screen.findByRole("button", { name: "Edit Staging" }));
    const dialog = screen.getByRole("dialog");
    // Existing values are never known to the page: each secret says "set" and offers Replace.
    const replace = within(dialog).getByLabelText("Replace PASSWORD");
    expect(replace).toHaveAttribute("type", "password");
    expect(replace).toHaveValue("");
    expect(within(dialog).getAllByText("set")).toHaveLength(2);
    expect(within(dialog).getByLabelText("Variable name 1")).toHaveValue("region");
    await user.type(replace, "new-password-1");
    await user.click(within(dialog).getByLabelText("Remove TOKEN"));
    await user.selectOptions(within(dialog).getByLabelText("Application"), "");
    await user.click(within(dialog).getByRole("button", { name: "Remove variable 1" }));
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")!.body).toEqual({
      id: "env_staging000000000000",
      name: "Staging",
      variables: { user: "alice" },
      secrets: { PASSWORD: "new-password-1", TOKEN: null },
      applicationId: "",
      protected: false,
    });
  });

  it("protects an environment and unprotects another, saying what protection does", async () => {
    const { calls } = routes({ "POST /api/environments": { body: staging } });
    const user = userEvent.setup();
    renderPage(<EnvironmentsPage />, { route: "/environments", path: "/environments", context: testContext("Test Manager") });
    await user.click(await screen.findByRole("button", { name: "Edit Staging" }));
    let dialog = screen.getByRole("dialog");
    const box = within(dialog).getByRole("checkbox", { name: "Protected" });
    expect(box).not.toBeChecked();
    expect(box).toHaveAccessibleDescription("Secrets are sent only to runs of Ready tests started by a Test Manager or Admin.");
    await user.click(box);
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls.filter((c) => c.method === "POST")).toHaveLength(1));
    expect(calls.find((c) => c.method === "POST")!.body).toMatchObject({ id: staging.id, protected: true });

    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await user.click(screen.getByRole("button", { name: "Edit Production" }));
    dialog = screen.getByRole("dialog");
    expect(within(dialog).getByRole("checkbox", { name: "Protected" })).toBeChecked();
    await user.click(within(dialog).getByRole("checkbox", { name: "Protected" }));
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls.filter((c) => c.method === "POST")).toHaveLength(2));
    expect(calls.filter((c) => c.method === "POST")[1].body).toMatchObject({ id: prod.id, protected: false });
  });

  it("refuses bad variable names before sending", async () => {
    const { calls } = routes();
    const user = userEvent.setup();
    renderPage(<EnvironmentsPage />, { route: "/environments", path: "/environments", context: testContext("Test Manager") });
    await user.click(await screen.findByRole("button", { name: "New environment" }));
    await user.type(screen.getByLabelText("Name"), "Bad");
    await user.click(screen.getByRole("button", { name: "Add variable" }));
    await user.type(screen.getByLabelText("Variable name 1"), "1st-var");
    await user.click(screen.getByRole("button", { name: "Create environment" }));
    expect(await screen.findByText(/must start with a letter or _/)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(0);
  });

  it("deletes after a confirmation naming the environment", async () => {
    const { calls } = routes({ "DELETE /api/environments/env_prod0000000000000000": { status: 204 } });
    const user = userEvent.setup();
    renderPage(<EnvironmentsPage />, { route: "/environments", path: "/environments", context: testContext("Test Manager") });
    await user.click(await screen.findByRole("button", { name: "Delete Production" }));
    expect(screen.getByRole("dialog", { name: "Delete environment Production?" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Delete environment" }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === "DELETE" && c.path === "/api/environments/env_prod0000000000000000")).toBe(true),
    );
  });

  it("shows a Tester names and variables but no edit controls", async () => {
    routes();
    renderPage(<EnvironmentsPage />, { route: "/environments", path: "/environments", context: testContext("Tester") });
    await screen.findByText("Staging");
    expect(screen.getAllByText("alice").length).toBeGreaterThan(0);
    expect(screen.queryByRole("button", { name: "New environment" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Edit / })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Delete / })).not.toBeInTheDocument();
    expect(screen.getByText(/Test Managers and Admins create and change environments/)).toBeInTheDocument();
    expect(within(screen.getByText("Production").closest("tr")!).getByText("Protected")).toBeInTheDocument();
  });

  it("says why a new environment lists secrets as not set, and names a field that exists when one is added again", async () => {
    const { calls } = routes();
    const user = userEvent.setup();
    renderPage(<EnvironmentsPage />, { route: "/environments", path: "/environments", context: testContext("Test Manager") });
    await user.click(await screen.findByRole("button", { name: "New environment" }));
    const dialog = screen.getByRole("dialog", { name: "New environment" });
    await user.type(within(dialog).getByLabelText("Name"), "QA");
    const password = within(dialog).getByLabelText("Set PASSWORD");
    expect(password).toHaveAccessibleDescription(/another environment of this project has and this one does not yet/);
    expect(password).toHaveAttribute("placeholder", "Set a value");
    await user.click(within(dialog).getByRole("button", { name: "Add secret" }));
    await user.type(within(dialog).getByLabelText("Secret name 1"), "PASSWORD");
    await user.type(within(dialog).getByLabelText("Secret value 1"), "pw-1");
    await user.click(within(dialog).getByRole("button", { name: "Create environment" }));
    expect(within(dialog).getByRole("alert")).toHaveTextContent('type its value in its "Set a value" field instead');
    expect(calls.some((c) => c.method === "POST")).toBe(false);
  });

  it("names the Replace field when a secret the environment has is added again", async () => {
    routes();
    const user = userEvent.setup();
    renderPage(<EnvironmentsPage />, { route: "/environments", path: "/environments", context: testContext("Admin") });
    await user.click(await screen.findByRole("button", { name: "Edit Staging" }));
    const dialog = screen.getByRole("dialog");
    expect(within(dialog).queryByText(/marked “not set”/)).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText("Replace TOKEN")).toHaveAttribute("placeholder", "Replace");
    await user.click(within(dialog).getByRole("button", { name: "Add secret" }));
    await user.type(within(dialog).getByLabelText("Secret name 1"), "TOKEN");
    await user.type(within(dialog).getByLabelText("Secret value 1"), "t-2");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(within(dialog).getByRole("alert")).toHaveTextContent('type its new value in its "Replace" field above instead');
  });
});
