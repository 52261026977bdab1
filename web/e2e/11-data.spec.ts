// Test data and data pools through the web application, on a real agent:
// a new user builds a 5-row data set in the grid, binds it to a test whose
// steps read ${email} and ${greeting}, runs it with one row made to fail,
// follows each row's status on the run page and opens the failing row; then
// builds a pool of 2 records bound in consume mode, runs until it is empty
// (the third run ends error naming the pool), resets it and sees the
// records free again.
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { expect, shot, site, test, type Agent } from "./fixtures";
import { newProject, pairAgent, post } from "./setup";

const dana = { name: "Dana Data", email: "dana@data.e2e.test", password: "dana-password-12" };

let agent: Agent | null = null;
test.afterAll(async () => {
  await agent?.stop();
});

const label = (value: string) => ({ locators: [{ kind: "label", value }] });
const signInSteps = (email: string) => [
  { id: "open", type: "navigate", url: site("login.html") },
  { id: "email", type: "fill", target: label("Email"), value: email },
  { id: "submit", type: "click", target: { locators: [{ kind: "role", value: "button", name: "Sign in" }] } },
];

/** fillRow types a row's values into the grid. */
async function fillRow(page: Page, n: number, values: Record<string, string>): Promise<void> {
  for (const [col, v] of Object.entries(values)) await page.getByLabel(`Row ${n} ${col}`, { exact: true }).fill(v);
}

/** runFromEditor starts a run of the test open in the editor and waits for its result. */
async function runFromEditor(page: Page, testName: string): Promise<string> {
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `Run ${testName}` });
  await dialog.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/runs\/run_/);
  await expect(page.getByRole("region", { name: "Result" })).toBeVisible({ timeout: 60_000 });
  return new URL(page.url()).pathname.split("/").pop() ?? "";
}

