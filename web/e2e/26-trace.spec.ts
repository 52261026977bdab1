// Issue 30 on the run page: a test passes once, is revised so its page
// breaks (the page logs an error, its price call answers 500, the last
// assertion fails) and runs again on a real agent. The failed run's Trace
// opens on the failed step with the console error, the 500 request and the
// DOM snapshot — the environment's secret masked in all of it — and its
// "Since it last passed" names the step where the two runs diverged.
import { expect, shot, test, type Agent } from "./fixtures";
import { newProject, pairAgent, post, stagingEnvironment } from "./setup";

const tia = { name: "Tia Traces", email: "tia@trace.e2e.test", password: "tia-password-12" };
const COUPON = "SAVE-4242-SECRET";

let agent: Agent | null = null;
test.afterAll(async () => {
  await agent?.stop();
});

const css = (value: string) => ({ locators: [{ kind: "css", value }] });
const steps = (page: string) => [
  { id: "open", type: "navigate", url: "${baseUrl}/" + page },
  { id: "coupon", type: "fill", target: css("#coupon"), value: "${secrets.COUPON}" },
  { id: "apply", type: "click", target: css("#apply") },
  { id: "total", type: "assertText", target: css("#total"), expected: "Total: 42.00 EUR", match: "equals", timeoutMs: 3000 },
];

