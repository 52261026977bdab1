// The main story of the product, through the web application only: pair an
// agent from the banner, write a test through the forms, run it and watch it
// live, mark it Ready as a Test Manager, revise it, restore a version, and
// keep a private test private even from an Admin.
import type { APIRequestContext, Browser, Locator, Page } from "@playwright/test";
import { expect, shot, signIn, site, startAgent, test, type Agent } from "./fixtures";

test.describe.configure({ mode: "serial" });

const tess = { name: "Tess Owner", email: "tess@e2e.test", password: "tess-password-1" };
const max = { name: "Max Manager", email: "max@e2e.test", password: "max-password-12" };

let agent: Agent | null = null;
let testURL = "";

async function apiRegister(request: APIRequestContext, who: typeof tess): Promise<void> {
  const res = await request.post("/api/auth/register", { data: { name: who.name, email: who.email, password: who.password } });
  expect(res.status(), await res.text()).toBe(201);
}

async function newPage(browser: Browser): Promise<Page> {
  const ctx = await browser.newContext({ baseURL: process.env.E2E_HUB, viewport: { width: 1280, height: 800 } });
  return ctx.newPage();
}

/** step opens step n of the editor (if closed) and answers its form. */
async function step(page: Page, n: number, type: string): Promise<Locator> {
  const group = page.getByRole("group", { name: `Step ${n} ${type}` });
  if (!(await group.isVisible())) await page.getByRole("button", { name: new RegExp(`^Step ${n}: `) }).click();
  await expect(group).toBeVisible();
  return group;
}

async function addStep(page: Page, type: string): Promise<void> {
  await page.getByLabel("Step type").selectOption(type);
  await page.getByRole("button", { name: "Add step" }).click();
}

async function setLocator(group: Locator, n: number, kind: string, value: string, name?: string): Promise<void> {
  await group.getByLabel(`Locator ${n} kind`).selectOption(kind);
  await group.getByLabel(`Locator ${n} value`).fill(value);
  if (name !== undefined) await group.getByLabel(`Locator ${n} name`).fill(name);
}

test.afterAll(async () => {
  await agent?.stop();
});

