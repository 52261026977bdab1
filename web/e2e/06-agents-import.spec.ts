// Agents, import and profile fixes of issue 10: a computer waiting for
// approval near the user shows on the Agents page, without its code (issue
// 26), and pairs with the code it shows; a stopped agent's code says it is
// gone; the Run dialog says when no agent is connected; a Selenium IDE
// import brings what it can and lists each skipped command; the profile
// edits the user's name.
import type { APIRequestContext } from "@playwright/test";
import { expect, shot, startAgent, test, type Agent } from "./fixtures";

const stamp = Date.now().toString(36);

interface Who {
  name: string;
  email: string;
  password: string;
}

function person(tag: string, name: string): Who {
  return { name, email: `${tag}-${stamp}@fixes.e2e.test`, password: `${tag}-password-1` };
}

/** workspace registers `who` (signing in the request's browser context) with an organization and one project. */
async function workspace(request: APIRequestContext, who: Who): Promise<void> {
  const res = await request.post("/api/auth/register", { data: { name: who.name, email: who.email, password: who.password } });
  expect(res.status(), await res.text()).toBe(201);
  const o = await request.post("/api/orgs", { data: { name: "Fixes Co" } });
  expect(o.status(), await o.text()).toBe(201);
  const p = await request.post(`/api/orgs/${(await o.json()).id}/projects`, { data: { name: "Shop" } });
  expect(p.status(), await p.text()).toBe(201);
}

const agents: Agent[] = [];

test.afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()));
});

test("a computer waiting near the user appears on the Agents page and pairs with the code it shows", async ({ page }) => {
  await workspace(page.request, person("pair", "Pia Pairer"));
  const agent = startAgent();
  agents.push(agent);
  // The code as the user reads it from the agent (a headless one prints it).
  const code = await agent.code;

  await page.goto("/agents");
  const waiting = page.getByRole("region", { name: "Computers waiting for approval" });
  const item = waiting.getByRole("listitem").first();
  await expect(item).toContainText("linux");
  await expect(item).toContainText("waiting for");
  // Everyone behind this address sees the list: it never shows a code.
  await expect(waiting).not.toContainText(code);
  await shot(page, "60-agents-waiting");
  await item.getByRole("button", { name: /^Approve / }).click();
  await item.getByLabel(/^Code shown on /).fill(code);
  await item.getByRole("button", { name: "Pair" }).click();
  await expect(waiting.getByRole("status")).toContainText("is now one of your computers");
  // The headless agent is connected and marked as having no display.
  const row = page.getByRole("row").filter({ hasText: "Connected" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("No display");
  await shot(page, "61-agents-approved");

  // An agent that exits while waiting leaves a code that says it is gone.
  const quitter = startAgent();
  agents.push(quitter);
  const gone = await quitter.code;
  await quitter.stop();
  await page.goto(`/pair/${gone}`);
  await expect(page.getByRole("alert")).toContainText("This computer is no longer waiting: start the agent again for a new code.");
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await shot(page, "62-pair-gone");
});

test("a Selenium IDE import brings what it can and lists every skipped command", async ({ page }) => {
  await workspace(page.request, person("side", "Sid Importer"));
  const project = {
    id: "p1",
    version: "2.0",
    name: "Shop",
    url: "https://shop.example.com",
    tests: [
      {
        id: "t1",
        name: "Checkout",
        commands: [
          { id: "c1", command: "open", target: "/cart", targets: [], value: "" },
          { id: "c2", command: "customClick", target: "id=item", targets: [], value: "" },
          { id: "c3", command: "click", target: "id=pay", targets: [], value: "" },
          { id: "c4", command: "setSpeed", target: "100", targets: [], value: "" },
        ],
      },
    ],
    suites: [],
  };
  await page.goto("/tests");
  await page.getByRole("button", { name: "Import" }).click();
  const dialog = page.getByRole("dialog", { name: "Import tests" });
  await dialog.getByLabel("Or paste a document").fill(JSON.stringify(project));
  await dialog.getByRole("button", { name: "Import tests" }).click();
  await expect(dialog.getByRole("status")).toContainText("Imported 1 test");
  await expect(dialog.getByRole("listitem").filter({ hasText: "Checkout" })).toContainText("2 steps");
  await expect(dialog.getByText("2 commands were left out")).toBeVisible();
  const rows = dialog.getByRole("table", { name: "Skipped commands" }).getByRole("row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText("Checkout");
  await expect(rows.nth(1)).toContainText("#2 customClick");
  await expect(rows.nth(1)).toContainText("is not supported");
  await expect(rows.nth(2)).toContainText("#4 setSpeed");
  await expect(rows.nth(2)).toContainText("has no meaning here");
  await shot(page, "63-import-skipped");

  // This user has no agent: the Run dialog says so, and where to get one.
  await dialog.getByRole("link", { name: "Checkout" }).click();
  await expect(page).toHaveURL(/\/tests\/tc_/);
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const run = page.getByRole("dialog", { name: "Run Checkout" });
  await expect(run.getByText(/No agent of yours is connected/)).toContainText("this run waits in the queue");
  await expect(run.getByRole("link", { name: "how to start and pair an agent" })).toHaveAttribute("href", "/agents");
  await shot(page, "64-run-no-agent");
});

test("the profile edits the user's name", async ({ page }) => {
  await workspace(page.request, person("name", "Nina Name"));
  await page.goto("/profile");
  await page.getByRole("button", { name: "Edit name" }).click();
  const input = page.getByLabel("Name", { exact: true });
  await input.fill("   ");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("name is required")).toBeVisible();
  await input.fill("Nina Q. Name");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await shot(page, "65-profile-name");
  await page.reload();
  await expect(page.getByRole("main")).toContainText("Nina Q. Name");
  const session = await (await page.request.get("/api/auth/session")).json();
  expect(session.name).toBe("Nina Q. Name");
});
