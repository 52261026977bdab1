// A file chosen through the live view (Issue 28): the agent runs
// headless, so a page's file input opens no chooser anybody could see. The
// live view shows the page's request over the picture; the person chooses
// one of the project's files, the page receives it, and the recording
// has the upload of that project file, with nothing offered again; the
// recorded test then replays green.
import { expect, shot, test } from "./fixtures";
import { clickInPicture, newProject, pairDebugAgent, stagingEnvironment, type DebugAgent } from "./setup";

const fin = { name: "Fin Chooser", email: "fin@chooser.e2e.test", password: "fin-password-1" };

let agent: DebugAgent | null = null;

test.afterAll(async () => {
  await agent?.stop();
});

test("choose a project file for the page through the live view", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1600, height: 1100 });
  const projectId = await newProject(page.request, fin, "Filers");
  await stagingEnvironment(page.request, projectId);
  const inProject = { "x-project-id": projectId };
  const file = await page.request.post("/api/files?name=report.txt", {
    headers: { ...inProject, "content-type": "application/octet-stream" },
    data: Buffer.from("Q3 numbers"),
  });
  expect(file.status(), await file.text()).toBe(201);
  const a = await pairDebugAgent(page.request);
  agent = a;

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
  const agentSite = await a.page("attach.html");

  await test.step("a click on the file input asks for a file over the picture", async () => {
    await clickInPicture(picture, agentSite.getByText("Attachment"));
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
