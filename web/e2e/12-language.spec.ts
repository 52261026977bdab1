// Drafting steps from plain language: in the editor's Draft from text
// panel, a request goes to the hub's language model (the fake
// OpenAI-compatible server global-setup starts, e2e/fake-llm.ts), the
// paired agent checks every drafted target on the environment's page, the
// steps are inserted as unsaved edits, saved and run green; the request is
// kept as an example and listed in the project's learned examples.
import { expect, shot, startAgent, test, type Agent } from "./fixtures";
import { FAKE_LLM_MODEL, SIGN_IN_REQUEST } from "./fake-llm";

test.describe.configure({ mode: "serial" });

const lena = { name: "Lena Language", email: "lena@language.e2e.test", password: "lena-password-1" };

let agent: Agent | null = null;

test.afterAll(async () => {
  await agent?.stop();
});

test("draft steps from text, see them verified on the page, insert, save and run them green", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 1000 });
  const reg = await page.request.post("/api/auth/register", { data: lena });
  expect(reg.status(), await reg.text()).toBe(201);
  const org = await (await page.request.post("/api/orgs", { data: { name: "Linguists" } })).json();
  const project = await (await page.request.post(`/api/orgs/${org.id}/projects`, { data: { name: "Shop" } })).json();
  const env = await page.request.post("/api/environments", {
    headers: { "x-project-id": project.id },
    data: { name: "Staging", variables: { baseUrl: process.env.E2E_SITE ?? "" } },
  });
  expect(env.status(), await env.text()).toBe(201);
  agent = startAgent();
  const code = await agent.code;
  const pair = await page.request.post(`/api/agent/pair/${code}`, { headers: { "X-Project-Id": project.id } });
  expect(pair.status(), await pair.text()).toBeLessThan(300);

  await page.goto("/tests");
  await page.getByRole("button", { name: "New test" }).click();
  const dialog = page.getByRole("dialog", { name: "New test" });
  await dialog.getByLabel("Name").fill("Drafted sign in");
  await dialog.getByRole("button", { name: "Create test" }).click();
  await expect(page).toHaveURL(/\/tests\/tc_/);

  const panel = page.getByRole("region", { name: "Draft from text" });
  await test.step("draft the steps: each target is verified on the environment's page", async () => {
    await page.getByRole("button", { name: "Draft from text" }).click();
    await page.locator(".editor-toolbar").getByLabel("Environment").selectOption({ label: "Staging" });
    await panel.getByLabel("What should the steps do?").fill(SIGN_IN_REQUEST);
    await panel.getByRole("button", { name: "Generate" }).click();
    const steps = panel.getByRole("list", { name: /Proposed steps/ });
    await expect(steps).toBeVisible({ timeout: 60_000 });
    const items = steps.getByRole("listitem");
    await expect(items).toHaveCount(5);
    await expect(items.nth(0)).toContainText("Open ${baseUrl}/login.html");
    await expect(items.nth(0)).toContainText("No element");
    await expect(items.nth(1)).toContainText('Fill "Email" with "amy@shop.test"');
    await expect(items.nth(2)).toContainText('Fill "Password" with "amy-password-1"');
    await expect(items.nth(3)).toContainText('Click the button "Sign in"');
    await expect(items.nth(4)).toContainText('Check the text of test id "greeting"');
    for (const i of [1, 2, 3, 4]) await expect(items.nth(i)).toContainText("Verified: found 1 element");
    await expect(panel.getByText(FAKE_LLM_MODEL)).toBeVisible();
    await expect(panel.getByText(/Checked in your agent's browser on “Shop sign-in”/)).toContainText("4 found");
    // The step the model wrote without a target was left out, and says why.
    const dropped = panel.getByRole("list", { name: "Left out (1)" });
    await expect(dropped).toContainText("Proposed step 6");
    await expect(dropped).toContainText("tick remember me");
    await shot(page, "120-draft-from-text");
  });

  await test.step("insert them as unsaved edits and keep the request as an example", async () => {
    await panel.getByRole("button", { name: "Insert 5 steps" }).click();
    await expect(panel.getByText("Added 5 drafted steps to the test (unsaved).")).toBeVisible();
    await expect(page.getByText("Unsaved changes")).toBeVisible();
    await expect(page.getByRole("button", { name: "Step 1: Open ${baseUrl}/login.html" })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Step 5: Check the text of test id "greeting"/ })).toBeVisible();
    await panel.getByRole("button", { name: "Keep as example" }).click();
    await expect(panel.getByRole("button", { name: "Kept as example" })).toBeDisabled();
    await shot(page, "121-draft-inserted");
    await panel.getByRole("button", { name: "Close the Draft from text panel" }).click();
    await expect(panel).toBeHidden();
  });

  await test.step("save and run the drafted steps: green", async () => {
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Saved.")).toBeVisible();
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const run = page.getByRole("dialog", { name: "Run Drafted sign in" });
    // The environment the steps were drafted for is offered first.
    await expect(run.getByLabel("Environment")).toHaveValue(/^env_/);
    await run.getByRole("button", { name: "Start run" }).click();
    await expect(page).toHaveURL(/\/runs\/run_/);
    await expect(page.getByRole("region", { name: "Result" })).toContainText("Passed", { timeout: 60_000 });
    await shot(page, "122-drafted-run-passed");
  });

  await test.step("the kept example is listed in the project's learned examples", async () => {
    await page.goto("/admin?tab=examples");
    const table = page.getByRole("table");
    const row = table.getByRole("row").filter({ hasText: SIGN_IN_REQUEST });
    await expect(row).toBeVisible();
    await expect(row).toContainText(lena.name);
    await expect(row.getByRole("cell").nth(1)).toHaveText("5");
    await shot(page, "123-learned-examples");
  });
});
