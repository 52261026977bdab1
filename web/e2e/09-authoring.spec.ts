// Authoring with the agent from the editor: record a sign-in with real
// (trusted) input in the agent's browser, driven through its DevTools port
// as a tester's mouse and keyboard would, see the steps arrive live, stop,
// save and run it green; pick an element and see every candidate locator;
// try a script and see its value and console line. The environment's base
// URL and secret come back as ${baseUrl} and ${secrets.PASSWORD}.
import { expect, shot, test } from "./fixtures";
import { newProject, pairDebugAgent, stagingEnvironment, type DebugAgent } from "./setup";

test.describe.configure({ mode: "serial" });

const ada = { name: "Ada Author", email: "ada@author.e2e.test", password: "ada-password-1" };

let agent: DebugAgent | null = null;

test.afterAll(async () => {
  await agent?.stop();
});

test("record, pick and try with the agent from the editor", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  const projectId = await newProject(page.request, ada, "Authors");
  await stagingEnvironment(page.request, projectId, { PASSWORD: "s3cret" });
  const a = await pairDebugAgent(page.request);
  agent = a;

  await page.goto("/tests");
  await page.getByRole("button", { name: "New test" }).click();
  const dialog = page.getByRole("dialog", { name: "New test" });
  await dialog.getByLabel("Name").fill("Recorded sign in");
  await dialog.getByRole("button", { name: "Create test" }).click();
  await expect(page).toHaveURL(/\/tests\/tc_/);
  const panel = page.getByRole("region", { name: "Record" });

  await test.step("record a sign-in with trusted input; the steps appear live", async () => {
    await page.getByRole("button", { name: "Record" }).click();
    // The editor's one environment choice: the project's only one already.
    await expect(page.locator(".editor-toolbar").getByLabel("Environment")).toHaveValue(/^env_/);
    await panel.getByLabel("Start URL").fill("/login.html");
    await panel.getByRole("button", { name: "Start recording" }).click();
    await expect(panel.locator(".record-status")).toHaveText("Recording", { timeout: 30_000 });

    const rec = await a.page("login.html");
    await rec.getByLabel("Email").click();
    await rec.keyboard.type("ada@shop.test");
    await rec.getByLabel("Password").click();
    await rec.keyboard.type("s3cret");
    await rec.getByRole("button", { name: "Sign in" }).click();
    await expect(rec.getByTestId("greeting")).toHaveText("Welcome, ada@shop.test");

    const captured = panel.getByRole("list", { name: /Captured steps/ });
    await expect(captured.getByRole("listitem").first()).toHaveText("Open ${baseUrl}/login.html");
    await expect(captured).toContainText('with "ada@shop.test"', { timeout: 20_000 });
    // The secret's value never shows: the hub writes the secret's name.
    await expect(captured).toContainText("with ${secrets.PASSWORD}");
    await expect(captured).not.toContainText("s3cret");
    await expect(captured).toContainText("Sign in");
    // The page shows live in the panel (the agent is headless).
    const preview = panel.getByRole("img", { name: /The recorded page, .*, live/ });
    await expect(preview).toBeVisible();
    // The PNG of the page has loaded (a broken image has no natural width).
    await expect
      .poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await shot(page, "90-record-panel");

    await panel.getByRole("button", { name: "Stop and add the steps" }).click();
    await expect(panel.getByRole("status").filter({ hasText: /Added \d+ recorded steps/ })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText("Unsaved changes")).toBeVisible();
    await expect(page.getByRole("button", { name: "Step 1: Open ${baseUrl}/login.html" })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Step \d+: .*"ada@shop\.test"/ })).toBeVisible();
  });

  await test.step("save and run the recording: green", async () => {
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Saved.")).toBeVisible();
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const run = page.getByRole("dialog", { name: "Run Recorded sign in" });
    // The environment the steps were recorded in is offered first.
    await expect(run.getByLabel("Environment")).toHaveValue(/^env_/);
    await run.getByRole("button", { name: "Start run" }).click();
    await expect(page).toHaveURL(/\/runs\/run_/);
    await expect(page.getByRole("region", { name: "Result" })).toContainText("Passed", { timeout: 60_000 });
    await page.goBack();
    await expect(page.getByRole("button", { name: /^Step 1: / })).toBeVisible();
  });

  await test.step("pick an element in the agent's browser and use one of its locators", async () => {
    // Step 2 comes after step 1: the picker opens where it happens, step 1
    // replayed on the editor's live session.
    await page.getByRole("button", { name: /^Step 2: / }).click();
    await expect(
      page.getByText(
        "Click the element in the agent's page, in the page where this step happens (the steps before it run first on your live session).",
      ),
    ).toBeVisible();
    await page.getByRole("button", { name: "Pick element" }).click();
    const picker = page.getByRole("region", { name: "Pick element" });
    await expect(
      picker.getByText("Click an element in the live picture below (or in the agent's browser window, when it shows one)."),
    ).toBeVisible({ timeout: 30_000 });
    const fresh = await a.page("login.html");
    await fresh.getByLabel("Password").click();
    const table = picker.getByRole("table");
    await expect(table).toBeVisible({ timeout: 20_000 });
    await expect(picker).toContainText("<input>");
    await expect(table.getByRole("row").nth(1)).toContainText("1");
    await shot(page, "91-picker");
    await table.getByRole("button", { name: /^Use / }).first().click();
    await expect(page.getByText(/Filled with .* and the other unique candidates as fallbacks/)).toBeVisible();
    await expect(page.getByLabel("Locator 1 value")).not.toHaveValue("");
  });

  await test.step("try a script: its value and console line", async () => {
    await page.getByLabel("Step type").selectOption("script");
    await page.getByRole("button", { name: "Add step" }).click();
    await page.getByLabel("Code", { exact: true }).fill("console.log('hello from try'); return document.title + ' ' + 6 * 7;");
    await page.getByRole("button", { name: "Try the script" }).click();
    const result = page.getByRole("region", { name: "Script result" });
    await expect(result).toBeVisible({ timeout: 30_000 });
    await expect(result).toContainText("Shop sign-in 42");
    await expect(result).toContainText("hello from try");
    await shot(page, "92-try-script");
  });
});