test("a failed run's trace and what changed since it last passed", async ({ page }) => {
  test.setTimeout(180_000);
  const projectId = await newProject(page.request, tia, "Trace Co");
  const envId = await stagingEnvironment(page.request, projectId, { COUPON });
  agent = await pairAgent(page.request);
  const headers = { "x-project-id": projectId };

  const created = await post(page.request, "/api/tests", { name: "Basket total", steps: [] }, projectId);
  const id = created.id as string;
  const save = async (data: object) => {
    const r = await page.request.put(`/api/tests/${id}`, { headers, data });
    expect(r.status(), await r.text()).toBe(200);
  };
  const runToEnd = async () => {
    const run = await post(page.request, "/api/runs", { testId: id, environmentId: envId, screenshots: true }, projectId);
    const runId = run.runId as string;
    await expect
      .poll(async () => ((await (await page.request.get(`/api/runs/${runId}`)).json()) as { status: string }).status, {
        timeout: 60_000,
      })
      .toMatch(/passed|failed|error/);
    return runId;
  };

  // Version 1 passes; it is marked Ready, and its revision (version 2) opens the broken page.
  await save({ name: "Basket total", steps: steps("shop.html") });
  const passed = await runToEnd();
  expect(((await (await page.request.get(`/api/runs/${passed}`)).json()) as { status: string }).status).toBe("passed");
  await save({ status: "Ready" });
  const rev = await page.request.post(`/api/tests/${id}/revisions`, { headers });
  expect(rev.status(), await rev.text()).toBe(201);
  await save({ name: "Basket total", steps: steps("shop.html?broken=1") });
  const failed = await runToEnd();

  await page.goto(`/runs/${failed}`);
  await expect(page.getByRole("region", { name: "Result" })).toContainText("Failed");
  const trace = page.getByRole("region", { name: "Trace" });

  await test.step("the trace opens on the failed step", async () => {
    const timeline = trace.getByRole("listbox", { name: "Steps of the trace" });
    await expect(timeline.getByRole("option")).toHaveCount(4);
    const selected = timeline.getByRole("option", { selected: true });
    await expect(selected).toContainText("4");
    await expect(selected).toContainText("assertText");
    await expect(selected).toContainText("failed");
    await expect(trace.getByRole("heading", { name: /^Step 4 assertText/ })).toBeVisible();
  });

  await test.step("its console error, its 500 request and its DOM snapshot, the secret masked", async () => {
    const consoleLines = trace.getByRole("table", { name: "Console lines" });
    await expect(consoleLines).toContainText("price service failed with 500");
    await expect(consoleLines).toContainText("applying coupon ***");
    const requests = trace.getByRole("table", { name: "Network requests" });
    const row500 = requests.getByRole("row").filter({ hasText: "/price" });
    await expect(row500).toContainText("500");

    await trace.getByRole("checkbox", { name: "Errors only" }).check();
    await expect(consoleLines).toContainText("price service failed with 500");
    await expect(consoleLines).not.toContainText("applying coupon");
    await trace.getByRole("checkbox", { name: "Failed requests only" }).check();
    await expect(requests.getByRole("row").filter({ hasText: "/price" })).toHaveCount(1);
    await expect(requests).not.toContainText("shop.html");

    const dom = trace.getByRole("region", { name: "DOM snapshot" });
    const frame = dom.frameLocator("iframe");
    await expect(frame.locator("#total")).toHaveText("Total: unavailable");
    await expect(frame.locator("[data-ta-target]")).toHaveAttribute("id", "total");
    await expect(frame.locator("#applied")).toHaveText("Coupon *** applied");
    await expect(dom.locator("iframe")).toHaveAttribute("sandbox", "allow-same-origin");
    await shot(page, "26-trace-failed-step");
    expect(await page.content()).not.toContain(COUPON);

    // The whole trace, as the hub serves it, never holds the secret either.
    const body = await (await page.request.get(`/api/runs/${failed}/trace`)).text();
    expect(body).toContain("price service failed with 500");
    expect(body).not.toContain(COUPON);
  });

  await test.step("another step of the timeline shows its own part", async () => {
    const timeline = trace.getByRole("listbox", { name: "Steps of the trace" });
    await timeline.getByRole("option").first().click();
    await expect(trace.getByRole("heading", { name: /^Step 1 navigate/ })).toBeVisible();
    await timeline.press("End");
    await expect(trace.getByRole("heading", { name: /^Step 4 assertText/ })).toBeVisible();
  });

  await test.step("since it last passed: the diverging step, its screenshots, the changed request, the new error, the diff", async () => {
    const since = page.getByRole("region", { name: "Since it last passed" });
    await expect(since.getByTestId("compare-baseline")).toContainText("version 1");
    await expect(since.getByRole("link").first()).toHaveAttribute("href", `/runs/${passed}`);
    const diverged = since.getByRole("region", { name: "Where the runs diverged" });
    await expect(diverged.getByTestId("cmp-diverged-step")).toContainText("Step 4 assertText");
    await expect(diverged.getByTestId("cmp-diverged-reason")).toHaveText("Failed here; passed in the last passed run.");

    const shots = since.getByRole("region", { name: "Screenshots of that step" });
    await expect(shots.getByRole("img", { name: "Screenshot of this run" })).toBeVisible();
    await expect(shots.getByRole("img", { name: "Screenshot of the last passed run" })).toBeVisible();
    await expect(shots.getByTestId("cmp-pixels")).toContainText("of the pixels differ");
    await shots.getByRole("checkbox", { name: "Show differences" }).check();
    const overlay = shots.getByRole("img", { name: "Pixels that differ, in magenta" });
    await expect(overlay).toBeVisible();
    await expect.poll(() => overlay.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);

    const requests = since.getByRole("table", { name: "Requests whose status changed" });
    const price = requests.getByRole("row").filter({ hasText: "/price" });
    await expect(price).toContainText("200");
    await expect(price).toContainText("500");
    await expect(since.getByRole("list", { name: "New console errors" })).toContainText("price service failed with 500");
    const doc = since.getByRole("region", { name: "Document changes" });
    await expect(doc).toContainText("This run ran version 2; the last passed run ran version 1.");
    await expect(doc.getByRole("listitem").filter({ hasText: "broken" })).toHaveCount(1);
    await since.scrollIntoViewIfNeeded();
    await shot(page, "26-trace-since-it-last-passed");

    // From the comparison to the step in the trace.
    await trace.getByRole("listbox", { name: "Steps of the trace" }).getByRole("option").first().click();
    await diverged.getByRole("button", { name: "Show step 4 in the trace" }).click();
    await expect(trace.getByRole("heading", { name: /^Step 4 assertText/ })).toBeVisible();
  });
});
