// The compact editor through a tester's day: write a 10-step test without
// scrolling, reorder by keyboard and by drag, never lose an edit to the top
// navigation, save with Ctrl+S, Save and run the edited version, mark it
// Ready and revise it with notes, and compare two versions step by step.
import type { Locator, Page } from "@playwright/test";
import { expect, shot, site, startAgent, test, type Agent } from "./fixtures";

test.describe.configure({ mode: "serial" });

const eddie = { name: "Eddie Editor", email: "eddie@editor.e2e.test", password: "eddie-password-1" };

let agent: Agent | null = null;

test.afterAll(async () => {
  await agent?.stop();
});

/** lines reads the step list as it reads on screen: "Step 1: Open …". */
async function lines(page: Page): Promise<string[]> {
  return page
    .getByRole("list")
    .locator(".step-line")
    .evaluateAll((els) => els.map((e) => e.getAttribute("aria-label") ?? ""));
}

/** inspect shows step n in the inspector and answers its fields. */
async function inspect(page: Page, n: number, type: string): Promise<Locator> {
  const group = page.getByRole("group", { name: `Step ${n} ${type}` });
  if (!(await group.isVisible())) await page.getByRole("button", { name: new RegExp(`^Step ${n}: `) }).click();
  await expect(group).toBeVisible();
  return group;
}

/** add adds a step of type after the one shown and answers its fields. */
async function add(page: Page, n: number, type: string): Promise<Locator> {
  await page.getByLabel("Step type").selectOption(type);
  await page.getByRole("button", { name: "Add step" }).click();
  return inspect(page, n, type);
}

async function locator(group: Locator, kind: string, value: string, name?: string): Promise<void> {
  await group.getByLabel("Locator 1 kind").selectOption(kind);
  await group.getByLabel("Locator 1 value").fill(value);
  if (name !== undefined) await group.getByLabel("Locator 1 name").fill(name);
}

/** bottomOfList is where the last step line ends, at the top of the page. */
async function bottomOfList(page: Page): Promise<number> {
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await page.locator(".step-line").last().boundingBox();
  return (box?.y ?? 0) + (box?.height ?? 0);
}

