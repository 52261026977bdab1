// Every main screen fits a 1024 x 768 window: nothing scrolls sideways and
// every control of the top navigation stays in sight. The screens a tester
// works in all day (dashboard, editor, runs, a run, agents, profile) fit
// down to 800 px: their toolbars wrap and no two controls overlap.
import type { Page } from "@playwright/test";
import { expect, shot, test, type Agent } from "./fixtures";
import { newProject, pairAgent, post, stagingEnvironment } from "./setup";

let agent: Agent | null = null;

test.afterAll(async () => {
  await agent?.stop();
});

const lee = { name: "Lee Narrow", email: "lee@layout.e2e.test", password: "lee-password-12" };

/** fits checks the page does not scroll sideways and the top navigation is all in sight. */
async function fits(page: Page, name: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  await shot(page, `80-layout-${width}-${name}`);
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  // The innermost elements sticking out, to say what to fix.
  const out = await page.evaluate(
    (w) =>
      [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > w + 1 && ![...e.children].some((c) => c.getBoundingClientRect().right > w + 1))
        .slice(0, 5)
        .map((e) => `${e.tagName.toLowerCase()}.${String(e.className).replace(/ /g, ".")}`),
    width,
  );
  expect(scroll, `${name} scrolls sideways: ${out.join(", ")}`).toBeLessThanOrEqual(width);
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
}

/** apart checks that no two visible controls inside each of the boxes overlap. */
async function apart(page: Page, name: string, boxes: string): Promise<void> {
  const clashes = await page.locator(boxes).evaluateAll((els) =>
    els.flatMap((box) => {
      const rects = [...box.querySelectorAll("button, a, input, select, label, [role=status]")]
        .map((e) => ({ text: (e.textContent ?? "").trim().slice(0, 30) || e.tagName, r: e.getBoundingClientRect() }))
        .filter((c) => c.r.width > 0 && c.r.height > 0);
      const out: string[] = [];
      rects.forEach((a, i) =>
        rects.slice(i + 1).forEach((b) => {
          const inside = (x: DOMRect, y: DOMRect) => x.left >= y.left && x.right <= y.right && x.top >= y.top && x.bottom <= y.bottom;
          const meet = a.r.left < b.r.right - 1 && b.r.left < a.r.right - 1 && a.r.top < b.r.bottom - 1 && b.r.top < a.r.bottom - 1;
          if (meet && !inside(a.r, b.r) && !inside(b.r, a.r)) out.push(`${a.text} / ${b.text}`);
        }),
      );
      return out;
    }),
  );
  expect(clashes, `${name}: controls overlap`).toEqual([]);
}

test("every main screen fits a 1024 px wide window", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1024, height: 768 });
  const projectId = await newProject(page.request, lee, "Narrow Screens Incorporated", "A project with a rather long name");
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

test("the daily screens fit an 800 px wide window", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 800, height: 900 });
  const projectId = await newProject(
    page.request,
    { ...lee, email: "lee800@layout.e2e.test" },
    "Eight Hundred Pixels Incorporated",
    "A project with a rather long name",
  );
  const envId = await stagingEnvironment(page.request, projectId);
  // A run that ran, so the run page shows its steps and screenshots.
  agent = await pairAgent(page.request);
  const a = await post(
    page.request,
    "/api/tests",
    {
      name: "Sign in with a fairly long descriptive name",
      steps: [
        { id: "open", type: "navigate", url: "${baseUrl}/login.html" },
        { id: "email", type: "fill", target: { locators: [{ kind: "label", value: "Email" }] }, value: "lee@example.com" },
        { id: "pause", type: "wait", ms: 200 },
      ],
    },
    projectId,
  );
  const testId = a.id as string;
  const run = await post(page.request, "/api/runs", { testId, environmentId: envId, headed: false, screenshots: true }, projectId);

  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Latest runs" })).toBeVisible();
  await fits(page, "dashboard");

  await page.goto(`/tests/${testId}`);
  await page.getByRole("button", { name: /^Step 2: / }).click();
  await expect(page.getByRole("group", { name: "Step 2 fill" })).toBeVisible();
  await fits(page, "editor");
  await apart(page, "editor", ".page-header, .editor-toolbar, .steps-head, .add-step");

  await page.goto("/runs");
  await expect(page.getByRole("link", { name: run.runId as string })).toBeVisible();
  await fits(page, "runs");

  await page.goto(`/runs/${run.runId as string}`);
  await expect(page.getByRole("region", { name: "Result" })).toContainText("Passed", { timeout: 45_000 });
  await fits(page, "run");

  await page.goto("/agents");
  await expect(page.getByRole("heading").first()).toBeVisible();
  await fits(page, "agents");

  await page.goto("/profile");
  await expect(page.getByRole("heading").first()).toBeVisible();
  await fits(page, "profile");
  await apart(page, "profile", ".token-form");
  // The API token form is a left-aligned row of fields, not a right-aligned staircase (defect 6).
  const form = await page.getByRole("form", { name: "Create an API token" }).boundingBox();
  const fields = await page
    .locator(".token-form > .field")
    .evaluateAll((els) => els.map((e) => ({ left: e.getBoundingClientRect().left, bottom: e.getBoundingClientRect().bottom })));
  expect(fields.length).toBeGreaterThanOrEqual(3);
  expect(Math.abs(fields[0].left - (form?.x ?? -99)), "the first token field starts at the form's left edge").toBeLessThan(2);
  expect(Math.abs(fields[1].bottom - fields[0].bottom), "the token fields sit side by side").toBeLessThan(2);
  expect(fields[1].left, "the token fields sit side by side").toBeGreaterThan(fields[0].left);
});
