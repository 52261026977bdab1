// A file chosen through the live view (Issue 28): the agent runs
// headless, so a page's file input opens no chooser anybody could see. The
// live view shows the page's request over the picture; the person chooses
// one of the project's files, the page receives it, and the recording
// has the upload of that project file, with nothing offered again; the
// recorded test then replays green.
import { chromium, type Browser, type Locator, type Page } from "@playwright/test";
import { expect, freePort, shot, startAgent, test, type Agent } from "./fixtures";

const fin = { name: "Fin Chooser", email: "fin@chooser.e2e.test", password: "fin-password-1" };

let agent: Agent | null = null;
let cdp: Browser | null = null;

test.afterAll(async () => {
  await cdp?.close().catch(() => {});
  await agent?.stop();
});

/** agentPage finds the agent's page whose URL contains part (to read where elements are). */
async function agentPage(port: number, part: string): Promise<Page> {
  let found: Page | undefined;
  await expect(async () => {
    await cdp?.close().catch(() => {});
    cdp = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
    found = cdp
      .contexts()
      .flatMap((c) => c.pages())
      .find((p) => p.url().includes(part));
    expect(found, `a page at ${part} in the agent's browser`).toBeTruthy();
  }).toPass({ timeout: 30_000 });
  return found!;
}

/** clickInPicture clicks, in the editor's live picture, where the agent's element shows. */
async function clickInPicture(page: Page, picture: Locator, agentEl: Locator) {
  const box = await agentEl.boundingBox();
  const width = await agentEl.page().evaluate(() => window.innerWidth);
  let shown = await picture.boundingBox();
  await expect(async () => {
    const before = shown;
    await page.waitForTimeout(300);
    shown = await picture.boundingBox();
    expect(shown).toEqual(before);
  }).toPass();
  const scale = shown!.width / width;
  await page.mouse.click(shown!.x + (box!.x + box!.width / 2) * scale, shown!.y + (box!.y + box!.height / 2) * scale);
}

test("choose a project file for the page through the live view", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1600, height: 1100 });
  const reg = await page.request.post("/api/auth/register", { data: fin });
  expect(reg.status(), await reg.text()).toBe(201);
  const org = await (await page.request.post("/api/orgs", { data: { name: "Filers" } })).json();
  const project = await (await page.request.post(`/api/orgs/${org.id}/projects`, { data: { name: "Shop" } })).json();
  const inProject = { "x-project-id": project.id };
  const env = await page.request.post("/api/environments", {
    headers: inProject,
    data: { name: "Staging", variables: { baseUrl: process.env.E2E_SITE ?? "" } },
  });
  expect(env.status(), await env.text()).toBe(201);
  const file = await page.request.post("/api/files?name=report.txt", {
    headers: { ...inProject, "content-type": "application/octet-stream" },
    data: Buffer.from("Q3 numbers"),
  });
  expect(file.status(), await file.text()).toBe(201);
  const port = await freePort();
  agent = startAgent(["--remote-debugging-port", String(port)]);
  const pair = await page.request.post(`/api/agent/pair/${await agent.code}`, { headers: inProject });
  expect(pair.status(), await pair.text()).toBeLessThan(300);

  await page.goto("/tests");
  await page.getByRole("button", { name: "New test" }).click();
  const dialog = page.getByRole("dialog", { name: "New test" });
  await dialog.getByLabel("Name").fill("Send a report");
  await dialog.getByRole("button", { name: "Create test" }).click();
  await expect(page).toHaveURL(/\/tests\/tc_/);
  await expect(page.locator(".editor-toolbar").getByLabel("Environment")).toHaveValue(/^env_/);
  const panel = page.getByRole("region", { name: "Record" });
  await page.getByRole("button", { name: "Record" }).click();
  await panel.getByLabel("Start URL").fill("/attach.html");
  await panel.getByRole("button", { name: "Start recording" }).click();
  await expect(panel.getByRole("status").first()).toHaveText("Recording", { timeout: 30_000 });
  const picture = panel.getByRole("img", { name: /The recorded page, .*, live/ });
  await expect(picture).toBeVisible({ timeout: 30_000 });
  const agentSite = await agentPage(port, "attach.html");

  await test.step("a click on the file input asks for a file over the picture", async () => {
    await clickInPicture(page, picture, agentSite.getByText("Attachment"));
    const chooser = panel.getByRole("dialog", { name: "The page asks for a file" });
    await expect(chooser).toBeVisible({ timeout: 20_000 });
    await chooser.getByRole("radio", { name: /report\.txt/ }).check();
    await shot(page, "230-live-view-file-chooser");
    await chooser.getByRole("button", { name: "Choose" }).click();
    await expect(chooser).toBeHidden();
  });

  await test.step("the page has the file and the recording its upload", async () => {
    await expect(agentSite.locator("#chosen")).toHaveText("report.txt (10 bytes)", { timeout: 20_000 });
    const captured = panel.getByRole("list", { name: /Captured steps/ });
    await expect(captured).toContainText('Upload report.txt to "Attachment"', { timeout: 20_000 });
    await shot(page, "231-live-view-file-chosen");
    const files = await (await page.request.get("/api/files", { headers: inProject })).json();
    expect(files.files.map((f: { name: string }) => f.name)).toEqual(["report.txt"]);
  });

  await test.step("the recorded upload replays green", async () => {
    await panel.getByRole("button", { name: "Stop and add the steps" }).click();
    await expect(panel.getByRole("status").filter({ hasText: /Added \d+ recorded steps/ })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("button", { name: 'Step 2: Upload report.txt to "Attachment"' })).toBeVisible();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Saved.")).toBeVisible();
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.getByRole("dialog", { name: "Run Send a report" }).getByRole("button", { name: "Start run" }).click();
    await expect(page).toHaveURL(/\/runs\/run_/);
    await expect(page.getByRole("region", { name: "Result" })).toContainText("Passed", { timeout: 60_000 });
    await expect(page.getByTestId("run-passed")).toHaveText("2/2");
  });
});
