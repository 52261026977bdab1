// Managing a project through the web application: environments with
// write-only secrets (and a run that uses them), suites, importing a
// Selenium IDE project, the lifecycle actions of the editor, the profile's
// password change and the forgotten-password reset, and the test list's
// filters. Each test registers its own users and project through the API,
// so the tests depend neither on each other nor on the other spec files.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { expect, shot, signIn, startAgent, test, type Agent } from "./fixtures";

const stamp = Date.now().toString(36);
const sideFile = resolve(import.meta.dirname, "fixtures-data", "sign-in.side");

interface Who {
  name: string;
  email: string;
  password: string;
}

interface Workspace {
  who: Who;
  orgId: string;
  projectId: string;
}

function person(tag: string, name: string): Who {
  return { name, email: `${tag}-${stamp}@manage.e2e.test`, password: `${tag}-password-1` };
}

async function apiRegister(request: APIRequestContext, who: Who): Promise<void> {
  const res = await request.post("/api/auth/register", { data: { name: who.name, email: who.email, password: who.password } });
  expect(res.status(), await res.text()).toBe(201);
}

/** workspace registers `who` (signing in the request's browser context) with an organization and one project. */
async function workspace(request: APIRequestContext, who: Who, org = "Manage Co", project = "Portal"): Promise<Workspace> {
  await apiRegister(request, who);
  const o = await request.post("/api/orgs", { data: { name: org } });
  expect(o.status(), await o.text()).toBe(201);
  const orgId = (await o.json()).id as string;
  const p = await request.post(`/api/orgs/${orgId}/projects`, { data: { name: project } });
  expect(p.status(), await p.text()).toBe(201);
  return { who, orgId, projectId: (await p.json()).id as string };
}

/** createTest saves a test document through POST /api/tests and answers its id. */
async function createTest(request: APIRequestContext, ws: Workspace, doc: Record<string, unknown>): Promise<string> {
  const res = await request.post("/api/tests", { data: doc, headers: { "x-project-id": ws.projectId } });
  expect(res.status(), await res.text()).toBe(201);
  const body = await res.json();
  return body.id as string;
}

async function listTests(request: APIRequestContext, ws: Workspace, query: string): Promise<{ name: string; suite?: string | null }[]> {
  const res = await request.get(`/api/tests?${query}`, { headers: { "x-project-id": ws.projectId } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).tests;
}

/** newPage opens a second browser context whose console errors are collected like the fixture page's. */
async function newPage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const ctx = await browser.newContext({ baseURL: process.env.E2E_HUB, viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && !/status of 4\d\d/.test(m.text())) errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  return { page, errors };
}

function navigate(url: string) {
  return { id: "s1", type: "navigate", url };
}

/** resetLink waits for the hub's log to print a reset link for email and answers the latest one. */
async function resetLink(email: string): Promise<string> {
  const log = process.env.E2E_HUB_LOG ?? "";
  const escaped = email.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`password reset link for ${escaped}: (\\S+?/reset\\?token=[A-Za-z0-9_-]+)`, "g");
  let link = "";
  await expect
    .poll(
      () => {
        const all = [...readFileSync(log, "utf8").matchAll(re)];
        link = all.length > 0 ? all[all.length - 1][1] : "";
        return link;
      },
      { message: `a reset link for ${email} in ${log}`, timeout: 10_000 },
    )
    .not.toBe("");
  return link;
}

let agent: Agent | null = null;

test.afterAll(async () => {
  await agent?.stop();
});