test("a data set drives a run row by row, and a pool runs dry and is reset", async ({ page }) => {
  test.setTimeout(240_000);
  const projectId = await newProject(page.request, dana, "Data Co");
  agent = await pairAgent(page.request);

  const emails = ["ann", "bob", "cy", "dee", "eve"].map((n) => `${n}@example.com`);
  await test.step("build a 5-row data set in the grid", async () => {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Library" }).click();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Test data" }).click();
    await expect(page.getByText("No data sets yet.")).toBeVisible();
    await page.getByRole("link", { name: "New data set" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Sign-ins");
    await page.getByRole("button", { name: "Add column" }).click();
    await page.getByLabel("Column 1 name").fill("email");
    await page.getByRole("button", { name: "Add column" }).click();
    await page.getByLabel("Column 2 name").fill("greeting");
    for (let n = 1; n <= 5; n++) await page.getByRole("button", { name: "Add row" }).click();
    for (let n = 1; n <= 5; n++) {
      // Row 3 expects another greeting than the page gives: it fails.
      await fillRow(page, n, { email: emails[n - 1], greeting: n === 3 ? "Welcome, somebody else" : `Welcome, ${emails[n - 1]}` });
    }
    await expect(page.getByText("Unsaved changes")).toBeVisible();
    await shot(page, "110-data-set-grid");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("Saved.")).toBeVisible();
    await expect(page).toHaveURL(/\/test-data\/tds_/);
    await expect(page.getByRole("heading", { level: 1, name: "Sign-ins" })).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("Row 5 email", { exact: true })).toHaveValue("eve@example.com");
    await page.getByRole("link", { name: "All test data" }).click();
    const row = page.getByRole("row", { name: /Sign-ins/ });
    await expect(row).toContainText("email, greeting");
    await expect(row.getByRole("cell", { name: "5", exact: true })).toBeVisible();
    await shot(page, "111-test-data-list");
  });

  await test.step("export it as CSV and import the file back as a new set", async () => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export Sign-ins as CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("Sign-ins.csv");
    const csv = readFileSync(await download.path(), "utf8");
    expect(csv.split(/\r?\n/)[0]).toBe("email,greeting");
    expect(csv).toContain('cy@example.com,"Welcome, somebody else"');
    // The same name is taken: the hub says so.
    await page.getByTestId("import-csv-new").setInputFiles({ name: "Sign-ins.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await expect(page.getByRole("alert")).toContainText("Sign-ins.csv was not imported: the project has a test data set with this name");
    await page.getByTestId("import-csv-new").setInputFiles({ name: "Sign-ins copy.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await expect(page.getByRole("heading", { level: 1, name: "Sign-ins copy" })).toBeVisible();
    await expect(page.getByLabel("Row 3 greeting", { exact: true })).toHaveValue("Welcome, somebody else");
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("dialog", { name: "Delete data set Sign-ins copy?" }).getByRole("button", { name: "Delete data set" }).click();
    await expect(page).toHaveURL(/\/test-data$/);
    await expect(page.getByRole("link", { name: "Sign-ins copy" })).toHaveCount(0);
  });

  const dataTest = await post(
    page.request,
    "/api/tests",
    {
      name: "Greets every user",
      steps: [
        ...signInSteps("${email}"),
        {
          id: "greeting",
          type: "assertText",
          target: { locators: [{ kind: "testId", value: "greeting" }] },
          expected: "${greeting}",
          timeoutMs: 1500,
        },
      ],
    },
    projectId,
  );

  let runId = "";
  await test.step("bind it in the test's settings and run every row", async () => {
    await page.goto(`/tests/${dataTest.id as string}`);
    const data = page.getByRole("group", { name: "Data" });
    await data.getByLabel("Data set").selectOption({ label: "Sign-ins (5 rows)" });
    await expect(data.getByText("Runs once per row (5); steps read ${email}, ${greeting}.")).toBeVisible();
    await expect(page.getByText("Unsaved changes")).toBeVisible();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("Saved.")).toBeVisible();
    await shot(page, "112-editor-data-binding");

    await page.getByRole("button", { name: "Run", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Run Greets every user" });
    await expect(dialog.getByLabel("All 5 rows")).toBeChecked();
    await dialog.getByLabel("Chosen rows").check();
    await expect(dialog.getByRole("group", { name: "Rows to run" }).getByRole("checkbox")).toHaveCount(5);
    await shot(page, "113-run-dialog-rows");
    await dialog.getByLabel("All 5 rows").check();
    await dialog.getByRole("button", { name: "Start run" }).click();
    await expect(page).toHaveURL(/\/runs\/run_/);
    runId = new URL(page.url()).pathname.split("/").pop() ?? "";
    await expect(page.getByRole("heading", { name: "Rows" })).toBeVisible();
    await expect(page.getByTestId("row-1")).toContainText("ann@example.com");
    await expect(page.getByRole("region", { name: "Result" })).toContainText("Failed", { timeout: 90_000 });
    for (const n of [1, 2, 4, 5]) await expect(page.getByTestId(`row-${n}`)).toContainText("passed");
    await expect(page.getByTestId("row-3")).toContainText("failed");
    await expect(page.getByTestId("row-3")).toContainText("3/4");
    await expect(page.getByTestId("run-passed")).toHaveText("4/5");
    await expect(page.getByRole("region", { name: "Result" })).toContainText("4 of 5 rows passed");
    await expect(page.getByRole("link", { name: "Sign-ins" })).toBeVisible();
    await shot(page, "114-run-rows");
  });

  await test.step("open the failing row: its values, steps, error and screenshot", async () => {
    await page.getByRole("button", { name: "Open row 3" }).click();
    const dialog = page.getByRole("dialog", { name: "Row 3" });
    await expect(dialog.getByRole("row", { name: /greeting/ })).toContainText("Welcome, somebody else");
    await expect(dialog.getByTestId("row-step-4")).toContainText("failed");
    await expect(dialog.getByTestId("row-step-4")).toContainText("Welcome, somebody else");
    await expect(dialog.getByTestId("row-step-2")).toContainText("typed cy@example.com");
    await dialog.getByRole("button", { name: "Open screenshot of step 4" }).click();
    const img = dialog.getByRole("img", { name: /Screenshot of row 3/ });
    await expect(img).toBeVisible();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(100);
    await shot(page, "115-run-row-failed");
    await dialog.getByRole("button", { name: "Close", exact: true }).click();
    // Reloading the finished run shows the same rows.
    await page.reload();
    await expect(page.getByTestId("row-3")).toContainText("failed");
    await expect(page.getByTestId("rows-summary")).toContainText("4 of 5 rows passed, 1 failed");
    expect(runId).toMatch(/^run_/);
  });

  await test.step("build a pool of two records", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Library" }).click();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Data pools" }).click();
    await page.getByRole("link", { name: "New data pool" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Cards");
    await page.getByRole("button", { name: "Add column" }).click();
    await page.getByLabel("Column 1 name").fill("card");
    await page.getByRole("button", { name: "Add record" }).click();
    await page.getByRole("button", { name: "Add record" }).click();
    await page.getByLabel("Record 1 card", { exact: true }).fill("card-4111@example.com");
    await page.getByLabel("Record 2 card", { exact: true }).fill("card-4222@example.com");
    await page.getByRole("button", { name: "Create data pool" }).click();
    await expect(page).toHaveURL(/\/data-pools\/dpl_/);
    await expect(page.getByTestId("pool-counts")).toContainText("2 free 0 leased 0 consumed of 2");
    await shot(page, "116-pool-created");
  });

  const poolTest = await post(page.request, "/api/tests", { name: "Pays with a card", steps: signInSteps("${card}") }, projectId);
  await test.step("bind the pool in consume mode and run until it is empty", async () => {
    await page.goto(`/tests/${poolTest.id as string}`);
    const data = page.getByRole("group", { name: "Data" });
    await data.getByLabel("Data pool").selectOption({ label: "Cards (2 free)" });
    await data.getByLabel(/Consume/).check();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("Saved.")).toBeVisible();

    const first = await runFromEditor(page, "Pays with a card");
    await expect(page.getByRole("region", { name: "Result" })).toContainText("Passed");
    await expect(page.getByTestId("run-pool")).toContainText("Cards, record 1 (consumed)");
    await expect(page.getByTestId("step-2")).toContainText("typed card-4111@example.com");
    await shot(page, "117-run-pool-record");
    await page.getByRole("button", { name: "Run again" }).click();
    await expect(page).not.toHaveURL(new RegExp(`/runs/${first}$`));
    await expect(page.getByRole("region", { name: "Result" })).toContainText("Passed", { timeout: 60_000 });
    await expect(page.getByTestId("run-pool")).toContainText("Cards, record 2 (consumed)");
    const second = new URL(page.url()).pathname.split("/").pop() ?? "";
    await page.getByRole("button", { name: "Run again" }).click();
    await expect(page).not.toHaveURL(new RegExp(`/runs/${second}$`));
    const result = page.getByRole("region", { name: "Result" });
    await expect(result).toContainText("Error", { timeout: 60_000 });
    await expect(result).toContainText('data pool "Cards" has no free record');
    await expect(page.getByTestId("run-pool")).toContainText("Cards: no record was taken");
    await shot(page, "118-run-pool-empty");
  });

  await test.step("the pool shows who consumed its records; reset frees them", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Library" }).click();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Data pools" }).click();
    const row = page.getByRole("row", { name: /Cards/ });
    await expect(row.getByRole("cell")).toHaveText(["Cards", "card", "0", "0", "2", "2", /.+/]);
    await row.getByRole("link", { name: "Cards" }).click();
    await expect(page.getByTestId("pool-counts")).toContainText("0 free 0 leased 2 consumed of 2");
    await expect(page.getByTestId("record-1")).toContainText("consumed");
    await expect(page.getByTestId("record-1")).toContainText("Pays with a card");
    await expect(page.getByTestId("record-1")).toContainText("by Dana Data");
    await shot(page, "119-pool-consumed");
    await page.getByRole("button", { name: "Reset" }).click();
    const confirm = page.getByRole("dialog", { name: "Reset data pool Cards?" });
    await confirm.getByRole("button", { name: "Reset pool" }).click();
    await expect(page.getByTestId("pool-counts")).toContainText("2 free 0 leased 0 consumed of 2");
    await expect(page.getByTestId("record-1")).toContainText("free");
    await expect(page.getByTestId("record-2")).toContainText("free");
    await shot(page, "120-pool-reset");
  });
});
