// Issue 31's retries on a real agent: a test whose page is broken on its
// first visit only is run from its page with Retries 1. The run passes on
// the second attempt: the run page marks it Flaky and shows both attempts,
// the first with its failure and its own screenshots.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, shot, test, type Agent } from "./fixtures";
import { newProject, pairAgent, post } from "./setup";

const rae = { name: "Rae Retries", email: "rae@retries.e2e.test", password: "rae-password-12" };

let agent: Agent | null = null;
let server: Server | null = null;
let visits = 0;

test.beforeAll(async () => {
  // The page says "not yet" on its first visit, "ready" after.
  server = createServer((req, res) => {
    if (req.url !== "/flaky") {
      res.writeHead(404).end();
      return;
    }
    visits++;
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><title>Flaky</title><h1 id="out">${visits === 1 ? "not yet" : "ready"}</h1>`);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
});

test.afterAll(async () => {
  await agent?.stop();
  server?.close();
});

test("a test that fails once passes on a retry and is marked flaky", async ({ page }) => {
  test.setTimeout(120_000);
  const projectId = await newProject(page.request, rae, "Retry Co");
  agent = await pairAgent(page.request);
  const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/flaky`;
  const created = await post(
    page.request,
    "/api/tests",
    {
      name: "Ready banner",
      steps: [
        { id: "open", type: "navigate", url },
        { id: "check", type: "assertText", target: { locators: [{ kind: "css", value: "#out" }] }, expected: "ready", timeoutMs: 1000 },
      ],
    },
    projectId,
  );

  await page.goto(`/tests/${created.id as string}`);
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Run Ready banner" });
  await dialog.getByLabel("Retries").selectOption("1");
  await dialog.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/runs\/run_/);

  const attempts = page.getByRole("group", { name: "Attempts" });
  await expect(attempts).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText("Flaky", { exact: true })).toHaveAttribute("title", "Passed after 2 attempts");
  await expect(attempts.getByRole("button")).toHaveText(["Attempt 1 · failed", "Attempt 2 · passed"]);
  await expect(attempts.getByRole("button", { name: "Attempt 2 · passed" })).toHaveAttribute("aria-pressed", "true");
  expect(visits).toBe(2);
  // Attempt 2's trace (a2-trace-*.json) is the trace's, not listed among the artifacts.
  await expect(page.getByRole("heading", { name: "Artifacts" })).toHaveCount(0);
  await shot(page, "28-retries-flaky-run");

  await attempts.getByRole("button", { name: "Attempt 1 · failed" }).click();
  await expect(page.getByTestId("attempt-error")).toContainText("not yet");
  // Attempt 1's screenshots are its own artifacts (no attempt prefix), attempt 2's are a2-.
  const shots = page.locator("img[src*='/artifacts/']");
  await expect(shots.first()).toBeVisible();
  for (const src of await shots.evaluateAll((imgs) => imgs.map((i) => i.getAttribute("src") ?? ""))) {
    expect(src).not.toContain("/artifacts/a2-");
  }
  await shot(page, "28-retries-first-attempt");
});