test("environments keep secrets write-only, Testers only read them, and a run uses them", async ({ page, browser }) => {
  const admin = person("env-admin", "Ada Admin");
  const tester = person("env-tester", "Tom Tester");
  const firstSecret = "first-Vault-Secret-31";
  const secret = "Repl4ced-Vault-Secret-77"; // e2e/site/vault.html grants access to this one only
  const ws = await workspace(page.request, admin);
  const { page: testerPage, errors: testerErrors } = await newPage(browser);
  await apiRegister(testerPage.request, tester);
  const invited = await page.request.post(`/api/orgs/${ws.orgId}/members`, { data: { email: tester.email, role: "Tester" } });
  expect(invited.status(), await invited.text()).toBe(201);

  // Start the agent early: it pairs while the environment is written.
  await agent?.stop();
  agent = startAgent();

  await test.step("an Admin creates Staging with a variable and a secret", async () => {
    await page.goto("/environments");
    await expect(page.getByRole("heading", { name: "Environments" })).toBeVisible();
    await page.getByRole("button", { name: "New environment" }).click();
    const dialog = page.getByRole("dialog", { name: "New environment" });
    await dialog.getByLabel("Name", { exact: true }).fill("Staging");
    await dialog.getByRole("button", { name: "Add variable" }).click();
    await dialog.getByLabel("Variable name 1").fill("baseUrl");
    await dialog.getByLabel("Variable value 1").fill(process.env.E2E_SITE ?? "");
    await dialog.getByRole("button", { name: "Add variable" }).click();
    await dialog.getByLabel("Variable name 2").fill("region");
    await dialog.getByLabel("Variable value 2").fill("eu-west");
    await dialog.getByRole("button", { name: "Add secret" }).click();
    await dialog.getByLabel("Secret name 1").fill("PASSWORD");
    await dialog.getByLabel("Secret value 1").fill(firstSecret);
    await expect(dialog.getByLabel("Secret value 1")).toHaveAttribute("type", "password");
    await shot(page, "31-environment-new");
    await dialog.getByRole("button", { name: "Create environment" }).click();
    await expect(dialog).toHaveCount(0);

    const row = page.getByRole("row", { name: /Staging/ });
    await expect(row).toContainText("2 variables");
    await expect(row.getByRole("listitem").filter({ hasText: "PASSWORD" })).toContainText("set");
    await row.getByText("2 variables").click(); // open the variables
    await expect(row).toContainText(process.env.E2E_SITE ?? "");
    expect(await page.content()).not.toContain(firstSecret);
    await shot(page, "31-environment-list");
  });

  await test.step("edit it: replace the secret, remove a variable", async () => {
    await page.getByRole("button", { name: "Edit Staging" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit environment Staging" });
    await expect(dialog.getByLabel("Variable name 2")).toHaveValue("region");
    // The secret is shown as set, its value nowhere: only a field to replace it.
    await expect(dialog.getByText("set", { exact: true })).toBeVisible();
    await expect(dialog.getByLabel("Replace PASSWORD")).toHaveValue("");
    expect(await page.content()).not.toContain(firstSecret);
    await dialog.getByLabel("Replace PASSWORD").fill(secret);
    await dialog.getByRole("button", { name: "Remove variable 2" }).click();
    await expect(dialog.getByLabel("Variable name 2")).toHaveCount(0);
    await shot(page, "31-environment-edit");
    await dialog.getByRole("button", { name: "Save", exact: true }).click();
    await expect(dialog).toHaveCount(0);

    const row = page.getByRole("row", { name: /Staging/ });
    await expect(row).toContainText("1 variable");
    await expect(row.getByRole("listitem").filter({ hasText: "PASSWORD" })).toContainText("set");
    const html = await page.content();
    expect(html).not.toContain(firstSecret);
    expect(html).not.toContain(secret);
    // What the hub stored: one variable, the secret by name only.
    const res = await page.request.get("/api/environments", { headers: { "x-project-id": ws.projectId } });
    const stored = (await res.json()).environments.find((e: { name: string }) => e.name === "Staging");
    expect(stored.variables).toEqual({ baseUrl: process.env.E2E_SITE });
    expect(stored.secrets).toEqual(["PASSWORD"]);
    expect(JSON.stringify(await res.json())).not.toContain(secret);
  });

  await test.step("a Tester sees the environment read-only", async () => {
    await testerPage.goto("/environments");
    const row = testerPage.getByRole("row", { name: /Staging/ });
    await expect(row).toBeVisible();
    await expect(row.getByRole("listitem").filter({ hasText: "PASSWORD" })).toContainText("set");
    await expect(testerPage.getByText(/your role in this project is Tester, so\s+you see names and variables only/)).toBeVisible();
    await expect(testerPage.getByRole("button", { name: "New environment" })).toHaveCount(0);
    await expect(testerPage.getByRole("button", { name: /^(Edit|Delete)/ })).toHaveCount(0);
    expect(await testerPage.content()).not.toContain(secret);
    await shot(testerPage, "31-environment-tester");
  });

  let testId = "";
  await test.step("a run against Staging fills the secret and never shows it", async () => {
    const code = await agent!.code;
    const pairing = await page.request.get(`/api/agent/pair/${code}`);
    expect(pairing.status(), await pairing.text()).toBe(200);
    const approved = await page.request.post(`/api/agent/pair/${code}`);
    expect(approved.status(), await approved.text()).toBe(201);

    const label = (value: string) => ({ locators: [{ kind: "label", value }] });
    const id = await createTest(page.request, ws, {
      name: "Vault sign in",
      steps: [
        navigate("${baseUrl}/vault.html"),
        { id: "s2", type: "fill", target: label("Email"), value: admin.email },
        { id: "s3", type: "fill", target: label("Password"), value: "${secrets.PASSWORD}" },
        { id: "s4", type: "click", target: { locators: [{ kind: "role", value: "button", name: "Sign in" }] } },
        { id: "s5", type: "assertText", target: { locators: [{ kind: "testId", value: "greeting" }] }, expected: "Access granted" },
      ],
    });
    testId = id;
    await page.goto(`/tests/${id}`);
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Run Vault sign in" });
    await dialog.getByLabel("Environment").selectOption({ label: "Staging" });
    await shot(page, "31-run-dialog-environment");
    await dialog.getByRole("button", { name: "Start run" }).click();
    await expect(page).toHaveURL(/\/runs\/run_/);
    await expect(page.getByRole("region", { name: "Result" })).toContainText("Passed", { timeout: 30_000 });
    await expect(page.getByTestId("run-passed")).toHaveText("5/5");
    await expect(page.getByText("Staging", { exact: true })).toBeVisible();
    await shot(page, "31-run-passed-with-secret");
    const html = await page.content();
    expect(html).not.toContain(secret);
    expect(html).not.toContain(firstSecret);
    const runId = new URL(page.url()).pathname.split("/").pop();
    const run = await page.request.get(`/api/runs/${runId}`);
    expect(await run.text()).not.toContain(secret);
  });

  await test.step("protected: everyone sees it, and a Tester is told why a run is refused", async () => {
    await page.goto("/environments");
    await page.getByRole("button", { name: "Edit Staging" }).click();
    const form = page.getByRole("dialog", { name: "Edit environment Staging" });
    await form.getByRole("checkbox", { name: "Protected" }).check();
    await form.getByRole("button", { name: "Save", exact: true }).click();
    await expect(form).toHaveCount(0);
    await expect(page.getByRole("row", { name: /Staging/ })).toContainText("Protected");

    await testerPage.goto("/environments");
    await expect(testerPage.getByRole("row", { name: /Staging/ })).toContainText("Protected");
    await testerPage.goto(`/tests/${testId}`);
    await testerPage.getByRole("button", { name: "Run", exact: true }).click();
    const dialog = testerPage.getByRole("dialog", { name: "Run Vault sign in" });
    await dialog.getByLabel("Environment").selectOption({ label: "Staging (protected)" });
    await expect(dialog.getByRole("status")).toContainText("Staging is protected: its secrets go only to runs of Ready tests");
    await shot(testerPage, "31-run-dialog-protected");
    await dialog.getByRole("button", { name: "Start run" }).click();
    await expect(dialog.getByRole("alert")).toContainText('environment "Staging" is protected');
    await expect(testerPage).toHaveURL(new RegExp(`/tests/${testId}`));
  });

  await agent.stop();
  agent = null;
  await testerPage.context().close();
  expect(testerErrors, "errors in the Tester's browser console").toEqual([]);
});

test("suites: add, rename (its tests move), delete only when empty", async ({ page }) => {
  const ws = await workspace(page.request, person("suites", "Sam Suites"));
  await createTest(page.request, ws, { name: "Pay by card", suite: "Checkout" });
  await createTest(page.request, ws, { name: "Pay by invoice", suite: "Checkout" });

  await page.goto("/suites");
  // The page's own messages (the layout has an agent banner with the status role too).
  const status = page.getByRole("main").getByRole("status");
  await expect(page.getByRole("heading", { name: "Suites" })).toBeVisible();
  await page.getByLabel("New suite").fill("Returns");
  await page.getByRole("button", { name: "Add suite" }).click();
  await expect(status).toHaveText("Suite Returns added.");
  await expect(page.getByRole("row", { name: /Returns/ })).toContainText("0");
  await expect(page.getByRole("row", { name: /Checkout/ })).toContainText("2");
  await shot(page, "32-suites");

  await page.getByRole("button", { name: "Rename Checkout" }).click();
  const dialog = page.getByRole("dialog", { name: "Rename suite Checkout" });
  await dialog.getByLabel("New name").fill("Payments");
  await shot(page, "32-suite-rename");
  await dialog.getByRole("button", { name: "Rename" }).click();
  await expect(status).toContainText("Suite Checkout is now Payments: 2 tests moved");
  await expect(page.getByRole("link", { name: "Checkout" })).toHaveCount(0);
  await expect(page.getByRole("row", { name: /Payments/ })).toContainText("2");
  // The suite's tests moved with it, each with a new version.
  const moved = await listTests(page.request, ws, "suite=Payments");
  expect(moved.map((t) => t.name).sort()).toEqual(["Pay by card", "Pay by invoice"]);
  expect(await listTests(page.request, ws, "suite=Checkout")).toEqual([]);

  // A suite with tests cannot be deleted; an empty one can.
  await expect(page.getByRole("button", { name: "Delete Payments" })).toBeDisabled();
  await expect(page.getByText("Only empty suites can be deleted: move or delete a suite's tests first")).toBeVisible();
  await page.getByRole("button", { name: "Delete Returns" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete suite Returns?" });
  await confirm.getByRole("button", { name: "Delete suite" }).click();
  await expect(status).toHaveText("Suite Returns deleted.");
  await expect(page.getByRole("link", { name: "Returns" })).toHaveCount(0);
  await shot(page, "32-suites-after");

  // The suite link opens the test list filtered to it.
  await page.getByRole("link", { name: "Payments" }).click();
  await expect(page).toHaveURL(/\/tests\?suite=Payments/);
  await expect(page.getByRole("link", { name: "Pay by card" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Pay by invoice" })).toBeVisible();
});

test("import a Selenium IDE project through the Import dialog and open the test", async ({ page }) => {
  await workspace(page.request, person("import", "Ian Import"));
  await page.goto("/tests");
  await page.getByRole("button", { name: "Import" }).click();
  const dialog = page.getByRole("dialog", { name: "Import tests" });
  await dialog.getByLabel("Test file").setInputFiles(sideFile);
  await expect(dialog.getByText(/sign-in\.side is read/)).toBeVisible();
  await shot(page, "33-import-file");
  await dialog.getByRole("button", { name: "Import tests" }).click();
  await expect(dialog.getByRole("status")).toContainText("Imported 1 test");
  await expect(dialog.getByRole("status")).toContainText("Converted from a Selenium IDE project.");
  const link = dialog.getByRole("link", { name: "Recorded sign in" });
  await expect(link).toBeVisible();
  await expect(dialog.getByRole("listitem").filter({ hasText: "Recorded sign in" })).toContainText("v1 Draft 3 steps");
  await shot(page, "33-import-done");

  await link.click();
  await expect(page).toHaveURL(/\/tests\/tc_/);
  await expect(page.getByRole("heading", { level: 1, name: "Recorded sign in" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Step 1: Open / })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Step 2: Fill / })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Step 3: Click / })).toBeVisible();
  await shot(page, "33-import-opened");
  await page.goto("/tests");
  await expect(page.getByRole("row", { name: /Recorded sign in/ })).toContainText("Recorded");
});

test("editor actions: duplicate, export, sharing, deprecate and delete", async ({ page }) => {
  const ws = await workspace(page.request, person("actions", "Alma Actions"));
  const id = await createTest(page.request, ws, {
    name: "Checkout flow",
    suite: "Shop",
    steps: [navigate("https://shop.example.com/cart")],
  });

  await page.goto(`/tests/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Checkout flow" })).toBeVisible();

  await test.step("export as Playwright", async () => {
    await page.getByRole("button", { name: "Export as Playwright" }).click();
    const dialog = page.getByRole("dialog", { name: "Playwright script" });
    await expect(dialog.getByLabel("Playwright script")).toContainText("await page.goto(");
    await expect(dialog.getByLabel("Playwright script")).toContainText("https://shop.example.com/cart");
    await shot(page, "34-export-playwright");
    await dialog.getByRole("button", { name: "Close", exact: true }).last().click();
    await expect(dialog).toHaveCount(0);
  });

  let copyURL = "";
  await test.step("duplicate lands on the copy", async () => {
    await page.getByRole("button", { name: "Duplicate", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Duplicate Checkout flow" });
    await expect(dialog.getByLabel("Name of the copy")).toHaveValue("Checkout flow (copy)");
    await dialog.getByRole("button", { name: "Duplicate", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Checkout flow (copy)" })).toBeVisible();
    expect(new URL(page.url()).pathname).not.toBe(`/tests/${id}`);
    copyURL = new URL(page.url()).pathname;
    await expect(page.getByText("v1", { exact: true })).toBeVisible();
    await shot(page, "34-duplicate");
  });

  await test.step("sharing: make the copy private", async () => {
    await expect(page.getByText("Shared", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Sharing" }).click();
    const dialog = page.getByRole("dialog", { name: "Sharing" });
    await dialog.getByRole("radio", { name: "Private" }).check();
    await shot(page, "34-sharing");
    await dialog.getByRole("button", { name: "Save sharing" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText("Private", { exact: true })).toBeVisible();
    const res = await page.request.get(`/api/tests/${copyURL.split("/").pop()}`);
    expect((await res.json()).visibility).toBe("Private");
  });

  await test.step("delete the copy after confirming", async () => {
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Checkout flow (copy)?" });
    await expect(dialog).toContainText("This cannot be undone.");
    await shot(page, "34-delete-confirm");
    await dialog.getByRole("button", { name: "Delete test" }).click();
    await expect(page).toHaveURL(/\/tests$/);
    await expect(page.getByRole("link", { name: "Checkout flow", exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Checkout flow (copy)" })).toHaveCount(0);
    expect((await page.request.get(`/api/tests/${copyURL.split("/").pop()}`)).status()).toBe(404);
  });

  await test.step("an Admin deprecates the Ready test: read-only, no Run", async () => {
    await page.goto(`/tests/${id}`);
    await page.getByRole("button", { name: "Mark Ready" }).click();
    await page.getByRole("dialog", { name: "Mark Checkout flow Ready?" }).getByRole("button", { name: "Mark Ready" }).click();
    await expect(page.getByText("This test is Ready and frozen.")).toBeVisible();
    await page.getByRole("button", { name: "Deprecate", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Deprecate Checkout flow?" });
    await dialog.getByRole("button", { name: "Deprecate" }).click();
    await expect(page.getByText("Deprecated tests are read-only; duplicate it to work from a copy.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Run", exact: true })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Delete", exact: true })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);
    await page.reload();
    await expect(page.getByText("Deprecated tests are read-only; duplicate it to work from a copy.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Run", exact: true })).toHaveCount(0);
    await shot(page, "34-deprecated");
  });
});

test("profile: changing the password signs out other sessions; forgot and reset", async ({ page, browser }) => {
  const who = person("profile", "Pia Profile");
  await workspace(page.request, who);
  const { page: other, errors: otherErrors } = await newPage(browser);
  await signIn(other, who.email, who.password);

  const second = "profile-password-2";
  await test.step("change the password on the profile page", async () => {
    await page.goto("/profile");
    await expect(page.getByRole("heading", { level: 1, name: "Profile" })).toBeVisible();
    const form = page.getByRole("region", { name: "Change password" });
    await form.getByLabel("Current password").fill(who.password);
    await form.getByLabel("New password", { exact: true }).fill(second);
    await form.getByLabel("Repeat the new password").fill(second);
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(form.getByRole("status")).toHaveText("Your password was changed. Your other sessions were signed out.");
    await shot(page, "35-profile-password-changed");
    // This session stays signed in.
    await page.goto("/tests");
    await expect(page.getByRole("heading", { name: "Tests" })).toBeVisible();
  });

  await test.step("the other session is signed out; the new password signs in", async () => {
    await other.goto("/tests");
    await expect(other).toHaveURL(/\/login\?next=%2Ftests/);
    await shot(other, "35-other-session-signed-out");
    await other.getByLabel("Email").fill(who.email);
    await other.getByLabel("Password").fill(who.password);
    await other.getByRole("button", { name: "Sign in" }).click();
    await expect(other.getByRole("alert")).toBeVisible();
    await signIn(other, who.email, second);
    await other.getByRole("button", { name: "Sign out" }).click();
    await expect(other).toHaveURL(/\/login/);
  });

  const third = "profile-password-3";
  await test.step("forgot: a reset link from the hub's log sets a new password", async () => {
    await other.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(other).toHaveURL(/\/forgot/);
    await other.getByLabel("Email").fill(who.email);
    await other.getByRole("button", { name: "Send reset link" }).click();
    await expect(other.getByRole("status")).toContainText(`If an account exists for ${who.email}, a reset link is on its way.`);
    await shot(other, "35-forgot-sent");

    const link = await resetLink(who.email);
    await other.goto(link);
    await expect(other.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
    await other.getByLabel("New password", { exact: true }).fill(third);
    await other.getByLabel("Repeat the new password").fill(third);
    await shot(other, "35-reset");
    await other.getByRole("button", { name: "Set password" }).click();
    await expect(other).toHaveURL(/\/login\?reset=1/);
    await expect(other.getByText("Your password was changed. Sign in with the new one.")).toBeVisible();
    await shot(other, "35-reset-done");
    await signIn(other, who.email, third);
    // The reset link works once.
    const again = await other.request.post("/api/auth/reset", {
      data: { token: new URL(link).searchParams.get("token"), password: "another-password-4" },
    });
    expect(again.status()).toBeGreaterThanOrEqual(400);
    // The old password no longer works.
    const old = await other.request.post("/api/auth/login", { data: { email: who.email, password: second } });
    expect(old.status()).toBe(401);
  });

  await other.context().close();
  expect(otherErrors, "errors in the other session's browser console").toEqual([]);
});

test("test list filters narrow the rows and survive a reload", async ({ page }) => {
  const ws = await workspace(page.request, person("filters", "Fay Filters"));
  await createTest(page.request, ws, { name: "Alpha login", suite: "Accounts" });
  await createTest(page.request, ws, { name: "Beta cart", suite: "Shop" });
  await createTest(page.request, ws, { name: "Gamma notes" });
  await createTest(page.request, ws, { name: "Delta scratch", visibility: "Private" });
  const all = ["Alpha login", "Beta cart", "Gamma notes", "Delta scratch"];
  const shows = async (names: string[]) => {
    for (const n of all) {
      await expect(page.getByRole("link", { name: n, exact: true })).toHaveCount(names.includes(n) ? 1 : 0);
    }
  };

  await page.goto("/tests");
  await expect(page.getByRole("heading", { level: 1, name: "Tests" })).toBeVisible();
  await shows(all);
  await shot(page, "36-tests-all");

  await page.getByLabel("Suite").selectOption({ label: "Unsorted" });
  await expect(page).toHaveURL(/unsorted=1/);
  await shows(["Gamma notes", "Delta scratch"]);
  await page.getByLabel("Visibility").selectOption({ label: "My private tests" });
  await expect(page).toHaveURL(/visibility=private/);
  await shows(["Delta scratch"]);
  await shot(page, "36-tests-unsorted-private");

  await page.reload();
  await expect(page.getByLabel("Suite").locator("option:checked")).toHaveText("Unsorted");
  await expect(page.getByLabel("Visibility").locator("option:checked")).toHaveText("My private tests");
  await shows(["Delta scratch"]);

  await page.getByRole("button", { name: "Clear filters" }).click();
  await shows(all);
  await page.getByRole("searchbox", { name: "Search" }).fill("beta");
  await expect(page).toHaveURL(/q=beta/);
  await shows(["Beta cart"]);
  // Search matches a suite name too.
  await page.getByRole("searchbox", { name: "Search" }).fill("accounts");
  await expect(page).toHaveURL(/q=accounts/);
  await shows(["Alpha login"]);
  await page.getByLabel("Suite").selectOption({ label: "Accounts" });
  await expect(page).toHaveURL(/suite=Accounts/);
  await shows(["Alpha login"]);
  await shot(page, "36-tests-search");

  await page.reload();
  await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue("accounts");
  await expect(page.getByLabel("Suite").locator("option:checked")).toHaveText("Accounts");
  await shows(["Alpha login"]);
});
