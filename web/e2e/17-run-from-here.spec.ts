// Step by step from the editor on the user's own agent: "Run to here"
// signs half-way in on a fresh page, "Run from here" goes on from the page
// as it is and pauses at a step whose locator is wrong; "Pick a better
// locator" picks the button in the agent's browser (trusted input through
// its DevTools port), and "Continue" runs the fixed, unsaved step and the
// rest green.
import { expect, shot, test } from "./fixtures";
import { newProject, pairDebugAgent, post, stagingEnvironment, type DebugAgent } from "./setup";

test.describe.configure({ mode: "serial" });

const sam = { name: "Sam Stepper", email: "sam@steps.e2e.test", password: "sam-password-1" };

let agent: DebugAgent | null = null;

test.afterAll(async () => {
  await agent?.stop();
});

const target = (kind: string, value: string, name?: string) => ({ locators: [{ kind, value, ...(name ? { name } : {}) }] });

test("run from here, pause on a failure, pick a better locator, continue", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  const projectId = await newProject(page.request, sam, "Steppers");
  await stagingEnvironment(page.request, projectId, { PASSWORD: "s3cret" });
  const created = await post(
    page.request,
    "/api/tests",
    {
      dsl: 2,
      name: "Sign in step by step",
      steps: [
        { id: "open", type: "navigate", url: "${baseUrl}/login.html" },
        { id: "email", type: "fill", value: "sam@shop.test", target: target("label", "Email") },
        { id: "password", type: "fill", value: "${secrets.PASSWORD}", target: target("css", "#password") },
        { id: "submit", type: "click", timeoutMs: 1500, target: target("css", "#no-such-button") },
        { id: "greet", type: "assertText", expected: "Welcome, sam@shop.test", target: target("testId", "greeting") },
      ],
    },
    projectId,
  );
  const testId = created.id as string;
  const a = await pairDebugAgent(page.request);
  agent = a;

  await page.goto(`/tests/${testId}`);
  const bar = page.getByRole("region", { name: "Run step by step" });
  await page.getByLabel("Environment").first().selectOption({ label: "Staging" });

  await test.step("run to here: the first three steps on a fresh page", async () => {
    await page.getByRole("button", { name: /^Step 3: / }).click();
    await bar.getByRole("button", { name: "Run to here" }).click();
    await expect(bar.getByRole("status", { name: "Live session" })).toHaveText("Live session: ready", { timeout: 60_000 });
    await expect(page.locator('[data-step-key="id:password"] .step-mark')).toHaveText("✓ passed");
    await expect(page.locator('[data-step-key="id:open"] .step-mark')).toHaveText("✓ passed");
    await expect(page.locator('[data-step-key="id:submit"] .step-mark')).toHaveCount(0);
  });

  await test.step("run from here: the click fails and the session pauses there", async () => {
    await page.getByRole("button", { name: /^Step 4: / }).click();
    await bar.getByRole("button", { name: "Run from here" }).click();
    const paused = bar.getByRole("alert");
    await expect(paused).toContainText("Paused at step 4 (submit)", { timeout: 60_000 });
    await expect(page.locator('[data-step-key="id:submit"] .step-mark')).toHaveText("✗ failed");
    await expect(page.getByText("s3cret")).toHaveCount(0);
    await shot(page, "170-paused");
  });

  await test.step("pick a better locator on the paused page, then continue", async () => {
    await bar.getByRole("button", { name: "Pick a better locator" }).click();
    await expect(bar.getByRole("button", { name: /Click the element in the page below/ })).toBeVisible();
    const agentLogin = await a.page("login.html");
    // The page is where the step failed: the fields are filled.
    await expect(agentLogin.getByLabel("Email")).toHaveValue("sam@shop.test");
    await expect(async () => {
      await agentLogin.getByRole("button", { name: "Sign in" }).click({ timeout: 2_000 });
      await expect(page.getByText("Unsaved changes")).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByRole("button", { name: /^Step 4: / })).not.toContainText("#no-such-button");
    await bar.getByRole("button", { name: "Continue" }).click();
    await expect(bar.getByRole("status", { name: "Live session" })).toHaveText("Live session: ready", { timeout: 60_000 });
    await expect(page.locator('[data-step-key="id:submit"] .step-mark')).toHaveText("✓ passed");
    await expect(page.locator('[data-step-key="id:greet"] .step-mark')).toHaveText("✓ passed");
    await expect(bar.getByRole("alert")).toHaveCount(0);
    await shot(page, "171-continued");
  });
});
