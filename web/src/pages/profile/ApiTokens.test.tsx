import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext } from "../../test/render";
import type { Context } from "../../api";
import type { ApiToken } from "../../api/tokens";
import { ApiTokens, expiresAt, highestRole, rolesUpTo } from "./ApiTokens";

const token = (over: Partial<ApiToken>): ApiToken => ({
  id: "tok_1",
  name: "Shop CI",
  projectId: "prj_1",
  projectName: "Shop",
  role: "Tester",
  expiresAt: "2027-02-01T00:00:00.000Z",
  createdAt: "2026-11-01T10:00:00.000Z",
  lastUsedAt: "2026-11-02T10:00:00.000Z",
  lastUsedFrom: "10.0.0.7",
  expired: false,
  ...over,
});

/** A Test Manager in Shop and a Tester in Warehouse. */
const context: Context = {
  ...testContext("Test Manager"),
  organizations: [
    {
      id: "org_1",
      name: "Acme",
      role: "Tester",
      projects: [
        { id: "prj_1", orgId: "org_1", name: "Shop", role: "Test Manager" },
        { id: "prj_2", orgId: "org_1", name: "Warehouse", role: "Tester" },
      ],
    },
  ],
};

afterEach(() => vi.unstubAllGlobals());

describe("token helpers", () => {
  it("turns the expiry choice into a time", () => {
    const now = new Date("2026-11-01T10:00:00Z");
    expect(expiresAt("30", "", now)).toBe("2026-12-01T10:00:00.000Z");
    expect(expiresAt("never", "", now)).toBeUndefined();
    expect(expiresAt("date", "", now)).toBeNull();
    expect(expiresAt("date", "2020-01-01", now)).toBeNull();
    expect(expiresAt("date", "2027-03-04", now)).toBe(new Date("2027-03-04T23:59:59").toISOString());
  });

  it("offers no role above the caller's", () => {
    expect(highestRole(context.organizations)).toBe("Test Manager");
    expect(rolesUpTo("Test Developer")).toEqual(["Tester", "Test Developer"]);
    expect(rolesUpTo(null)).toEqual([]);
  });
});

describe("ApiTokens", () => {
  it("lists the tokens without their text", async () => {
    fakeFetch({
      "GET /api/tokens": {
        body: {
          tokens: [
            token({}),
            token({ id: "tok_2", name: "Everywhere", projectId: null, projectName: null, role: null, expiresAt: null, lastUsedAt: null }),
            token({ id: "tok_3", name: "Old", revokedAt: "2026-11-03T10:00:00.000Z" }),
          ],
        },
      },
    });
    renderPage(<ApiTokens />, { context });
    const rows = await screen.findAllByRole("row");
    expect(rows).toHaveLength(4);
    expect(within(rows[1]).getByText("Shop")).toBeInTheDocument();
    expect(within(rows[1]).getByText(/from 10\.0\.0\.7/)).toBeInTheDocument();
    expect(within(rows[2]).getByText("All my projects")).toBeInTheDocument();
    expect(within(rows[2]).getByText("Same as mine")).toBeInTheDocument();
    expect(within(rows[2]).getAllByText("Never")).toHaveLength(2);
    expect(within(rows[3]).getByText(/Revoked/)).toBeInTheDocument();
    expect(within(rows[3]).queryByRole("button")).not.toBeInTheDocument();
  });

  it("creates a token for one project with a capped role and shows it once", async () => {
    const { calls } = fakeFetch({
      "GET /api/tokens": { body: { tokens: [] } },
      "POST /api/tokens": (call) => ({
        status: 201,
        body: { ...token({ name: (call.body as { name: string }).name }), token: "tat_" + "a".repeat(52) },
      }),
    });
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    renderPage(<ApiTokens />, { context });
    await userEvent.type(await screen.findByLabelText("Token name"), "Shop CI");
    const roleSelect = screen.getByLabelText("Role");
    // All projects: up to the highest role anywhere (Test Manager).
    expect(
      within(roleSelect)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["Same as mine", "Tester", "Test Developer", "Test Manager"]);
    await userEvent.selectOptions(screen.getByLabelText("Project"), "prj_2");
    expect(
      within(roleSelect)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["Same as mine", "Tester"]);
    await userEvent.selectOptions(roleSelect, "Tester");
    await userEvent.selectOptions(screen.getByLabelText("Expires"), "never");
    await userEvent.click(screen.getByRole("button", { name: "Create token" }));

    const shown = await screen.findByLabelText("New API token");
    expect(shown).toHaveValue("tat_" + "a".repeat(52));
    expect(screen.getByText(/it will not be shown again/)).toBeInTheDocument();
    expect(screen.getByText(`ta-agent ci --hub ${window.location.origin} --suite Smoke --junit report.xml`)).toBeInTheDocument();
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ name: "Shop CI", projectId: "prj_2", role: "Tester" });
    await userEvent.click(screen.getByRole("button", { name: "Copy" }));
    expect(writeText).toHaveBeenCalledWith("tat_" + "a".repeat(52));
    expect(await screen.findByText("Copied to the clipboard.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Done" }));
    expect(screen.queryByLabelText("New API token")).not.toBeInTheDocument();
    expect(screen.queryByText(/tat_a/)).not.toBeInTheDocument();
  });

  it("sends an expiry and shows the hub's issues beside their fields", async () => {
    const { calls } = fakeFetch({
      "GET /api/tokens": { body: { tokens: [] } },
      "POST /api/tokens": {
        status: 422,
        body: {
          error: "the token request is not valid",
          code: "invalid",
          issues: [{ path: "name", message: "name is required", code: "required" }],
        },
      },
    });
    renderPage(<ApiTokens />, { context });
    await userEvent.selectOptions(await screen.findByLabelText("Expires"), "date");
    await userEvent.click(screen.getByRole("button", { name: "Create token" }));
    expect(await screen.findByText("Choose a date after today.")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    await userEvent.selectOptions(screen.getByLabelText("Expires"), "30");
    await userEvent.click(screen.getByRole("button", { name: "Create token" }));
    expect(await screen.findByText("name is required")).toBeInTheDocument();
    expect(screen.getByLabelText("Token name")).toHaveAttribute("aria-invalid", "true");
    const sent = calls.find((c) => c.method === "POST")?.body as { expiresAt: string };
    const days = (new Date(sent.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
  });

  it("revokes a token after asking", async () => {
    let revoked = false;
    const { calls } = fakeFetch({
      "GET /api/tokens": () => ({ body: { tokens: [token(revoked ? { revokedAt: "2026-11-03T10:00:00.000Z" } : {})] } }),
      "DELETE /api/tokens/tok_1": () => {
        revoked = true;
        return { status: 204 };
      },
    });
    renderPage(<ApiTokens />, { context });
    await userEvent.click(await screen.findByRole("button", { name: "Revoke Shop CI" }));
    const dialog = screen.getByRole("dialog");
    expect(dialog).toHaveTextContent(/refused from now on/);
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(within(dialog).getByRole("button", { name: "Revoke token" }));
    await waitFor(() => expect(screen.queryByRole("button", { name: "Revoke Shop CI" })).not.toBeInTheDocument());
    expect(screen.getByText(/Revoked/)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "DELETE").map((c) => c.path)).toEqual(["/api/tokens/tok_1"]);
  });
});
