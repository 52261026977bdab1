// The steps real suites need (issue 28), written through the inspector: a
// dialog, a tab switch whose index shows only with to: index, a right-click
// with a modifier and a position, an upload, a drag with its drop target, a
// viewport and a soft negated assertion. Each reads as one line in the step
// list, and the lines are the same after saving and reloading.
import type { Locator, Page } from "@playwright/test";
import { expect, shot, test } from "./fixtures";

const nia = { name: "Nia New", email: "nia@new-steps.e2e.test", password: "nia-password-1" };

async function lines(page: Page): Promise<string[]> {
  return page.locator(".step-line").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label") ?? ""));
}

/** add adds a step of a type and returns its form, open in the inspector. */
async function add(page: Page, type: string, n: number): Promise<Locator> {
  await page.getByLabel("Step type").selectOption(type);
  await page.getByRole("button", { name: "Add step" }).click();
  const group = page.getByRole("group", { name: `Step ${n} ${type}` });
  if (!(await group.isVisible())) await page.getByRole("button", { name: new RegExp(`^Step ${n}: `) }).click();
  await expect(group).toBeVisible();
  return group;
}

async function locate(scope: Locator, kind: string, value: string): Promise<void> {
  await scope.getByLabel("Locator 1 kind").selectOption(kind);
  await scope.getByLabel("Locator 1 value").fill(value);
}

test("write the new steps through the inspector and read them as lines", async ({ page }) => {
  const reg = await page.request.post("/api/auth/register", { data: nia });
  expect(reg.status(), await reg.text()).toBe(201);
  const org = await (await page.request.post("/api/orgs", { data: { name: "New steps" } })).json();
  const project = await (await page.request.post(`/api/orgs/${org.id}/projects`, { data: { name: "Shop" } })).json();
  const created = await page.request.post("/api/tests", {
    headers: { "X-Project-Id": project.id },
    data: { dsl: 2, name: "New steps", steps: [{ id: "s1", type: "navigate", url: "https://shop.test/" }] },
  });
  expect(created.status(), await created.text()).toBe(201);
  // A project file for the upload step, put on the Files page.
  await page.goto("/files");
  await page
    .locator("input[type=file]")
    .setInputFiles({ name: "report.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 q3") });
  await expect(page.getByRole("row", { name: /report\.pdf/ })).toBeVisible();
  await page.goto(`/tests/${(await created.json()).id}`);
  await expect(page.getByRole("heading", { name: "New steps" })).toBeVisible();

  const dialog = await add(page, "dialog", 2);
  await dialog.getByLabel("Action").selectOption("accept");
  await dialog.getByLabel("Expected", { exact: true }).fill("Delete 3 items?");
  await dialog.getByLabel("Match").selectOption("equals");

  const tab = await add(page, "switchTab", 3);
  await expect(tab.getByLabel("Tab index")).toHaveCount(0);
  await tab.getByLabel("To", { exact: true }).selectOption("index");
  await tab.getByLabel("Tab index").fill("1");
  await expect(page.getByRole("button", { name: /^Step 3: / })).toHaveAccessibleName("Step 3: Switch to the tab at index 1");
  // Back to new: the index goes with it, and the new step had no match to refuse.
  await tab.getByLabel("To", { exact: true }).selectOption("new");
  await expect(tab.getByLabel("Tab index")).toHaveCount(0);

  const click = await add(page, "click", 4);
  await locate(click, "text", "Row 3");
  await click.getByLabel("Button").selectOption("right");
  await click.getByRole("group", { name: "Modifier keys" }).getByRole("checkbox", { name: "Shift" }).check();
  const position = click.getByRole("group", { name: "Position (x, y)" });
  await position.getByRole("spinbutton", { name: "x" }).fill("5");
  await position.getByRole("spinbutton", { name: "y" }).fill("10");
  await shot(page, "21-new-steps-click");

  const upload = await add(page, "upload", 5);
  await locate(upload, "label", "Attachment");
  const files = upload.getByRole("group", { name: "Files" });
  // Chosen by name among the project's files, never typed as an id.
  await files.getByRole("combobox", { name: "Add to files" }).selectOption({ label: "report.pdf (11 B)" });
  await files.getByRole("button", { name: "Add" }).click();
  await expect(files.getByRole("button", { name: "Remove report.pdf" })).toBeVisible();

  const drag = await add(page, "dragTo", 6);
  await locate(drag.getByRole("group", { name: "Element" }), "text", "Card");
  await locate(drag.getByRole("group", { name: "Drop target" }), "text", "Done");

  const viewport = await add(page, "setViewport", 7);
  await viewport.getByLabel("Width").fill("390");
  await viewport.getByLabel("Height").fill("844");

  const assert = await add(page, "assertText", 8);
  await locate(assert, "label", "Title");
  await assert.getByLabel("Expected", { exact: true }).fill("Draft");
  await assert.getByLabel("Match").selectOption("equals");
  await assert.getByLabel("Negate (not)").check();
  await assert.getByLabel("Soft (record and go on)").check();

  const want = [
    "Step 1: Open https://shop.test/",
    'Step 2: Accept the dialog "Delete 3 items?"',
    "Step 3: Switch to the new tab",
    'Step 4: Shift+right-click the text "Row 3" at 5, 10',
    'Step 5: Upload report.pdf to "Attachment"',
    'Step 6: Drag the text "Card" to the text "Done"',
    "Step 7: Set the viewport to 390×844",
    'Step 8: Check the text of the field "Title" is not "Draft" (soft)',
  ];
  await expect.poll(() => lines(page)).toEqual(want);
  await shot(page, "21-new-steps");

  await page.getByRole("button", { name: /^Step 1: / }).click();
  await page.keyboard.press("Control+s");
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "New steps" })).toBeVisible();
  await expect.poll(() => lines(page)).toEqual(want);

  // The export speaks Playwright for them, on the device chosen.
  await page.getByRole("button", { name: "Export as Playwright" }).click();
  const exported = page.getByRole("dialog", { name: "Playwright script" });
  await exported.getByLabel("Device").selectOption("Pixel 7");
  const script = exported.getByLabel("Playwright script", { exact: true });
  await expect(script).toContainText("test.use({ ...devices['Pixel 7'] });");
  await expect(script).toContainText("page.once('dialog'");
  await expect(script).toContainText(".click({ button: 'right', modifiers: ['Shift'], position: { x: 5, y: 10 } });");
  await expect(script).toContainText("await page.setViewportSize({ width: 390, height: 844 });");
  await expect(script).toContainText("path.join(specFiles, 'report.pdf')"); // the project file, by name
  await shot(page, "21-new-steps-export");
});
