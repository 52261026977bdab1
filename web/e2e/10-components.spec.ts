// Components through a test developer's day: three steps of a test become
// a component in the editor (the test then calls it), a second test calls
// it through the callComponent form, a second version is published on the
// component's page, and the impact view upgrades one caller, whose history
// then says "component <name> upgraded from v1 to v2". The user, project
// and tests are made through the API, so nothing depends on other specs.
import type { Page } from "@playwright/test";
import { expect, shot, site, test } from "./fixtures";

const stamp = Date.now().toString(36);
const cleo = { name: "Cleo Components", email: `cleo-${stamp}@components.e2e.test`, password: "cleo-password-1" };
const NAME = "Sign in form";

async function createTest(page: Page, projectId: string, doc: Record<string, unknown>): Promise<string> {
  const res = await page.request.post("/api/tests", { data: { dsl: 2, ...doc }, headers: { "X-Project-Id": projectId } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).id as string;
}

/** lines reads the editor's step list as it reads on screen: "Step 1: Open …". */
async function lines(page: Page): Promise<string[]> {
  return page.locator(".step-line").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label") ?? ""));
}

test("make a component from three steps, call it from another test, publish v2 and upgrade one caller", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const reg = await page.request.post("/api/auth/register", { data: cleo });
  expect(reg.status(), await reg.text()).toBe(201);
  const org = await (await page.request.post("/api/orgs", { data: { name: "Component Makers" } })).json();
  const project = await (await page.request.post(`/api/orgs/${org.id}/projects`, { data: { name: "Shop" } })).json();
  const field = (id: string, label: string, value: string) => ({
    id,
    type: "fill",
    target: { locators: [{ kind: "label", value: label }] },
    value,
  });
  const checkout = await createTest(page, project.id, {
    name: "Checkout",
    variables: { email: "amy@shop.test" },
    steps: [
      { id: "s1", type: "navigate", url: site("login.html") },
      field("s2", "Email", "${email}"),
      field("s3", "Password", "secret"),
      { id: "s4", type: "click", target: { locators: [{ kind: "role", value: "button", name: "Sign in" }] } },
      { id: "s5", type: "assertText", target: { locators: [{ kind: "testId", value: "greeting" }] }, expected: "Welcome" },
    ],
  });
  const guest = await createTest(page, project.id, {
    name: "Guest checkout",
    steps: [{ id: "s1", type: "navigate", url: site("login.html") }],
  });

  let componentURL = "";
  await test.step("select steps 2–4 in the editor and make them a component", async () => {
    await page.goto(`/tests/${checkout}`);
    await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
    for (const n of [2, 3, 4]) await page.getByRole("checkbox", { name: `Select step ${n}` }).check();
    await page.getByRole("button", { name: "Make component" }).click();
    const dialog = page.getByRole("dialog", { name: "Make component" });
    await expect(dialog).toContainText("The 3 selected steps (steps s2–s4) become version 1 of a new component");
    await dialog.getByLabel("Name", { exact: true }).fill(NAME);
    await dialog.getByLabel("Description").fill("Fills in and sends the sign-in form");
    await dialog.getByRole("button", { name: "Add input" }).click();
    await dialog.getByLabel("Input 1 name").fill("email");
    await dialog.getByLabel("Input 1 required").uncheck();
    await dialog.getByLabel("Input 1 default").fill("amy@shop.test");
    await shot(page, "100-components-make-dialog");
    await dialog.getByRole("button", { name: "Make component" }).click();
    await expect(page.getByText(`The steps are now component ${NAME} v1; this test calls it in version v2.`)).toBeVisible();
    const steps = await lines(page);
    expect(steps).toHaveLength(3);
    await expect(page.getByRole("button", { name: `Step 2: Run component ${NAME} v1` })).toBeVisible();
    const link = page.getByRole("link", { name: `Open component ${NAME}` });
    componentURL = (await link.getAttribute("href")) ?? "";
    expect(componentURL).toMatch(/^\/components\/cmp_/);
    await expect(page.getByText("Unsaved changes")).toBeHidden();
    await shot(page, "101-components-made");
  });

  await test.step("call it from a second test through the callComponent form", async () => {
    await page.goto(`/tests/${guest}`);
    await expect(page.getByRole("heading", { name: "Guest checkout" })).toBeVisible();
    await page.getByLabel("Step type").selectOption("callComponent");
    await page.getByRole("button", { name: "Add step" }).click();
    const step = page.getByRole("group", { name: "Step 2 callComponent" });
    await step.getByLabel("Component", { exact: true }).selectOption({ label: `${NAME} (v1)` });
    await expect(step.getByLabel("Component version")).toHaveValue("");
    await expect(step.getByLabel("Component version").locator("option:checked")).toHaveText("Latest (v1)");
    const email = step.getByLabel("email", { exact: true });
    await expect(email).toHaveAttribute("placeholder", "amy@shop.test");
    await email.fill("guest@shop.test");
    await shot(page, "102-components-call-form");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("Saved.")).toBeVisible();
    // The hub pinned the call to the latest version.
    await expect(page.getByRole("button", { name: `Step 2: Run component ${NAME} v1` })).toBeVisible();
    await expect(step.getByLabel("Component version")).toHaveValue("1");
  });

  await test.step("the list shows the component and its two callers", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Library" }).click();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Components" }).click();
    const row = page.getByRole("row", { name: new RegExp(NAME) });
    await expect(row).toContainText("v1");
    await expect(row).toContainText("2 tests");
    await expect(row).toContainText("Fills in and sends the sign-in form");
    await shot(page, "103-components-list");
    await row.getByRole("link", { name: NAME }).click();
    await expect(page).toHaveURL(new RegExp(`${componentURL}$`));
  });

  await test.step("deleting it while tests call it is refused with the hub's reason", async () => {
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: `Delete component ${NAME}?` });
    await dialog.getByRole("button", { name: "Delete component" }).click();
    await expect(dialog.getByRole("alert")).toContainText(`component ${NAME} is still called by 2 test(s)`);
    await shot(page, "104-components-delete-refused");
    await dialog.getByRole("button", { name: "Cancel" }).click();
  });

  await test.step("publish v2 with a note", async () => {
    await page.getByRole("link", { name: "Publish new version" }).click();
    await expect(page.getByRole("heading", { name: `Publish version v2 of ${NAME}` })).toBeVisible();
    await expect(page.getByLabel("Input 1 name")).toHaveValue("email");
    await page.getByRole("button", { name: /^Step 2: / }).click();
    const group = page.getByRole("group", { name: "Step 2 fill" });
    await group.getByLabel("Value", { exact: true }).fill("${password}");
    await page.getByRole("button", { name: "Add input" }).click();
    await page.getByLabel("Input 2 name").fill("password");
    // A default, so the callers that give no password can be upgraded.
    await page.getByLabel("Input 2 required").uncheck();
    await page.getByLabel("Input 2 default").fill("secret");
    await page.getByLabel("Note").fill("The password is an input now");
    await shot(page, "105-components-publish");
    await page.getByRole("button", { name: "Publish v2" }).click();
    await expect(page.getByText("Version v2 published.")).toBeVisible();
    const v2 = page.getByRole("row", { name: /^v2/ });
    await expect(v2).toContainText(cleo.name);
    await expect(v2).toContainText("The password is an input now");
    await v2.getByRole("button", { name: "View v2" }).click();
    await expect(page.getByRole("region", { name: "Version v2" })).toContainText("${password}");
    await shot(page, "106-components-versions");
  });

  await test.step("the impact view shows each caller's diff; upgrade one", async () => {
    await page.getByRole("tab", { name: "Impact" }).click();
    const first = page.getByTestId(`caller-${checkout}`);
    const second = page.getByTestId(`caller-${guest}`);
    await expect(first).toContainText("calls v1 → v2");
    await expect(first).toContainText("Upgrading adds version v3 to the test.");
    await expect(second).toContainText("Upgrading adds version v2 to the test.");
    const change = first.locator(".cmp-diff-change");
    await expect(change).toHaveCount(1);
    await expect(change.locator(".cmp-diff-old")).toContainText('"secret"');
    await expect(change.locator(".cmp-diff-new")).toContainText("${password}");
    await expect(first.locator(".cmp-diff-same")).toHaveCount(2);
    await shot(page, "107-components-impact");
    await page.getByRole("checkbox", { name: "Select Checkout" }).check();
    await page.getByRole("button", { name: "Upgrade selected (1)" }).click();
    const results = page.getByRole("region", { name: "1 of 1 upgraded to v2" });
    await expect(results.getByTestId(`result-${checkout}`)).toHaveText("Upgraded: Checkout is now at version v3");
    // The upgraded caller now calls the latest version; the other one still waits.
    await expect(first).toContainText("It already calls the latest version");
    await expect(second).toContainText("calls v1 → v2");
    await shot(page, "108-components-upgraded");
    await results.getByRole("link", { name: "version v3" }).click();
  });

  await test.step("the upgraded test's history notes the upgrade", async () => {
    await expect(page).toHaveURL(new RegExp(`/tests/${checkout}/versions$`));
    await expect(page.getByText(`component ${NAME} upgraded from v1 to v2`)).toBeVisible();
    await expect(page.getByText(`steps s2–s4 made into component ${NAME}`)).toBeVisible();
    await shot(page, "109-components-history");
  });

  await test.step("the top navigation still fits 1024 px", async () => {
    await page.setViewportSize({ width: 1024, height: 768 });
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const l of ["Dashboard", "Tests", "Runs", "Setup", "Library", "Agents", "Admin"]) {
      const box = await nav.getByRole(l === "Library" || l === "Setup" ? "button" : "link", { name: l, exact: true }).boundingBox();
      expect(box, l).toBeTruthy();
      expect((box?.x ?? 0) + (box?.width ?? 0), `${l} is cut off`).toBeLessThanOrEqual(1024);
    }
    const signOut = await page.getByRole("button", { name: "Sign out" }).boundingBox();
    expect((signOut?.x ?? 0) + (signOut?.width ?? 0)).toBeLessThanOrEqual(1024);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
    await shot(page, "110-components-1024");
  });
});
