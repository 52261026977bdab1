import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import type { Profile } from "../../api/runs";
import { ProfilePage } from "./ProfilePage";

const profile: Profile = {
  user: { id: "usr_me", name: "Mia Tester", email: "mia@example.com", platformAdmin: false, createdAt: "2026-01-15T10:00:00Z" },
  recentRuns: [
    {
      runId: "run_9",
      testId: "tc_1",
      testName: "Sign in",
      batchId: null,
      projectId: "prj_1",
      environmentId: null,
      status: "failed",
      passed: 2,
      total: 3,
      durationMs: 4100,
      version: 1,
      options: { headed: false, screenshots: true, retries: 0 },
      flaky: false,
      quarantined: false,
      result: { steps: [] },
      attempts: 1,
      startedBy: "usr_me",
      startedByName: "Mia Tester",
      createdAt: "2026-11-02T10:00:00Z",
      startedAt: "2026-11-02T10:00:01Z",
      finishedAt: "2026-11-02T10:00:05Z",
    },
  ],
};

const noTokens = { body: { tokens: [] } };

async function fill(current: string, next: string, repeat: string) {
  await userEvent.type(await screen.findByLabelText("Current password"), current);
  await userEvent.type(screen.getByLabelText("New password"), next);
  await userEvent.type(screen.getByLabelText("Repeat the new password"), repeat);
  await userEvent.click(screen.getByRole("button", { name: "Change password" }));
}

afterEach(() => vi.unstubAllGlobals());

describe("ProfilePage", () => {
  it("shows the account and the recent runs", async () => {
    fakeFetch({ "GET /api/profile": { body: profile }, "GET /api/tokens": noTokens });
    renderPage(<ProfilePage />, { route: "/profile", path: "/profile" });
    expect(await screen.findByText("mia@example.com")).toBeInTheDocument();
    expect(screen.getByText("Member since")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "run_9" })).toHaveAttribute("href", "/runs/run_9");
    expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/tests/tc_1");
    expect(screen.getByText("2/3")).toBeInTheDocument();
  });

  it("refuses two different new passwords without asking the hub", async () => {
    const { calls } = fakeFetch({ "GET /api/profile": { body: profile }, "GET /api/tokens": noTokens });
    renderPage(<ProfilePage />, { route: "/profile", path: "/profile" });
    await fill("old-password-1", "new-password-1", "new-password-2");
    expect(await screen.findByText(/The two new passwords differ/)).toBeInTheDocument();
    expect(screen.getByLabelText("Repeat the new password")).toHaveAttribute("aria-invalid", "true");
    expect(calls.some((c) => c.method === "POST")).toBe(false);
  });

  it("changes the password and says the other sessions were signed out", async () => {
    const { calls } = fakeFetch({
      "GET /api/profile": { body: profile },
      "GET /api/tokens": noTokens,
      "POST /api/auth/password": { status: 204 },
    });
    renderPage(<ProfilePage />, { route: "/profile", path: "/profile" });
    await fill("old-password-1", "new-password-1", "new-password-1");
    expect(await screen.findByRole("status")).toHaveTextContent("Your other sessions were signed out.");
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ currentPassword: "old-password-1", newPassword: "new-password-1" });
    expect(screen.getByLabelText("Current password")).toHaveValue("");
  });

  it("revokes the API tokens too when asked, and says so", async () => {
    let tokenLists = 0;
    const { calls } = fakeFetch({
      "GET /api/profile": { body: profile },
      "GET /api/tokens": () => {
        tokenLists++;
        return noTokens;
      },
      "POST /api/auth/password": { status: 204 },
    });
    renderPage(<ProfilePage />, { route: "/profile", path: "/profile" });
    const box = await screen.findByRole("checkbox", { name: "Also revoke my API tokens and CI agents" });
    expect(box).not.toBeChecked();
    await userEvent.click(box);
    await fill("old-password-1", "new-password-1", "new-password-1");
    expect(await screen.findByRole("status")).toHaveTextContent(
      "Your other sessions were signed out, and your API tokens were revoked (their CI agents disconnected).",
    );
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({
      currentPassword: "old-password-1",
      newPassword: "new-password-1",
      revokeTokens: true,
    });
    expect(box).not.toBeChecked();
    await waitFor(() => expect(tokenLists).toBe(2)); // the token list shows them revoked
  });

  it("shows the hub's issues beside their fields", async () => {
    fakeFetch({
      "GET /api/profile": { body: profile },
      "GET /api/tokens": noTokens,
      "POST /api/auth/password": {
        status: 422,
        body: {
          error: "the current password is not correct",
          code: "invalid",
          issues: [{ path: "currentPassword", message: "this is not your current password", code: "incorrect" }],
        },
      },
    });
    renderPage(<ProfilePage />, { route: "/profile", path: "/profile" });
    await fill("wrong-password", "new-password-1", "new-password-1");
    expect(await screen.findByText("this is not your current password")).toBeInTheDocument();
    expect(screen.getByLabelText("Current password")).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
  });

  it("explains a refusal that names no field", async () => {
    fakeFetch({
      "GET /api/profile": { body: profile },
      "GET /api/tokens": noTokens,
      "POST /api/auth/password": { status: 403, body: { error: "this account may not change its password", code: "forbidden" } },
    });
    renderPage(<ProfilePage />, { route: "/profile", path: "/profile" });
    await fill("old-password-1", "new-password-1", "new-password-1");
    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent("this account may not change its password"));
  });

  it("edits the name, and shows the hub's issue beside it", async () => {
    const { calls } = fakeFetch({
      "GET /api/profile": { body: profile },
      "GET /api/tokens": noTokens,
      "PUT /api/profile": (call) =>
        (call.body as { name: string }).name.trim() === ""
          ? {
              status: 422,
              body: {
                error: "the profile is not valid",
                code: "invalid",
                issues: [{ path: "name", message: "name is required", code: "required" }],
              },
            }
          : { body: { user: { ...profile.user, name: (call.body as { name: string }).name.trim() } } },
    });
    renderPage(<ProfilePage />, { route: "/profile", path: "/profile" });
    await userEvent.click(await screen.findByRole("button", { name: "Edit name" }));
    const input = screen.getByLabelText("Name");
    expect(input).toHaveValue("Mia Tester");
    await userEvent.clear(input);
    await userEvent.click(screen.getByRole("button", { name: "Save name" }));
    expect(await screen.findByText("name is required")).toBeInTheDocument();
    expect(input).toHaveAttribute("aria-invalid", "true");
    await userEvent.type(input, "Mia Q. Tester");
    await userEvent.click(screen.getByRole("button", { name: "Save name" }));
    expect(await screen.findByRole("button", { name: "Edit name" })).toBeInTheDocument();
    expect(screen.getByText("Saved.")).toBeInTheDocument();
    expect(screen.getAllByText(/Mia Q\. Tester/).length).toBeGreaterThan(0);
    const puts = calls.filter((c) => c.method === "PUT");
    expect(puts.map((c) => [c.path, c.body, c.headers["Content-Type"] ?? c.headers["content-type"]])).toEqual([
      ["/api/profile", { name: "" }, "application/json"],
      ["/api/profile", { name: "Mia Q. Tester" }, "application/json"],
    ]);
  });
});
