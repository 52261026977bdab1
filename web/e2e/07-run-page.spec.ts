// The run page that explains a failure: a test whose last assertion fails
// against the fixture site runs on a real agent; the failed step's
// screenshot has the element's box drawn on it, the lightbox steps through
// the screenshots (buttons and arrow keys) and zooms on the element, the
// values each step used show with the secret masked, the failed step links
// to itself in the editor, Run again starts the same run, and the run page
// and the runs list fit a 1024 px wide window.
import type { Page } from "@playwright/test";
import { expect, shot, test, type Agent } from "./fixtures";
import { newProject, pairAgent, post, stagingEnvironment } from "./setup";

const ann = { name: "Ann Explainer", email: "ann@runpage.e2e.test", password: "ann-password-12" };
const secret = "Run-Page-Secret-4711";

let agent: Agent | null = null;
test.afterAll(async () => {
  await agent?.stop();
});

/** noCutOff checks that nothing sticks out of a window of the page's width. */
async function noCutOff(page: Page): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scroll, "the page scrolls sideways").toBeLessThanOrEqual(width);
}

test("a failed run explains itself on its screenshots, links to the step and runs again", async ({ page }) => {
  test.setTimeout(150_000);
  const projectId = await newProject(page.request, ann, "Explain Co");
  const envId = await stagingEnvironment(page.request, projectId, { PASSWORD: secret });
  agent = await pairAgent(page.request);

  const label = (value: string) => ({ locators: [{ kind: "label", value }] });
  const testDoc = await post(
    page.request,
    "/api/tests",
    {
      name: "Sign in explained",
      variables: { user: "ann@example.com" },
      steps: [
        { id: "open", type: "navigate", url: "${baseUrl}/login.html" },
        { id: "email", type: "fill", target: label("Email"), value: "${user}" },
        { id: "password", type: "fill", target: label("Password"), value: "${secrets.PASSWORD}" },
        { id: "submit", type: "click", target: { locators: [{ kind: "role", value: "button", name: "Sign in" }] } },
        {
          id: "greeting",
          type: "assertText",
          target: { locators: [{ kind: "testId", value: "greeting" }] },
          expected: "Welcome back, ${user}",
          timeoutMs: 1500,
        },
      ],
    },
    projectId,
  );
  const testId = testDoc.id as string;
  const run = await post(page.request, "/api/runs", { testId, environmentId: envId, headed: false, screenshots: true }, projectId);
  const runId = run.runId as string;

  await test.step("the failed step's screenshot shows the element's box", async () => {
    await page.goto(`/runs/${runId}`);
    await expect(page.getByRole("region", { name: "Result" })).toContainText("Failed", { timeout: 45_000 });
    await expect(page.getByTestId("run-passed")).toHaveText("4/5");
    const failed = page.getByTestId("step-5");
    await expect(failed.getByText(/expected the text to contain "Welcome back, ann@example.com"/)).toBeVisible();
    // Its picture in the filmstrip, numbered and marked failed, outlines the element.
    const film = page.getByTestId("film-5");
    await expect(film).toContainText("Step 5 failed");
    await expect(film.getByTestId("element-box")).toBeVisible();
    // What each step used, the secret masked.
    await expect(page.getByTestId("step-1-used")).toContainText(`opened ${process.env.E2E_SITE}/login.html`);
    await expect(page.getByTestId("step-2-used")).toContainText("typed ann@example.com");
    await expect(page.getByTestId("step-3-used")).toContainText("typed ***");
    await expect(page.getByTestId("step-5-used")).toContainText("expected Welcome back, ann@example.com");
    // An assertion's auto-wait is no retry.
    await expect(page.getByText(/retried/)).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);
    await shot(page, "70-run-failed-explained");
  });

  await test.step("the lightbox steps through the screenshots and zooms on the element", async () => {
    await page.getByRole("button", { name: "Open screenshot of step 5" }).click();
    let dialog = page.getByRole("dialog", { name: "Screenshot of step 5" });
    await expect(dialog.getByTestId("shot-position")).toHaveText("5 of 5");
    await expect(dialog.getByTestId("element-box")).toBeVisible();
    // The box sits on the greeting: inside the image, near its top.
    const img = await dialog.getByRole("img", { name: /Screenshot of step 5/ }).boundingBox();
    const box = await dialog.getByTestId("element-box").boundingBox();
    expect(img && box).toBeTruthy();
    if (img && box) {
      expect(box.x).toBeGreaterThanOrEqual(img.x - 2);
      expect(box.y).toBeGreaterThanOrEqual(img.y - 2);
      expect(box.x + box.width).toBeLessThanOrEqual(img.x + img.width + 2);
      expect(box.y).toBeLessThan(img.y + img.height / 2);
    }
    await shot(page, "71-run-lightbox-box");
    await dialog.getByRole("button", { name: "Zoom on the element" }).click();
    const zoomed = dialog.getByRole("img", { name: "The element of step 5, enlarged" });
    await expect(zoomed).toBeVisible();
    // The whole highlight shows: its right edge too.
    const win = await zoomed.boundingBox();
    const hl = await dialog.getByTestId("element-box-zoomed").boundingBox();
    expect(win && hl).toBeTruthy();
    if (win && hl) expect(hl.x + hl.width).toBeLessThanOrEqual(win.x + win.width);
    await shot(page, "72-run-lightbox-zoom");
    await dialog.getByRole("button", { name: "Whole screenshot" }).click();

    await page.keyboard.press("ArrowLeft");
    dialog = page.getByRole("dialog", { name: "Screenshot of step 4" });
    await expect(dialog.getByTestId("shot-position")).toHaveText("4 of 5");
    await dialog.getByRole("button", { name: "← Previous" }).click();
    dialog = page.getByRole("dialog", { name: "Screenshot of step 3" });
    await expect(dialog.getByTestId("element-box")).toBeVisible();
    await dialog.getByRole("button", { name: "Next →" }).click();
    await page.keyboard.press("ArrowRight");
    dialog = page.getByRole("dialog", { name: "Screenshot of step 5" });
    await expect(dialog.getByRole("button", { name: "Next →" })).toBeDisabled();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toHaveCount(0);
  });

  await test.step("the run page and the runs list fit 1024 px", async () => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.reload();
    await expect(page.getByRole("region", { name: "Result" })).toContainText("Failed");
    await noCutOff(page);
    const again = await page.getByRole("button", { name: "Run again" }).boundingBox();
    expect(again && again.x + again.width).toBeLessThanOrEqual(1024);
    await shot(page, "73-run-1024");
    await page.goto("/runs");
    await expect(page.getByRole("link", { name: runId })).toBeVisible();
    await noCutOff(page);
    await shot(page, "74-runs-1024");
    await page.goto(`/runs/${runId}`);
  });

  await test.step("Run again starts the same run", async () => {
    await page.getByRole("button", { name: "Run again" }).click();
    await expect(page).not.toHaveURL(new RegExp(`/runs/${runId}$`));
    await expect(page).toHaveURL(/\/runs\/run_/);
    await expect(page.getByRole("region", { name: "Result" })).toContainText("Failed", { timeout: 45_000 });
    await expect(page.getByText("Staging")).toBeVisible();
    await expect(page.getByTestId("step-3-used")).toContainText("typed ***");
  });

  await test.step("the failed step links to itself in the editor", async () => {
    await page.getByRole("link", { name: "Open step 5 in the editor" }).click();
    await expect(page).toHaveURL(new RegExp(`/tests/${testId}\\?step=greeting$`));
    await expect(page.getByRole("heading", { level: 1, name: "Sign in explained" })).toBeVisible();
  });
});
