// Runs of many tests: a suite of three tests (one failing against the
// fixture site) runs from the test list as one batch; the batch page sums it
// up (2 passed, 1 failed); the failing test is fixed and "Run the failed
// ones again" runs it alone, and it passes. The tests are written and fixed
// through the API: the editor is another story's.
import type { APIRequestContext } from "@playwright/test";
import { expect, shot, site, startAgent, test, type Agent } from "./fixtures";

test.describe.configure({ mode: "serial" });

const bea = { name: "Bea Batch", email: "bea@e2e.test", password: "bea-password-12" };

let agent: Agent | null = null;

test.afterAll(async () => {
  await agent?.stop();
});

function signInDoc(name: string, expected: string) {
  return {
    dsl: 2,
    name,
    suite: "Checkout",
    steps: [
      { id: "s1", type: "navigate", url: site("login.html") },
      { id: "s2", type: "fill", value: bea.email, target: { locators: [{ kind: "label", value: "Email" }] } },
      { id: "s3", type: "click", target: { locators: [{ kind: "role", value: "button", name: "Sign in" }] } },
      { id: "s4", type: "assertText", target: { locators: [{ kind: "testId", value: "greeting" }] }, expected, match: "contains" },
    ],
  };
}

/** A record the hub answered: the fields this spec reads. */
interface Answer {
  id: string;
  document: Record<string, unknown>;
}

async function ok(res: Awaited<ReturnType<APIRequestContext["get"]>>, status: number): Promise<Answer> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as Answer;
}

test("run a suite of three tests from the list, fix the failing one, run the failed ones again", async ({ page }) => {
  test.setTimeout(180_000);
  const api = page.request;
  await ok(await api.post("/api/auth/register", { data: bea }), 201);
  const org = await ok(await api.post("/api/orgs", { data: { name: "Batch Co" } }), 201);
  const project = await ok(await api.post(`/api/orgs/${org.id}/projects`, { data: { name: "Shop" } }), 201);
  const inProject = { "x-project-id": project.id };
  await ok(await api.post("/api/suites", { data: { name: "Checkout" }, headers: inProject }), 201);
  for (const [name, expected] of [
    ["Greets the user", `Welcome, ${bea.email}`],
    ["Says welcome", "Welcome"],
  ]) {
    await ok(await api.post("/api/tests", { data: { ...signInDoc(name, expected), visibility: "Shared" }, headers: inProject }), 201);
  }
  const failing = await ok(
    await api.post("/api/tests", {
      data: { ...signInDoc("Greets by nickname", "Welcome, Bea!"), visibility: "Shared" },
      headers: inProject,
    }),
    201,
  );

  agent = startAgent();
  await ok(await api.post(`/api/agent/pair/${await agent.code}`), 201);
  await expect.poll(async () => (await (await api.get("/api/agent")).json()).needed, { timeout: 30_000 }).toBe(false);

  await test.step("choose the suite in the list and run all its tests", async () => {
    await page.goto("/tests");
    await page.getByLabel("Suite").selectOption("Checkout");
    await expect(page.getByText("Showing 3 tests of 3")).toBeVisible();
    await page.getByRole("checkbox", { name: "Select Says welcome" }).check();
    await expect(page.getByRole("button", { name: "Run selected (1)" })).toBeEnabled();
    await shot(page, "50-test-list-selection");
    await page.getByRole("button", { name: "Run all 3 matching" }).click();
    const dialog = page.getByRole("dialog", { name: "Run 3 tests" });
    await expect(dialog).toContainText("Every test these filters match (3) will run");
    await dialog.getByRole("button", { name: "Start runs" }).click();
    await expect(page).toHaveURL(/\/batches\/bat_/);
  });

  const summary = page.getByRole("region", { name: "Summary" }).getByRole("status");
  await test.step("the batch page shows the runs and sums them up", async () => {
    await expect(page.getByRole("heading", { level: 1 })).toContainText("3 tests");
    await expect(summary).toHaveText("2 passed, 1 failed of 3", { timeout: 90_000 });
    const row = page.getByRole("row").filter({ hasText: "Greets by nickname" });
    await expect(row).toContainText("failed");
    await expect(row).toContainText("3/4");
    await expect(page.getByRole("row").filter({ hasText: "Greets the user" })).toContainText("4/4");
    await shot(page, "51-batch-page-failed");
    // Each run opens its run page.
    await row.getByRole("link", { name: "Open the run of Greets by nickname" }).click();
    await expect(page).toHaveURL(/\/runs\/run_/);
    await expect(page.getByRole("region", { name: "Result" })).toContainText("Failed");
    await page.goBack();
    await expect(summary).toHaveText("2 passed, 1 failed of 3");
  });

  await test.step("fix the failing test, run the failed ones again: it passes", async () => {
    const saved = await ok(await api.get(`/api/tests/${failing.id}`), 200);
    const fixed = signInDoc("Greets by nickname", `Welcome, ${bea.email}`);
    await ok(await api.put(`/api/tests/${failing.id}`, { data: { ...saved.document, steps: fixed.steps } }), 200);
    const first = page.url();
    await page.getByRole("button", { name: "Run the failed ones again" }).click();
    await expect(page).not.toHaveURL(first);
    await expect(page).toHaveURL(/\/batches\/bat_/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Run again: 1 test");
    await expect(summary).toHaveText("1 passed, 0 failed of 1", { timeout: 60_000 });
    await expect(page.getByRole("row").filter({ hasText: "Greets by nickname" })).toContainText("4/4");
    await shot(page, "52-batch-page-rerun-passed");
  });

  await test.step("the run history links runs to their batch", async () => {
    await page.goto("/runs");
    await expect(page.getByRole("link", { name: /^Batch of the run/ })).toHaveCount(4);
    await shot(page, "53-runs-with-batches");
  });
});