test("pair an agent from the banner, write a test through the forms, run it and watch it live", async ({ page, browser }) => {
  test.setTimeout(150_000);
  await apiRegister(page.request, tess);
  const org = await (await page.request.post("/api/orgs", { data: { name: "Globex" } })).json();
  await page.request.post(`/api/orgs/${org.id}/projects`, { data: { name: "Web shop" } });

  // Max registers on his own; Tess invites him as Test Manager from the admin page.
  const maxPage = await newPage(browser);
  await apiRegister(maxPage.request, max);
  await maxPage.request.post("/api/auth/logout"); // he signs in through the page later
  await page.goto("/admin");
  const invite = page.locator("form", { has: page.getByRole("button", { name: "Invite" }) });
  await invite.getByLabel("Email").fill(max.email);
  await invite.getByLabel("Role").selectOption("Test Manager");
  await invite.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByLabel(`Role of ${max.name}`)).toHaveValue("Test Manager");
  await shot(page, "10-admin-members");

  await test.step("pair the agent from the banner", async () => {
    await page.goto("/tests");
    const banner = page.getByRole("status").filter({ hasText: "Runs need a paired agent" });
    await expect(banner).toBeVisible();
    await shot(page, "11-agent-needed-banner");
    agent = startAgent();
    const code = await agent.code;
    await banner.getByRole("link", { name: "Pair a computer" }).click();
    await expect(page).toHaveURL(/\/agents$/);
    await page.getByLabel("Pairing code").fill(code);
    await page.getByRole("button", { name: "Open", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Approve this computer?" })).toBeVisible();
    await shot(page, "12-pair-approve");
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByText(/Paired: .* is now connected/)).toBeVisible();
    await page.goto("/agents");
    await expect(page.getByRole("cell", { name: /connected/i }).first()).toBeVisible();
    await expect(page.getByText("Runs need a paired agent")).toHaveCount(0);
    await shot(page, "13-agents");
  });

  await test.step("create a test and add steps through the forms", async () => {
    await page.goto("/tests");
    await page.getByRole("button", { name: "New test" }).click();
    const dialog = page.getByRole("dialog", { name: "New test" });
    await dialog.getByLabel("Name").fill("Sign in");
    await dialog.getByLabel("Suite").fill("Accounts");
    await dialog.getByRole("radio", { name: "Shared" }).check();
    await dialog.getByRole("button", { name: "Create test" }).click();
    await expect(page).toHaveURL(/\/tests\/tc_/);
    testURL = new URL(page.url()).pathname;
    await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();

    await addStep(page, "navigate");
    await (await step(page, 1, "navigate")).getByLabel("URL", { exact: true }).fill(site("login.html"));
    await addStep(page, "fill");
    const fill = await step(page, 2, "fill");
    await setLocator(fill, 1, "label", "Email");
    await fill.getByLabel("Value", { exact: true }).fill(tess.email);
    await addStep(page, "click");
    await setLocator(await step(page, 3, "click"), 1, "role", "button", "Sign in");
    // A pause, so the page can be seen updating while the run is still going.
    await addStep(page, "wait");
    await (await step(page, 4, "wait")).getByLabel("Wait (ms)", { exact: true }).fill("4000");
    await addStep(page, "assertText");
    const check = await step(page, 5, "assertText");
    await setLocator(check, 1, "testId", "greeting");
    await check.getByLabel("Expected", { exact: true }).fill(`Welcome, ${tess.email}`);
    await expect(page.getByText("Unsaved changes")).toBeVisible();
    await shot(page, "14-editor-steps");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("Saved.")).toBeVisible();
    await page.reload();
    await expect(page.getByRole("button", { name: /^Step 5: Check the text of test id "greeting"/ })).toBeVisible();
  });

  await test.step("run it and watch the steps turn green live", async () => {
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Run Sign in" });
    await expect(dialog.getByRole("radio", { name: "Every step" })).toBeChecked();
    await dialog.getByRole("button", { name: "Start run" }).click();
    await expect(page).toHaveURL(/\/runs\/run_/);
    // Step 1 passes while the run is still going (the wait step holds it).
    await expect(page.getByTestId("step-1")).toContainText("passed");
    await expect(page.getByRole("button", { name: "Cancel run" })).toBeVisible();
    await shot(page, "15-run-live");
    // Reloading mid-run picks the stream up again: earlier events replay, later ones keep coming.
    await page.reload();
    await expect(page.getByTestId("step-1")).toContainText("passed");
    for (let n = 1; n <= 5; n++) await expect(page.getByTestId(`step-${n}`)).toContainText("passed");
    await expect(page.getByRole("region", { name: "Result" })).toContainText("Passed");
    await expect(page.getByTestId("run-passed")).toHaveText("5/5");
    await expect(page.getByRole("button", { name: "Cancel run" })).toHaveCount(0);
    await shot(page, "16-run-passed");

    await page.getByRole("button", { name: "Open screenshot of step 3" }).click();
    const viewer = page.getByRole("dialog", { name: "Screenshot of step 3" });
    const img = viewer.getByRole("img");
    await expect(img).toBeVisible();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(100);
    await shot(page, "17-run-screenshot");
    await viewer.getByRole("button", { name: "Close" }).click();

    // Reloading a finished run shows the same result.
    await page.reload();
    await expect(page.getByTestId("run-passed")).toHaveText("5/5");
    await page.goto("/runs");
    await expect(page.getByRole("cell", { name: "Sign in" }).first()).toBeVisible();
    await shot(page, "18-runs");
    await page.goto("/");
    await expect(page.getByRole("table", { name: "Latest runs" })).toContainText("Sign in");
    await shot(page, "19-dashboard");
  });

  await test.step("a Test Manager marks it Ready; editing is refused", async () => {
    await signIn(maxPage, max.email, max.password);
    await maxPage.goto(testURL);
    await maxPage.getByRole("button", { name: "Mark Ready" }).click();
    await maxPage.getByRole("dialog", { name: "Mark Sign in Ready?" }).getByRole("button", { name: "Mark Ready" }).click();
    await expect(maxPage.getByText("This test is Ready and frozen. Start a new revision to change it.")).toBeVisible();
    await expect(maxPage.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);
    await expect(maxPage.getByRole("button", { name: "Add step" })).toHaveCount(0);
    // The hub refuses an edit made some other way, too.
    const id = testURL.split("/").pop();
    const got = await maxPage.request.get(`/api/tests/${id}`);
    const body = await got.json();
    const put = await maxPage.request.put(`/api/tests/${id}`, { data: { ...body.document, name: "Changed" } });
    expect(put.status()).toBe(409);
    await shot(maxPage, "20-editor-ready");
  });

  await test.step("revise, then restore the first version", async () => {
    await maxPage.getByRole("button", { name: "New revision" }).click();
    await maxPage.getByRole("dialog", { name: "Start a new revision?" }).getByRole("button", { name: "New revision" }).click();
    await expect(maxPage.getByText("v2", { exact: true })).toBeVisible();
    const nav = await step(maxPage, 1, "navigate");
    await nav.getByLabel("URL", { exact: true }).fill(site("login.html?v=2"));
    await maxPage.getByRole("button", { name: "Save", exact: true }).click();
    await expect(maxPage.getByText("Saved.")).toBeVisible();

    await maxPage.getByRole("link", { name: "History" }).click();
    await expect(maxPage.getByRole("heading", { name: "Version history of Sign in" })).toBeVisible();
    await maxPage.getByRole("button", { name: "Restore version 1" }).click();
    const confirm = maxPage.getByRole("dialog", { name: "Restore version 1?" });
    await confirm.getByRole("button", { name: "Restore" }).click();
    await expect(maxPage.getByText("Restored version 1 as version 3")).toBeVisible();
    await expect(maxPage.getByRole("cell", { name: "restored from version 1" })).toBeVisible();
    await shot(maxPage, "21-versions-restored");
    await maxPage.goto(testURL);
    await expect(maxPage.getByText("v3", { exact: true })).toBeVisible();
    await expect((await step(maxPage, 1, "navigate")).getByLabel("URL", { exact: true })).toHaveValue(site("login.html"));
  });

  await test.step("a private test is absent for an Admin", async () => {
    await maxPage.goto("/tests");
    await maxPage.getByRole("button", { name: "New test" }).click();
    const dialog = maxPage.getByRole("dialog", { name: "New test" });
    await dialog.getByLabel("Name").fill("Max scratch");
    await dialog.getByRole("radio", { name: "Private" }).check();
    await dialog.getByRole("button", { name: "Create test" }).click();
    await expect(maxPage).toHaveURL(/\/tests\/tc_/);
    const privateURL = new URL(maxPage.url()).pathname;
    await maxPage.goto("/tests");
    await expect(maxPage.getByRole("link", { name: /Max scratch/ })).toBeVisible();
    await shot(maxPage, "22-test-list-owner");

    // Tess is Admin of the organization, and still cannot see it.
    await page.goto("/tests");
    await expect(page.getByRole("link", { name: /Sign in/ })).toBeVisible();
    await expect(page.getByText("Max scratch")).toHaveCount(0);
    await shot(page, "23-test-list-admin");
    await page.goto(privateURL);
    await expect(page.getByRole("alert")).toContainText("not visible to you");
  });
  await maxPage.context().close();
});
