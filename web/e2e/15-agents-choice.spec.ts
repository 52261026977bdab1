// Agents told apart and chosen (issue 27): with a headless agent and one
// with a display connected, a headed run goes to the one with a display
// (defect 1: it went to the headless one); an agent is renamed and
// labelled on the Agents page, and the Run dialog offers it by name.
import type { APIRequestContext } from "@playwright/test";
import { expect, shot, site, startXvfb, test, type Agent } from "./fixtures";
import { newProject, pairAgent, post } from "./setup";

const stamp = Date.now().toString(36);
const agents: Agent[] = [];
let xvfb: { display: string; stop: () => void } | undefined;

test.afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  xvfb?.stop();
});

/** pair starts an agent and approves it as the signed-in user. */
async function pair(request: APIRequestContext, display?: string): Promise<void> {
  agents.push(await pairAgent(request, [], display));
}

test("a headed run goes to the agent with a display; agents are renamed and labelled", async ({ page }) => {
  test.setTimeout(180_000);
  const email = `choice-${stamp}@agents.e2e.test`;
  const projectId = await newProject(page.request, { name: "Cho Chooser", email, password: "choice-password-1" }, "Choice Co");
  xvfb = await startXvfb();
  await pair(page.request);
  await pair(page.request, xvfb.display);

  await test.step("rename and label the agent with a display on the Agents page", async () => {
    await page.goto("/agents");
    const rows = page.getByRole("row").filter({ hasText: "Connected" });
    await expect(rows).toHaveCount(2);
    const shown = rows.filter({ hasText: /Display/ }).filter({ hasNotText: "No display" });
    await expect(shown).toHaveCount(1);
    await expect(shown).toContainText("Idle");
    await expect(shown).toContainText(/Chrome\/\d+/);
    await shown.getByRole("button", { name: /^Edit / }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name").fill("Desk with a screen");
    await dialog.getByLabel("Labels").fill("Desk");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByRole("listitem")).toContainText("a label has only lower-case letters");
    await dialog.getByLabel("Labels").fill("linux, desk");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toHaveCount(0);
    const renamed = page.getByRole("row").filter({ hasText: "Desk with a screen" });
    await expect(renamed.getByLabel("Labels of Desk with a screen")).toHaveText(/desk\s*linux/);
    await shot(page, "150-agents-labelled");
  });

  const t = await post(
    page.request,
    "/api/tests",
    {
      name: "Shop title",
      steps: [
        { id: "open", type: "navigate", url: site("login.html") },
        { id: "check", type: "assertTitle", expected: "Shop sign-in" },
      ],
    },
    projectId,
  );

  for (const choice of ["Any idle agent with a display", "Desk with a screen"]) {
    await test.step(`a headed run on "${choice}" goes to the agent with a display`, async () => {
      await page.goto(`/tests/${t.id as string}`);
      await page.getByRole("button", { name: "Run", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Run Shop title" });
      await dialog.getByLabel("Headed (show the browser window)").check();
      const select = dialog.getByLabel("Agent");
      await expect(select.getByRole("option", { name: /no display/ })).toBeDisabled();
      const option = select.locator("option", { hasText: choice });
      await select.selectOption((await option.getAttribute("value")) ?? "");
      await shot(page, "151-run-dialog-agent");
      await dialog.getByRole("button", { name: "Start run" }).click();
      await expect(page.getByRole("heading", { name: "Result" })).toBeVisible({ timeout: 60_000 });
      await expect(page.getByText("Passed.", { exact: false }).first()).toBeVisible();
      // On the headless agent the page would say the window was not shown.
      await expect(page.getByText("this agent has no display")).toHaveCount(0);
    });
  }
  await shot(page, "152-headed-run-passed");
});
