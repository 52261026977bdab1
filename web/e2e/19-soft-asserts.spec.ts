// Issue 28 on the run page: a soft assertion fails and the run goes on (the
// steps after it pass, the run fails), a request step's call shows with the
// secret in its header masked, and a log step shows its message.
import { expect, shot, test, type Agent } from "./fixtures";
import { newProject, pairAgent, post, stagingEnvironment } from "./setup";

const sue = { name: "Sue Soft", email: "sue@soft.e2e.test", password: "sue-password-12" };
const secret = "Soft-Run-Secret-5150";

let agent: Agent | null = null;
test.afterAll(async () => {
  await agent?.stop();
});

test("a soft assertion fails, the run goes on and fails; request and log show on their steps", async ({ page }) => {
  test.setTimeout(120_000);
  const projectId = await newProject(page.request, sue, "Soft Co");
  const envId = await stagingEnvironment(page.request, projectId, { TOKEN: secret });
  agent = await pairAgent(page.request);
  const css = (value: string) => ({ locators: [{ kind: "css", value }] });
  const testDoc = await post(
    page.request,
    "/api/tests",
    {
      name: "Soft checks",
      steps: [
        { id: "open", type: "navigate", url: "${baseUrl}/login.html" },
        { id: "heading", type: "assertTitle", expected: "Checkout", soft: true, timeoutMs: 1000 },
        { id: "email", type: "fill", target: css("#email"), value: "sue@example.com" },
        { id: "count", type: "assertCount", target: css("input"), expected: 2 },
        {
          id: "api",
          type: "request",
          url: "${baseUrl}/login.html",
          headers: { Authorization: "Bearer ${secrets.TOKEN}" },
          expectStatus: 200,
          assign: "page",
        },
        { id: "say", type: "log", message: "the page answered ${page.status}" },
      ],
    },
    projectId,
  );
  const run = await post(page.request, "/api/runs", { testId: testDoc.id, environmentId: envId, screenshots: false }, projectId);

  await page.goto(`/runs/${run.runId as string}`);
  const result = page.getByRole("region", { name: "Result" });
  await expect(result).toContainText("Failed", { timeout: 45_000 });
  await expect(result).toContainText("5 of 6 steps passed");
  const soft = page.getByTestId("step-2");
  await expect(soft.getByText('expected the title to contain "Checkout", but it is "Shop sign-in"')).toBeVisible();
  await expect(soft.getByRole("note")).toContainText("Soft assertion: its failure is recorded and the run went on");
  for (const n of [3, 4, 5, 6]) await expect(page.getByTestId(`step-${n}`).getByText("passed", { exact: true })).toBeVisible();
  await expect(page.getByTestId("step-5-used")).toContainText("headers Authorization: ***"); // a credential header is never shown
  await expect(page.getByTestId("step-5-used")).toContainText("answered 200 OK");
  await expect(page.getByTestId("step-6-used")).toContainText("logged the page answered 200");
  expect(await page.content()).not.toContain(secret);
  await shot(page, "190-run-soft-request-log");
});