test("write, reorder, guard, save, run, mark Ready, revise and compare in the compact editor", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1920, height: 1080 });
  const reg = await page.request.post("/api/auth/register", { data: eddie });
  expect(reg.status(), await reg.text()).toBe(201);
  const org = await (await page.request.post("/api/orgs", { data: { name: "Editors" } })).json();
  const project = await (await page.request.post(`/api/orgs/${org.id}/projects`, { data: { name: "Shop" } })).json();
  await page.request.post(`/api/orgs/${org.id}/projects`, { data: { name: "Back office" } });
  agent = startAgent();
  const code = await agent.code;
  const pair = await page.request.post(`/api/agent/pair/${code}`, { headers: { "X-Project-Id": project.id } });
  expect(pair.status(), await pair.text()).toBeLessThan(300);

  let testURL = "";
  await test.step("write a 10-step test in the compact editor, all of it on one screen", async () => {
    await page.goto("/tests");
    await page.getByRole("button", { name: "New test" }).click();
    const dialog = page.getByRole("dialog", { name: "New test" });
    await dialog.getByLabel("Name").fill("Checkout sign in");
    await dialog.getByRole("button", { name: "Create test" }).click();
    await expect(page).toHaveURL(/\/tests\/tc_/);
    testURL = new URL(page.url()).pathname;

    await (await add(page, 1, "navigate")).getByLabel("URL", { exact: true }).fill(site("login.html"));
    let g = await add(page, 2, "fill");
    await expect(g.getByLabel("Value", { exact: true })).toHaveAttribute("placeholder", /^e\.g\. /);
    await locator(g, "label", "Email");
    await g.getByLabel("Value", { exact: true }).fill("${user}");
    g = await add(page, 3, "fill");
    await locator(g, "label", "Password");
    await g.getByLabel("Value", { exact: true }).fill("secret");
    await locator(await add(page, 4, "click"), "role", "button", "Sign in");
    g = await add(page, 5, "assertText");
    await locator(g, "testId", "greeting");
    // Wrong on purpose: Save and run later runs the corrected version.
    await g.getByLabel("Expected", { exact: true }).fill("Goodbye");
    g = await add(page, 6, "assertTitle");
    await g.getByLabel("Expected", { exact: true }).fill("Signed in");
    await locator(await add(page, 7, "assertVisible"), "role", "button", "Sign in");
    await (await add(page, 8, "press")).getByLabel("Key", { exact: true }).fill("Tab");
    await (await add(page, 9, "screenshot")).getByLabel("Name", { exact: true }).fill("home");
    await (await add(page, 10, "wait")).getByLabel("Wait (ms)", { exact: true }).fill("100");
    await page.getByRole("button", { name: "Add variable" }).click();
    await page.getByLabel("Variable 1 name").fill("user");
    await page.getByLabel("Variable 1 value").fill("eddie@shop.test");

    expect(await lines(page)).toEqual([
      `Step 1: Open ${site("login.html")}`,
      'Step 2: Fill "Email" with ${user}',
      'Step 3: Fill "Password" with "secret"',
      'Step 4: Click the button "Sign in"',
      'Step 5: Check the text of test id "greeting" contains "Goodbye"',
      'Step 6: Check the page title contains "Signed in"',
      'Step 7: Check that the button "Sign in" is visible',
      "Step 8: Press Tab",
      'Step 9: Take a screenshot "home"',
      "Step 10: Wait 100 ms",
    ]);
    expect(await bottomOfList(page)).toBeLessThanOrEqual(1080);
    await shot(page, "40-editor-compact-10-steps");
  });

  await test.step("Ctrl+S saves", async () => {
    await expect(page.getByText("Unsaved changes")).toBeVisible();
    await page.keyboard.press("Control+s");
    await expect(page.getByText("Saved.")).toBeVisible();
  });

  await test.step("reorder by keyboard and by drag and drop", async () => {
    await page.getByRole("button", { name: /^Step 8: / }).click();
    await page.keyboard.press("Alt+ArrowUp");
    await expect(page.getByRole("button", { name: /^Step 7: / })).toHaveAccessibleName("Step 7: Press Tab");
    await expect(page.getByRole("button", { name: "Step 7: Press Tab" })).toBeFocused();
    await page.keyboard.press("Alt+ArrowDown");
    await expect(page.getByRole("button", { name: /^Step 8: / })).toHaveAccessibleName("Step 8: Press Tab");

    // Drag step 10 (the wait) above step 9 (the screenshot).
    const from = page.locator("li", { has: page.getByRole("button", { name: /^Step 10: / }) }).locator(".drag-handle");
    const to = page.locator("li", { has: page.getByRole("button", { name: /^Step 9: / }) });
    await from.dragTo(to, { targetPosition: { x: 40, y: 3 } });
    await expect(page.getByRole("button", { name: /^Step 9: / })).toHaveAccessibleName("Step 9: Wait 100 ms");
    await expect(page.getByRole("button", { name: /^Step 10: / })).toHaveAccessibleName('Step 10: Take a screenshot "home"');
    await shot(page, "41-editor-reordered");
    await page.keyboard.press("Control+s");
    await expect(page.getByText("Saved.")).toBeVisible();
  });

  await test.step("a dirty editor asks before the top navigation leaves it", async () => {
    await page.getByLabel("Suite").fill("Accounts");
    await expect(page.getByText("Unsaved changes")).toBeVisible();
    await page.getByRole("navigation").getByRole("link", { name: "Tests", exact: true }).click();
    const ask = page.getByRole("dialog", { name: "Leave without saving?" });
    await expect(ask).toBeVisible();
    await shot(page, "42-editor-leave-guard");
    await ask.getByRole("button", { name: "Stay on this page" }).click();
    await expect(page).toHaveURL(new RegExp(`${testURL}$`));
    await expect(page.getByLabel("Suite")).toHaveValue("Accounts");
    // The browser's Back button and the project switcher ask too.
    await page.evaluate(() => history.back());
    await page.getByRole("dialog", { name: "Leave without saving?" }).getByRole("button", { name: "Stay on this page" }).click();
    await expect(page).toHaveURL(new RegExp(`${testURL}$`));
    const current = await page.getByLabel("Project").inputValue();
    const other = current === project.id ? "Editors / Back office" : "Editors / Shop";
    await page.getByLabel("Project").selectOption({ label: other });
    await page.getByRole("dialog", { name: "Leave without saving?" }).getByRole("button", { name: "Stay on this page" }).click();
    await expect(page.getByLabel("Project")).toHaveValue(current);
    await expect(page.getByLabel("Suite")).toHaveValue("Accounts");
    await page.getByRole("navigation").getByRole("link", { name: "Tests", exact: true }).click();
    await page.getByRole("dialog", { name: "Leave without saving?" }).getByRole("button", { name: "Leave without saving" }).click();
    await expect(page).toHaveURL(/\/tests$/);
    await page.goto(testURL);
    await expect(page.getByLabel("Suite")).toHaveValue("");
  });

  await test.step("Save and run runs the edited version", async () => {
    const g = await inspect(page, 5, "assertText");
    await g.getByLabel("Expected", { exact: true }).fill("Welcome, eddie@shop.test");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const ask = page.getByRole("dialog", { name: "Save before running?" });
    await shot(page, "43-editor-save-and-run");
    await ask.getByRole("button", { name: "Save and run" }).click();
    const run = page.getByRole("dialog", { name: "Run Checkout sign in" });
    await run.getByRole("button", { name: "Start run" }).click();
    await expect(page).toHaveURL(/\/runs\/run_/);
    await expect(page.getByRole("region", { name: "Result" })).toContainText("Passed", { timeout: 60_000 });
    await page.goto(testURL);
    await expect(page.getByRole("button", { name: /^Step 5: / })).toHaveAccessibleName(
      'Step 5: Check the text of test id "greeting" contains "Welcome, eddie@shop.test"',
    );
  });

  await test.step("a failed step's link opens the editor on that step", async () => {
    const id = testURL.split("/").pop();
    const doc = await (await page.request.get(`/api/tests/${id}`)).json();
    const stepId = doc.document.steps[4].id as string;
    await page.goto(`${testURL}?step=${stepId}`);
    await expect(page.getByRole("group", { name: "Step 5 assertText" })).toBeVisible();
  });

  await test.step("Mark Ready with a note, then a new revision with a note", async () => {
    await page.getByRole("button", { name: "Mark Ready" }).click();
    const ready = page.getByRole("dialog", { name: "Mark Checkout sign in Ready?" });
    await ready.getByLabel("Note").fill("Reviewed with the shop team");
    await shot(page, "44-editor-mark-ready");
    await ready.getByRole("button", { name: "Mark Ready" }).click();
    await expect(page.getByText("This test is Ready and frozen. Start a new revision to change it.")).toBeVisible();

    await page.getByRole("button", { name: "New revision" }).click();
    const revise = page.getByRole("dialog", { name: "Start a new revision?" });
    await revise.getByLabel("Note").fill("Shorter pause");
    await revise.getByRole("button", { name: "New revision" }).click();
    await expect(page.getByText("v2", { exact: true })).toBeVisible();
    await (await inspect(page, 9, "wait")).getByLabel("Wait (ms)", { exact: true }).fill("50");
    await page.keyboard.press("Control+s");
    await expect(page.getByText("Saved.")).toBeVisible();
  });

  await test.step("the history shows every note and the steps changed between two versions", async () => {
    await page.getByRole("link", { name: "History" }).click();
    await expect(page.getByRole("cell", { name: "Reviewed with the shop team" })).toBeVisible();
    await expect(page.getByRole("cell", { name: "Shorter pause" })).toBeVisible();
    await page.getByLabel("Older version").selectOption("1");
    await page.getByLabel("Newer version").selectOption("2");
    await page.getByRole("button", { name: "Show changes" }).click();
    const changes = page.getByRole("list", { name: "Changed steps" });
    await expect(changes).toContainText("Changed step 9 → 9");
    await expect(changes).toContainText("Wait 50 ms");
    await expect(changes).toContainText("Wait (ms): 100 → 50");
    await expect(page.getByText("9 steps are unchanged.")).toBeVisible();
    await shot(page, "45-versions-diff");
  });
});

