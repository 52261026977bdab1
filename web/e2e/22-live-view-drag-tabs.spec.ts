// The live view's drags and tabs (Issue 28): on a headless agent, a
// person recording through the picture drags a card to another column
// (a press, moves and a release on the picture: one drag sent, recorded
// as dragTo), follows a link into a new tab, sees both tabs in the strip
// above the picture, goes back and forth, and closes the new tab with its
// ×. The agent's DevTools port is used only to learn where elements are.
import { expect, shot, test } from "./fixtures";
import { inPicture, newProject, pairDebugAgent, stagingEnvironment, type DebugAgent } from "./setup";

test.describe.configure({ mode: "serial" });

const kim = { name: "Kim Dragger", email: "kim@drag.e2e.test", password: "kim-password-1" };

let agent: DebugAgent | null = null;

test.afterAll(async () => {
  await agent?.stop();
});

test("drag and use tabs through the live view on a headless agent", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1600, height: 1100 });
  const projectId = await newProject(page.request, kim, "Draggers", "Board");
  await stagingEnvironment(page.request, projectId);
  const a = await pairDebugAgent(page.request);
  agent = a;

  await page.goto("/tests");
  await page.getByRole("button", { name: "New test" }).click();
  const dialog = page.getByRole("dialog", { name: "New test" });
  await dialog.getByLabel("Name").fill("Board walk");
  await dialog.getByRole("button", { name: "Create test" }).click();
  await expect(page).toHaveURL(/\/tests\/tc_/);
  await expect(page.locator(".editor-toolbar").getByLabel("Environment")).toHaveValue(/^env_/);
  const panel = page.getByRole("region", { name: "Record" });
  await page.getByRole("button", { name: "Record" }).click();
  await panel.getByLabel("Start URL").fill("/board.html");
  await panel.getByRole("button", { name: "Start recording" }).click();
  await expect(panel.getByRole("status").first()).toHaveText("Recording", { timeout: 30_000 });
  const picture = panel.getByRole("img", { name: /The recorded page, .*, live/ });
  await expect(picture).toBeVisible({ timeout: 30_000 });
  const board = await a.page("board.html");
  const captured = panel.getByRole("list", { name: /Captured steps/ });
  await expect(captured).toContainText("Open ${baseUrl}/board.html");

  await test.step("drag the card to Done in the picture: one dragTo", async () => {
    // The panel settles first (the captured steps above the picture grow as they arrive).
    await page.waitForTimeout(500);
    const from = await inPicture(picture, board.locator("#card1"));
    const to = await inPicture(picture, board.locator("#done"));
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 10 });
    await page.mouse.up();
    await expect(board.locator("#out")).toHaveText("Write report is in Done", { timeout: 20_000 });
    await expect(captured).toContainText("Drag", { timeout: 20_000 });
    await expect(captured).not.toContainText("Click");
  });

  const strip = panel.getByRole("tablist", { name: "Tabs of the page" });
  await test.step("a link opens a new tab: the strip shows both, the new one shown", async () => {
    const link = await inPicture(picture, board.locator("#help"));
    await page.mouse.click(link.x, link.y);
    await expect(strip.getByRole("tab", { name: "Help" })).toHaveAttribute("aria-selected", "true", { timeout: 20_000 });
    await expect(strip.getByRole("tab", { name: "Board" })).toHaveAttribute("aria-selected", "false");
    const help = await a.page("help.html");
    await page.waitForTimeout(500); // the picture of the new tab
    const thanks = await inPicture(picture, help.locator("#thanks"));
    await page.mouse.click(thanks.x, thanks.y);
    await expect(help.locator("#thanks")).toHaveText("Thanks!", { timeout: 20_000 });
    await expect(captured).toContainText("Switch to the new tab", { timeout: 20_000 });
    await shot(page, "220-live-view-tabs");
  });

  await test.step("back to the first tab, then the new one closed with its ×", async () => {
    await strip.getByRole("tab", { name: "Board" }).click();
    await expect(strip.getByRole("tab", { name: "Board" })).toHaveAttribute("aria-selected", "true", { timeout: 20_000 });
    await strip.getByRole("button", { name: "Close tab Help" }).click();
    await expect(strip).toHaveCount(0, { timeout: 20_000 });
    await expect(captured).toContainText("Close the tab", { timeout: 20_000 });
    await shot(page, "221-live-view-tab-closed");
  });
});
