// Every main screen fits a 1024 x 768 window: nothing scrolls sideways and
// every control of the top navigation stays in sight.
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, shot, test } from "./fixtures";

const lee = { name: "Lee Narrow", email: "lee@layout.e2e.test", password: "lee-password-12" };

async function post(request: APIRequestContext, path: string, data: unknown, projectId?: string): Promise<Record<string, unknown>> {
  const res = await request.post(path, { data, headers: projectId ? { "x-project-id": projectId } : {} });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json().catch(() => ({}))) as Record<string, unknown>;
}

/** fits checks the page does not scroll sideways and the top navigation is all in sight. */
async function fits(page: Page, name: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scroll, `${name} scrolls sideways`).toBeLessThanOrEqual(width);
  const topbar = page.locator("header.topbar");
  const controls = [
    topbar.getByRole("link", { name: "Test Hub" }),
    ...["Dashboard", "Tests", "Runs", "Agents", "Admin"].map((l) =>
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: l, exact: true }),
    ),
    page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Setup" }),
    page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Library" }),
    topbar.getByRole("button", { name: "Sign out" }),
  ];
  for (const c of controls) {
    await expect(c).toBeVisible();
    const box = await c.boundingBox();
    expect(box, `${name}: a top navigation control has no box`).toBeTruthy();
    if (box) {
      expect(box.x, `${name}: a top navigation control starts off screen`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${name}: a top navigation control is cut off`).toBeLessThanOrEqual(width);
    }
  }
  await shot(page, `80-layout-1024-${name}`);
}

test("every main screen fits a 1024 px wide window", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1024, height: 768 });
  await post(page.request, "/api/auth/register", lee);
  const org = await post(page.request, "/api/orgs", { name: "Narrow Screens Incorporated" });
  const project = await post(page.request, `/api/orgs/${org.id as string}/projects`, { name: "A project with a rather long name" });
  const projectId = project.id as string;
  const env = await post(
    page.request,
    "/api/environments",
    { name: "Staging", variables: { baseUrl: "https://staging.example.com" } },
    projectId,
  );
  await post(page.request, "/api/applications", { name: "Shop", baseUrl: "https://shop.example.com" }, projectId);
  const steps = [
    { id: "open", type: "navigate", url: "${baseUrl}/login.html" },
    { id: "email", type: "fill", target: { locators: [{ kind: "label", value: "Email address" }] }, value: "${user}" },
    { id: "submit", type: "click", target: { locators: [{ kind: "role", value: "button", name: "Sign in" }] } },
    {
      id: "greeting",
      type: "assertText",
      target: { locators: [{ kind: "testId", value: "greeting" }] },
      expected: "Welcome back, ${user}",
    },
  ];
  const a = await post(
    page.request,
    "/api/tests",
    { name: "Sign in with a fairly long descriptive name", variables: { user: "lee@example.com" }, steps },
    projectId,
  );
  const b = await post(page.request, "/api/tests", { name: "Second test", steps: steps.slice(0, 2) }, projectId);
  const testId = a.id as string;
  const run = await post(page.request, "/api/runs", { testId, environmentId: env.id, headed: false, screenshots: true }, projectId);
  const batch = await post(page.request, "/api/runs", { testIds: [testId, b.id], environmentId: env.id, headed: false }, projectId);

  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Latest runs" })).toBeVisible();
  await fits(page, "dashboard");

  await page.goto("/tests");
  await expect(page.getByRole("link", { name: "Sign in with a fairly long descriptive name" })).toBeVisible();
  await fits(page, "tests");

  await page.goto(`/tests/${testId}`);
  await expect(page.getByText("Sign in").first()).toBeVisible();
  await fits(page, "editor");

  await page.goto(`/tests/${testId}/versions`);
  await expect(page.getByRole("heading").first()).toBeVisible();
  await fits(page, "versions");

  await page.goto("/runs");
  await expect(page.getByRole("link", { name: run.runId as string })).toBeVisible();
  await fits(page, "runs");

  await page.goto(`/runs/${run.runId as string}`);
  await expect(page.getByRole("heading").first()).toBeVisible();
  await fits(page, "run");

  await page.goto(`/batches/${batch.batchId as string}`);
  await expect(page.getByRole("heading").first()).toBeVisible();
  await fits(page, "batch");

  await page.goto("/environments");
  await expect(page.getByText("Staging").first()).toBeVisible();
  await fits(page, "environments");

  await page.goto("/applications");
  await expect(page.getByRole("heading").first()).toBeVisible();
  await fits(page, "applications");

  await page.goto("/suites");
  await expect(page.getByRole("heading").first()).toBeVisible();
  await fits(page, "suites");

  await page.goto("/agents");
  await expect(page.getByRole("heading").first()).toBeVisible();
  await fits(page, "agents");

  await page.goto("/admin");
  await expect(page.getByRole("heading").first()).toBeVisible();
  await fits(page, "admin");

  await page.goto("/profile");
  await expect(page.getByRole("heading").first()).toBeVisible();
  await fits(page, "profile");
});
