// Issue 31, schedules: a Test Manager creates a schedule in the web app.
// While the cron is typed the hub's next five times appear in the chosen
// zone (a bad cron shows the hub's message instead); the saved schedule is
// listed with its next time, and pausing it clears that time.
import { expect, shot, test } from "./fixtures";
import { post } from "./setup";

const olga = { name: "Olga Owner", email: "olga@schedules.e2e.test", password: "olga-password-12" };
const tom = { name: "Tom Manager", email: "tom@schedules.e2e.test", password: "tom-password-123" };

test("a Test Manager schedules a suite and sees its next times", async ({ page, browser }) => {
  // Olga's organization and project, with a test in suite Checkout; Tom is its Test Manager.
  const owner = await browser.newContext({ baseURL: process.env.E2E_HUB });
  await post(owner.request, "/api/auth/register", olga);
  const org = await post(owner.request, "/api/orgs", { name: "Schedule Co" });
  const projectId = (await post(owner.request, `/api/orgs/${org.id as string}/projects`, { name: "Shop" })).id as string;
  await post(
    owner.request,
    "/api/tests",
    { name: "Checkout works", suite: "Checkout", steps: [{ id: "open", type: "navigate", url: "https://example.com/" }] },
    projectId,
  );
  await post(page.request, "/api/auth/register", tom);
  await post(owner.request, `/api/orgs/${org.id as string}/members`, { email: tom.email, role: "Test Manager" });
  await owner.close();

  await page.goto("/schedules");
  await expect(page.getByRole("heading", { name: "Schedules" })).toBeVisible();
  await page.getByRole("button", { name: "New schedule" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name", { exact: true }).fill("Nightly checkout");
  const cron = dialog.getByLabel("Cron", { exact: true });
  await cron.fill("");
  await cron.pressSequentially("30 2 * *");
  await expect(dialog.getByTestId("next-times-error")).toContainText("5 fields");
  await cron.pressSequentially(" 1-5");
  await dialog.getByRole("combobox", { name: "Time zone" }).selectOption("Asia/Tokyo");
  const times = dialog.getByTestId("next-times").getByRole("listitem");
  await expect(times).toHaveCount(5);
  const shown = await times.allTextContents();
  for (const t of shown) expect(t).toMatch(/^(Mon|Tue|Wed|Thu|Fri), \d{1,2} \w{3} \d{4}, 02:30 \(Asia\/Tokyo\)$/);
  expect(new Set(shown).size).toBe(5);
  await shot(page, "27-schedule-form");

  await dialog.getByRole("combobox", { name: "Suite", exact: true }).selectOption("Checkout");
  await dialog.getByRole("button", { name: "Create schedule" }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole("row").filter({ hasText: "Nightly checkout" });
  await expect(row).toContainText("Suite Checkout");
  await expect(row).toContainText("30 2 * * 1-5");
  await expect(row).toContainText(shown[0]);
  await shot(page, "27-schedules-list");

  // Pause it: no next time, and the hub agrees.
  await row.getByRole("checkbox", { name: "Nightly checkout enabled" }).click();
  await expect(row).toContainText("paused");
  const list = (await (await page.request.get("/api/schedules", { headers: { "x-project-id": projectId } })).json()) as {
    schedules: { name: string; enabled: boolean; nextAt: string | null }[];
  };
  expect(list.schedules).toEqual([expect.objectContaining({ name: "Nightly checkout", enabled: false, nextAt: null })]);
});
