// Undo and redo in a real browser: edit a field, move a step, delete
// several, undo all of it with Ctrl+Z and the toolbar, redo it with
// Ctrl+Shift+Z and Ctrl+Y, and save what redo brought back. In a focused
// text field Ctrl+Z stays the browser's own undo of the typed text.
import type { Page } from "@playwright/test";
import { expect, shot, test } from "./fixtures";

const una = { name: "Una Undo", email: "una@undo.e2e.test", password: "una-password-1" };

async function lines(page: Page): Promise<string[]> {
  return page.locator(".step-line").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label") ?? ""));
}

test("undo and redo every edit in the editor", async ({ page }) => {
  const reg = await page.request.post("/api/auth/register", { data: una });
  expect(reg.status(), await reg.text()).toBe(201);
  const org = await (await page.request.post("/api/orgs", { data: { name: "Undoers" } })).json();
  const project = await (await page.request.post(`/api/orgs/${org.id}/projects`, { data: { name: "Shop" } })).json();
  const created = await page.request.post("/api/tests", {
    headers: { "X-Project-Id": project.id },
    data: {
      dsl: 2,
      name: "Undo walk",
      steps: [
        { id: "s1", type: "navigate", url: "https://shop.test/login" },
        { id: "s2", type: "fill", target: { locators: [{ kind: "label", value: "Email" }] }, value: "una@shop.test" },
        { id: "s3", type: "click", target: { locators: [{ kind: "role", value: "button", name: "Sign in" }] } },
        { id: "s4", type: "assertTitle", expected: "Welcome" },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = (await created.json()).id;
  await page.goto(`/tests/${id}`);
  await expect(page.getByRole("heading", { name: "Undo walk" })).toBeVisible();
  const start = await lines(page);
  expect(start).toHaveLength(4);
  const undo = page.getByRole("button", { name: "Undo" });
  const redo = page.getByRole("button", { name: "Redo" });
  await expect(undo).toBeDisabled();

  // 1. Edit a field: typed text, then the field's own Ctrl+Z takes back the last characters only.
  await page.getByRole("button", { name: /^Step 2: / }).click();
  const value = page.getByRole("group", { name: "Step 2 fill" }).getByLabel("Value", { exact: true });
  await value.fill("");
  await value.pressSequentially("amy@shop.test");
  await expect(value).toHaveValue("amy@shop.test");
  await value.press("Control+z");
  await expect(value).not.toHaveValue("amy@shop.test");
  await value.fill("amy@shop.test");
  const edited = await lines(page);

  // 2. Move a step by keyboard: step 1 goes down.
  await page.getByRole("button", { name: /^Step 1: / }).click();
  await page.getByRole("button", { name: /^Step 1: / }).press("Alt+ArrowDown");
  const moved = await lines(page);
  expect(moved[1]).toBe(edited[0].replace("Step 1", "Step 2"));

  // 3. Delete several: steps 3 and 4 together.
  await page.getByRole("button", { name: /^Step 3: / }).click();
  await page.getByRole("checkbox", { name: "Select step 4" }).check();
  await page.getByRole("button", { name: "Delete selected steps" }).click();
  const deleted = await lines(page);
  expect(deleted).toHaveLength(2);
  await expect(page.getByText("Unsaved changes")).toBeVisible();
  await shot(page, "18-undo-edited");

  // Undo all: Ctrl+Z on the step list, then the toolbar.
  await page.getByRole("button", { name: /^Step 1: / }).focus();
  await page.keyboard.press("Control+z");
  expect(await lines(page)).toEqual(moved);
  await page.keyboard.press("Control+z");
  expect(await lines(page)).toEqual(edited);
  while (await undo.isEnabled()) await undo.click();
  expect(await lines(page)).toEqual(start);
  await expect(page.getByText("Unsaved changes")).toBeHidden();

  // Redo all: Ctrl+Shift+Z, Ctrl+Y, then the toolbar.
  await page.getByRole("button", { name: /^Step 1: / }).focus();
  await page.keyboard.press("Control+Shift+z");
  await page.keyboard.press("Control+y");
  while (await redo.isEnabled()) await redo.click();
  expect(await lines(page)).toEqual(deleted);

  // What redo brought back saves as it reads; the history survives the save.
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await expect(undo).toBeEnabled();
  const saved = await (await page.request.get(`/api/tests/${id}`)).json();
  expect(saved.document.steps.map((s: { id: string }) => s.id)).toEqual(["s2", "s1"]);
  expect(saved.document.steps[0].value).toBe("amy@shop.test");
});
