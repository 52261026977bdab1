// The live view (Issue 27): the agent runs headless, as `make agent`
// starts it, so there is no window to click in. The editor shows the
// agent's page as a live picture; clicks and typing in the picture are
// sent to the page as real input and recorded (the secret as
// ${secrets.PASSWORD}), and a click in the picker's picture picks the
// element and fills the step at once. The agent's DevTools port is used
// only to learn where elements are, never to act on the page.
import { expect, shot, test } from "./fixtures";
import { clickInPicture, newProject, pairDebugAgent, stagingEnvironment, type DebugAgent } from "./setup";

test.describe.configure({ mode: "serial" });

const lee = { name: "Lee Viewer", email: "lee@view.e2e.test", password: "lee-password-1" };

let agent: DebugAgent | null = null;

test.afterAll(async () => {
  await agent?.stop();
});

test("record and pick through the live view on a headless agent", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1600, height: 1100 });
  const projectId = await newProject(page.request, lee, "Viewers");
  await stagingEnvironment(page.request, projectId, { PASSWORD: "s3cret" });
  const a = await pairDebugAgent(page.request);
  agent = a;

  await page.goto("/tests");
  await page.getByRole("button", { name: "New test" }).click();
  const dialog = page.getByRole("dialog", { name: "New test" });
  await dialog.getByLabel("Name").fill("Viewed sign in");
  await dialog.getByRole("button", { name: "Create test" }).click();
  await expect(page).toHaveURL(/\/tests\/tc_/);
  await expect(page.locator(".editor-toolbar").getByLabel("Environment")).toHaveValue(/^env_/);
  const panel = page.getByRole("region", { name: "Record" });
  const agentSite = await test.step("start recording: the page shows live", async () => {
    await page.getByRole("button", { name: "Record" }).click();
    await panel.getByLabel("Start URL").fill("/login.html");
    await panel.getByRole("button", { name: "Start recording" }).click();
    await expect(panel.getByRole("status").first()).toHaveText("Recording", { timeout: 30_000 });
    const picture = panel.getByRole("img", { name: /The recorded page, .*, live/ });
    await expect(picture).toBeVisible({ timeout: 30_000 });
    return a.page("login.html");
  });
  const picture = panel.getByRole("img", { name: /The recorded page, .*, live/ });

  await test.step("click and type in the picture: the steps appear", async () => {
    await expect(panel.getByRole("list", { name: /Captured steps/ })).toContainText("Open ${baseUrl}/login.html");
    await clickInPicture(picture, agentSite.getByLabel("Email"));
    await page.keyboard.type("lee@shop.test");
    await clickInPicture(picture, agentSite.getByLabel("Password"));
    await page.keyboard.type("s3cret");
    await page.keyboard.press("Enter");
    await expect(agentSite.getByTestId("greeting")).toHaveText("Welcome, lee@shop.test", { timeout: 20_000 });
    const captured = panel.getByRole("list", { name: /Captured steps/ });
    await expect(captured).toContainText('with "lee@shop.test"', { timeout: 20_000 });
    await expect(captured).toContainText("with ${secrets.PASSWORD}");
    await expect(captured).not.toContainText("s3cret");
    await expect(captured).toContainText("Enter");
    // The picture follows the page.
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await shot(page, "160-live-view-record");
  });

  await test.step("pick in the picker's picture: the step is filled at once", async () => {
    await page.getByLabel("Step type").selectOption("assertText");
    await page.getByRole("button", { name: "Add step" }).click();
    await page.getByRole("button", { name: "Pick element" }).click();
    const picker = page.getByRole("region", { name: "Pick element" });
    const pickPicture = picker.getByRole("img", { name: /live/ });
    await expect(pickPicture).toBeVisible({ timeout: 30_000 });
    await clickInPicture(pickPicture, agentSite.getByTestId("greeting"));
    await expect(picker.getByText(/Filled with .* and the other unique candidates as fallbacks/)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByLabel("Locator 1 value")).toHaveValue("greeting");
    await expect(page.getByLabel(/^Expected/)).toHaveValue("Welcome, lee@shop.test");
    await shot(page, "161-live-view-pick");
  });
});
