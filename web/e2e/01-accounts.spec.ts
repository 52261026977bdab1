import { expect, register, shot, test } from "./fixtures";

test.describe.configure({ mode: "serial" });

test("a new user registers, creates an organization and a project, signs out and in again", async ({ page }) => {
  await page.goto("/tests");
  // Without a session every page asks to sign in first, then returns.
  await expect(page).toHaveURL(/\/login\?next=%2Ftests/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await shot(page, "01-sign-in");

  await register(page, "Olga Owner", "olga@e2e.test", "olga-password-1");
  await expect(page.getByRole("heading", { name: "Welcome, Olga Owner" })).toBeVisible();
  await page.getByRole("button", { name: "Create an organization" }).click();
  await page.getByLabel("Organization name").fill("Acme");
  await page.getByLabel("First project's name").fill("Shop");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByLabel("Project", { exact: true })).toHaveValue(/prj_/);
  await expect(page.getByLabel("Project", { exact: true }).locator("option:checked")).toHaveText("Acme / Shop");
  await shot(page, "02-dashboard-new-project");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel("Email").fill("olga@e2e.test");
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toContainText(/wrong|incorrect|invalid/i);
  // A pairing link opened while signed out asks to sign in, then comes back to it.
  await page.goto("/pair/ZZZ-999");
  await expect(page).toHaveURL(/\/login\?next=%2Fpair%2FZZZ-999/);
  await page.getByLabel("Email").fill("olga@e2e.test");
  await page.getByLabel("Password").fill("olga-password-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/pair\/ZZZ-999$/);
  await expect(page.getByRole("alert")).toContainText("unknown or has expired");
  // The last project is remembered.
  await expect(page.getByLabel("Project", { exact: true }).locator("option:checked")).toHaveText("Acme / Shop");
});
