// Issue 29 on the run page: a test with blocks, made through the API, runs
// on a real agent; its run page shows the tree — the branch each if took,
// the steps of a branch not taken as not run, one fold per forEach
// iteration with the failed one (a soft assertion) open and the others
// closed, and each iteration's screenshot labelled with its iteration.
import { expect, shot, test, type Agent } from "./fixtures";
import { newProject, pairAgent, post, stagingEnvironment } from "./setup";

const rue = { name: "Rue Runs", email: "rue@run-blocks.e2e.test", password: "rue-password-12" };

let agent: Agent | null = null;
test.afterAll(async () => {
  await agent?.stop();
});

test("a run with blocks shows the branches taken and its iterations, the failed one open", async ({ page }) => {
  test.setTimeout(150_000);
  const projectId = await newProject(page.request, rue, "Blocks Co");
  const envId = await stagingEnvironment(page.request, projectId);
  agent = await pairAgent(page.request);
  const css = (value: string) => ({ locators: [{ kind: "css", value }] });

  const created = await post(
    page.request,
    "/api/tests",
    { name: "Sign-in names", steps: [{ id: "open", type: "navigate", url: "${baseUrl}/login.html" }] },
    projectId,
  );
  const id = created.id as string;
  // Indexes and numbers: 0 open 1 · 1 form 2 (2 email 2.1; else 3 none 2.2) · 4 banner 3 (5 accept 3.1)
  // 6 names 4 (7 fill 4.1, 8 check 4.2) · 9 done 5
  const put = await page.request.put(`/api/tests/${id}`, {
    headers: { "x-project-id": projectId },
    data: {
      name: "Sign-in names",
      steps: [
        { id: "open", type: "navigate", url: "${baseUrl}/login.html" },
        {
          id: "form",
          type: "if",
          condition: { kind: "visible", target: { locators: [{ kind: "role", value: "button", name: "Sign in" }] } },
          steps: [{ id: "email", type: "fill", target: css("#email"), value: "first@example.com" }],
          else: [{ id: "none", type: "log", message: "no sign-in form" }],
        },
        {
          id: "banner",
          type: "if",
          timeoutMs: 500,
          condition: { kind: "exists", target: css("#cookie-banner") },
          steps: [{ id: "accept", type: "click", target: css("#cookie-banner button") }],
        },
        {
          id: "names",
          type: "forEach",
          items: ["ann", "bo", "nina"],
          as: "who",
          steps: [
            { id: "fill", type: "fill", target: css("#email"), value: "${who}" },
            { id: "check", type: "assertValue", target: css("#email"), expected: "n", soft: true, timeoutMs: 1000 },
          ],
        },
        { id: "done", type: "log", message: "went through the names" },
      ],
    },
  });
  expect(put.status(), await put.text()).toBe(200);
  const run = await post(page.request, "/api/runs", { testId: id, environmentId: envId, screenshots: true }, projectId);

  await page.goto(`/runs/${run.runId as string}`);
  const result = page.getByRole("region", { name: "Result" });
  await expect(result).toContainText("Failed", { timeout: 60_000 });

  // The first if took its then-branch: its step ran, the else-step did not.
  await expect(page.getByTestId("step-2-branch")).toHaveText("then");
  await expect(page.getByTestId("step-2")).toContainText('If the button "Sign in" is visible');
  await expect(page.getByTestId("step-3").getByText("passed", { exact: true })).toBeVisible();
  await expect(page.getByTestId("step-3")).toContainText("2.1");
  await expect(page.getByTestId("step-4").getByText("not run", { exact: true })).toBeVisible();
  // The second found no banner and has no else.
  await expect(page.getByTestId("step-5-branch")).toHaveText("no branch: condition false");
  await expect(page.getByTestId("step-6").getByText("not run", { exact: true })).toBeVisible();

  // The forEach: three iterations, the second ("bo" has no n) failed and open, the others closed.
  await expect(page.getByTestId("step-7-iterations")).toHaveText("3 iterations");
  const failed = page.getByTestId("iteration-7-2");
  await expect(failed).toHaveAttribute("open", "");
  await expect(failed.getByText("Iteration 2 — failed")).toBeVisible();
  await expect(failed.getByTestId("step-9-i2")).toContainText("4.2");
  await expect(failed.getByTestId("step-9-i2")).toContainText('"bo"');
  await expect(failed.getByTestId("step-9-i2").getByRole("note")).toContainText("Soft assertion");
  for (const k of [1, 3]) {
    await expect(page.getByTestId(`iteration-7-${k}`)).not.toHaveAttribute("open");
    await expect(page.getByTestId(`iteration-7-${k}`).getByText(`Iteration ${k} — passed`)).toBeVisible();
  }
  await expect(page.getByTestId("step-10")).toContainText("5");
  await expect(page.getByTestId("step-10").getByText("passed", { exact: true })).toBeVisible();
  await shot(page, "250-run-blocks-tree");

  // A closed iteration opens on a click.
  await page.getByTestId("iteration-7-1").getByText("Iteration 1 — passed").click();
  await expect(page.getByTestId("step-8-i1").getByText("passed", { exact: true })).toBeVisible();

  // Every execution's screenshot, in order, labelled with its iteration.
  const film = page.getByRole("region", { name: "Screenshots" });
  await expect(film.getByTestId("film-8-i1")).toContainText("Step 4.1 · iteration 1");
  await expect(film.getByTestId("film-9-i2")).toContainText("Step 4.2 · iteration 2");
  const captions = await film.locator(".run-film-num").allTextContents();
  expect(captions.indexOf("Step 4.1 · iteration 2")).toBeGreaterThan(captions.indexOf("Step 4.2 · iteration 1"));
  await film.getByRole("button", { name: "Open screenshot of step 4.2, iteration 2" }).click();
  const dialog = page.getByRole("dialog", { name: "Screenshot of step 4.2, iteration 2" });
  await expect(dialog.getByRole("img")).toHaveAttribute("src", /step-009-check-i1[-.]/);
  await shot(page, "251-run-blocks-shot");
});
