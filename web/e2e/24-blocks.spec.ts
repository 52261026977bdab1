// Issue 29 in the editor: a test with an if (a step in its then-branch, one
// in its else-branch) and a repeat holding a step is built through the
// step list and the inspector, reads as an indented outline, is saved as
// a tree, and runs on a real agent: the if takes its then-branch, the
// repeat runs three times, and the run passes.
import type { Locator, Page } from "@playwright/test";
import { expect, shot, test, type Agent } from "./fixtures";
import { newProject, pairAgent, post, stagingEnvironment } from "./setup";

const bea = { name: "Bea Blocks", email: "bea@blocks.e2e.test", password: "bea-password-29" };

let agent: Agent | null = null;
test.afterAll(async () => {
  await agent?.stop();
});

async function lines(page: Page): Promise<string[]> {
  return page.locator(".step-line").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label") ?? ""));
}

/** add adds a step of a type with the button named add and answers its form, open in the inspector. */
async function add(page: Page, type: string, button: string, n: string): Promise<Locator> {
  await page.getByLabel("Step type").selectOption(type);
  await page.getByRole("button", { name: button, exact: true }).click();
  const group = page.getByRole("group", { name: `Step ${n} ${type}` });
  await expect(group).toBeVisible();
  return group;
}

async function css(scope: Locator, value: string): Promise<void> {
  await scope.getByLabel("Locator 1 kind").selectOption("css");
  await scope.getByLabel("Locator 1 value").fill(value);
}

test("build an if and a repeat in the editor, save them as a tree and run them", async ({ page }) => {
  test.setTimeout(120_000);
  const projectId = await newProject(page.request, bea, "Blocks Co");
  const envId = await stagingEnvironment(page.request, projectId);
  agent = await pairAgent(page.request);
  const created = await post(
    page.request,
    "/api/tests",
    { name: "Blocks", steps: [{ id: "open", type: "navigate", url: "${baseUrl}/login.html" }] },
    projectId,
  );
  await page.goto(`/tests/${created.id as string}`);
  await page.getByRole("button", { name: /^Step 1: / }).click();

  // An if after step 1: when the email field is visible, fill it; else click what is not there.
  const ifForm = await add(page, "if", "Add step", "2");
  await css(ifForm.getByRole("group", { name: "Condition" }), "#email");
  await shot(page, "240-blocks-condition");
  const fill = await add(page, "fill", "Add step into step 2", "2.1");
  await css(fill, "#email");
  await fill.getByLabel("Value", { exact: true }).fill("in-the-if");
  const other = await add(page, "click", "Add else step to step 2", "2.2");
  await css(other, "#missing");

  // A repeat after the if (the Add step button adds after the selected step, in its list).
  await page.getByRole("button", { name: /^Step 2: / }).click();
  const repeat = await add(page, "repeat", "Add step", "3");
  await repeat.getByLabel("Times").fill("3");
  const check = await add(page, "assertValue", "Add step into step 3", "3.1");
  await css(check, "#email");
  await check.getByLabel("Expected", { exact: true }).fill("in-the-if");

  const want = [
    "Step 1: Open ${baseUrl}/login.html",
    "Step 2: If css #email is visible",
    'Step 2.1: Fill css #email with "in-the-if"',
    "Step 2.2: Click css #missing",
    "Step 3: Repeat 3 times",
    'Step 3.1: Check the value of css #email contains "in-the-if"',
  ];
  await expect.poll(() => lines(page)).toEqual(want);
  await expect(page.getByLabel("Else of step 2")).toBeVisible();
  await shot(page, "241-blocks-editor");

  await page.keyboard.press("Control+s");
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.reload();
  await expect.poll(() => lines(page)).toEqual(want);
  // Collapsed, the repeat shows how many steps it holds.
  await page.getByRole("button", { name: "Collapse step 3" }).click();
  await expect(page.getByRole("button", { name: /^Step 3\.1: / })).toHaveCount(0);
  await expect(page.locator(".block-count")).toHaveText("1 step");

  const saved = await (await page.request.get(`/api/tests/${created.id as string}`)).json();
  const steps = saved.document.steps;
  expect(steps.map((s: { type: string }) => s.type)).toEqual(["navigate", "if", "repeat"]);
  expect(steps[1].steps.map((s: { type: string }) => s.type)).toEqual(["fill"]);
  expect(steps[1].else.map((s: { type: string }) => s.type)).toEqual(["click"]);
  expect(steps[2].steps.map((s: { type: string }) => s.type)).toEqual(["assertValue"]);

  const run = await post(page.request, "/api/runs", { testId: created.id, environmentId: envId, screenshots: false }, projectId);
  const runId = run.runId as string;
  await expect.poll(async () => (await (await page.request.get(`/api/runs/${runId}`)).json()).status, { timeout: 60_000 }).toBe("passed");
  const result = (await (await page.request.get(`/api/runs/${runId}`)).json()).result;
  expect(result.steps[1].branch).toBe("then");
  expect(result.steps[2].iterations).toHaveLength(3);
  await page.goto(`/runs/${runId}`);
  await expect(page.getByRole("region", { name: "Result" })).toContainText("Passed");
});