test("a 25-step test fits on one 1920x1080 screen", async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  const login = await page.request.post("/api/auth/login", { data: { email: eddie.email, password: eddie.password } });
  expect(login.status()).toBeLessThan(300);
  const projects = await (await page.request.get("/api/context")).json();
  const projectId = projects.organizations.find((o: { name: string }) => o.name === "Editors").projects[0].id as string;
  const steps = Array.from({ length: 25 }, (_, i) => ({
    id: `s${i + 1}`,
    type: "click",
    target: { locators: [{ kind: "role", value: "button", name: `Button number ${i + 1}` }] },
  }));
  const res = await page.request.post("/api/tests", {
    data: { dsl: 2, name: "Twenty-five steps", steps },
    headers: { "X-Project-Id": projectId },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = await res.json();
  await page.goto(`/tests/${id}`);
  await expect(page.getByRole("button", { name: /^Step 25: / })).toBeVisible();
  expect(await bottomOfList(page)).toBeLessThanOrEqual(1080);
  await shot(page, "46-editor-25-steps");
  // Down to 1024 px wide the list and the inspector stay side by side.
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.getByRole("button", { name: /^Step 3: / }).click();
  await expect(page.getByRole("group", { name: "Step 3 click" })).toBeInViewport();
  await shot(page, "47-editor-1024");
});
