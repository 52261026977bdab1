// Issue 31, history and quarantine in the web app: a batch of a passing
// and a failing test fails; the test list shows each test's pass/fail
// strip; a Test Manager (here the organization's Admin) quarantines the
// failing test from its editor with a reason; the next batch passes, its
// row and run say the test was quarantined, the list filters to it; the
// quarantine is lifted again.
import { expect, shot, test, type Agent } from "./fixtures";
import { newProject, pairAgent, post, stagingEnvironment } from "./setup";

const quinn = { name: "Quinn Quarantine", email: "quinn@quarantine.e2e.test", password: "quinn-password-12" };
const REASON = "the title changes next sprint";

let agent: Agent | null = null;
test.afterAll(async () => {
  await agent?.stop();
});

const titled = (expected: string) => [
  { id: "open", type: "navigate", url: "${baseUrl}/shop.html" },
  { id: "title", type: "assertTitle", expected, timeoutMs: 1500 },
];

test("a quarantined test's failure no longer fails its batch, and everyone sees it", async ({ page }) => {
  test.setTimeout(180_000);
  const projectId = await newProject(page.request, quinn, "Quarantine Co");
  const envId = await stagingEnvironment(page.request, projectId);
  agent = await pairAgent(page.request);
  const good = (await post(page.request, "/api/tests", { name: "Basket title", steps: titled("Basket") }, projectId)).id as string;
  const bad = (await post(page.request, "/api/tests", { name: "Checkout title", steps: titled("Checkout") }, projectId)).id as string;
  const batch = async () => {
    const b = await post(page.request, "/api/runs", { testIds: [good, bad], environmentId: envId }, projectId);
    const id = b.batchId as string;
    await expect
      .poll(async () => ((await (await page.request.get(`/api/batches/${id}`)).json()) as { finishedAt: string | null }).finishedAt, {
        timeout: 60_000,
      })
      .not.toBeNull();
    return (await (await page.request.get(`/api/batches/${id}`)).json()) as {
      id: string;
      status: string;
      runs: { runId: string; testId: string }[];
    };
  };

  const first = await batch();
  expect(first.status).toBe("failed");

  await test.step("the test list shows each test's last runs", async () => {
    await page.goto("/tests");
    const row = page.getByRole("row").filter({ hasText: "Checkout title" });
    await expect(row.getByRole("listitem")).toHaveCount(1);
    await expect(row.getByRole("listitem").first()).toHaveAttribute("title", /^failed · v1 · Staging · /);
    await expect(row).toContainText("0% passed");
    await expect(page.getByRole("row").filter({ hasText: "Basket title" })).toContainText("100% passed");
  });

  await test.step("quarantined from the editor, with a reason", async () => {
    await page.goto(`/tests/${bad}`);
    await page.getByRole("button", { name: "Quarantine…" }).click();
    const dialog = page.getByRole("dialog", { name: "Quarantine Checkout title" });
    await dialog.getByLabel("Reason").fill(REASON);
    await dialog.getByRole("button", { name: "Quarantine" }).click();
    await expect(page.getByRole("note")).toHaveText(
      `Quarantined by ${quinn.name}: ${REASON}. Its failures fail no batch until the quarantine is lifted.`,
    );
    await expect(page.getByRole("button", { name: "Lift quarantine" })).toBeVisible();
    await shot(page, "29-quarantine-editor");
  });

  const second = await batch();
  expect(second.status).toBe("passed");

  await test.step("the batch passes, its row and run say the test was quarantined", async () => {
    await page.goto(`/batches/${second.id}`);
    await expect(page.getByRole("status").filter({ hasText: "1 quarantined" })).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: "Checkout title" });
    await expect(row).toContainText("failed");
    await expect(row).toContainText("Quarantined");
    await shot(page, "29-quarantine-batch");
    const run = second.runs.find((r) => r.testId === bad)!.runId;
    await page.goto(`/runs/${run}`);
    await expect(page.getByRole("note")).toHaveText(
      `This test was quarantined when this run ended: ${REASON}. Its failure does not fail its batch.`,
    );
  });

  await test.step("the list filters to quarantined tests", async () => {
    await page.goto("/tests?health=quarantined");
    await expect(page.getByRole("link", { name: "Checkout title" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Basket title" })).toHaveCount(0);
    await expect(page.getByRole("row").filter({ hasText: "Checkout title" })).toContainText("Quarantined");
  });

  await test.step("lifted, the earlier batch keeps its outcome", async () => {
    await page.goto(`/tests/${bad}`);
    await page.getByRole("button", { name: "Lift quarantine" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Lift quarantine" }).click();
    await expect(page.getByRole("button", { name: "Quarantine…" })).toBeVisible();
    await expect(page.getByRole("note")).toHaveCount(0);
    expect(((await (await page.request.get(`/api/batches/${second.id}`)).json()) as { status: string }).status).toBe("passed");
  });
});
