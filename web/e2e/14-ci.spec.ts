// Tests in CI, as a new user would set them up: create an API token in the
// profile, run `ta-agent ci --suite Smoke --junit report.xml` against the
// hub: live progress, a JUnit file, exit code 1 because one test fails; fix
// the test, exit 0. The command joins as a CI agent of the token's user: no
// pairing, no agent left behind. A password change that also revokes the
// API tokens (a box on the profile's form) stops the command.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { expect, shot, site, test } from "./fixtures";

test.describe.configure({ mode: "serial" });

const cid = { name: "Cid Pipeline", email: "cid@e2e.test", password: "cid-password-12" };

function smokeDoc(name: string, expected: string) {
  return {
    dsl: 2,
    name,
    suite: "Smoke",
    steps: [
      { id: "open", type: "navigate", url: site("login.html") },
      { id: "email", type: "fill", value: cid.email, target: { locators: [{ kind: "label", value: "Email" }] } },
      { id: "go", type: "click", target: { locators: [{ kind: "role", value: "button", name: "Sign in" }] } },
      {
        id: "check",
        type: "assertText",
        target: { locators: [{ kind: "testId", value: "greeting" }] },
        expected,
        match: "contains",
        timeoutMs: 2000,
      },
    ],
  };
}

async function ok(res: Awaited<ReturnType<APIRequestContext["get"]>>, status: number): Promise<{ id: string }> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as { id: string };
}

/** runCI runs the agent binary's CI command and resolves with its exit code and output. */
function runCI(token: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const proc = spawn(
      process.env.E2E_AGENT ?? "agent",
      ["ci", "--hub", process.env.E2E_HUB ?? "", "--browser", process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", ...args],
      { env: { ...process.env, TA_TOKEN: token }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    proc.stdout.on("data", (b: Buffer) => (out += b.toString()));
    proc.stderr.on("data", (b: Buffer) => (out += b.toString()));
    proc.on("exit", (code) => done({ code, out }));
  });
}

test("create a token in the profile, run the Smoke suite from the command line, fix the failing test", async ({ page }) => {
  test.setTimeout(180_000);
  const api = page.request;
  await ok(await api.post("/api/auth/register", { data: cid }), 201);
  const org = await ok(await api.post("/api/orgs", { data: { name: "Pipeline Co" } }), 201);
  const project = await ok(await api.post(`/api/orgs/${org.id}/projects`, { data: { name: "Shop" } }), 201);
  const inProject = { "x-project-id": project.id };
  await ok(await api.post("/api/tests", { data: { ...smokeDoc("Signs in", "Welcome"), visibility: "Shared" }, headers: inProject }), 201);
  await ok(
    await api.post("/api/tests", { data: { ...smokeDoc("Greets by email", cid.email), visibility: "Shared" }, headers: inProject }),
    201,
  );
  const failing = await ok(
    await api.post("/api/tests", {
      data: { ...smokeDoc("Greets by nickname", "Welcome, Cid!"), visibility: "Shared" },
      headers: inProject,
    }),
    201,
  );

  let token = "";
  await test.step("create an API token in the profile", async () => {
    await page.goto("/profile");
    const form = page.getByRole("form", { name: "Create an API token" });
    await form.getByLabel("Token name").fill("GitHub Actions");
    await form.getByRole("button", { name: "Create token" }).click();
    const created = page.getByLabel("New API token");
    await expect(created).toHaveValue(/^tat_[a-z2-7]{52}$/);
    token = await created.inputValue();
    await expect(page.getByText(/it will not be shown again/)).toBeVisible();
    await expect(page.getByText(`ta-agent ci --hub ${new URL(page.url()).origin} --suite Smoke --junit report.xml`)).toBeVisible();
    await shot(page, "140-api-token-created");
  });

  const dir = mkdtempSync(join(process.env.E2E_TMP ?? "/tmp", "ci-"));
  const report = join(dir, "report.xml");
  await test.step("the CI command fails the build: one test fails", async () => {
    const { code, out } = await runCI(token, ["--suite", "Smoke", "--junit", report]);
    expect(code, out).toBe(1);
    expect(out).toContain('3 run(s) of suite "Smoke" in project "Shop"');
    expect(out).toMatch(/✗ failed Greets by nickname {2}3\/4 steps/);
    expect(out).toContain("step 4 (assertText check)");
    expect(out).toContain("3 test run(s): 2 passed, 1 failed");
    const xml = readFileSync(report, "utf8");
    expect(xml).toContain('<testsuite name="Smoke" tests="3" failures="1" errors="0"');
    expect(xml).toMatch(/\[\[ATTACHMENT\|.*report-screenshots\/run_\w+-.*\.png\]\]/);
  });

  await test.step("the batch page offers the same report; no CI agent is left behind", async () => {
    const batch = /batch: \S+\/batches\/(bat_\w+)/.exec((await runCI(token, ["--suite", "Smoke", "--junit", report])).out)?.[1];
    expect(batch).toBeTruthy();
    await page.goto(`/batches/${batch}`);
    await expect(page.getByRole("link", { name: "Download JUnit XML" })).toHaveAttribute("href", `/api/batches/${batch}/junit`);
    const agents = (await (await api.get("/api/agent")).json()) as { agents: unknown[] };
    expect(agents.agents).toHaveLength(0);
  });

  await test.step("fixed, the command passes", async () => {
    await ok(await api.put(`/api/tests/${failing.id}`, { data: smokeDoc("Greets by nickname", `Welcome, ${cid.email}`) }), 200);
    const { code, out } = await runCI(token, ["--suite", "Smoke", "--junit", report]);
    expect(code, out).toBe(0);
    expect(out).toContain("3 test run(s): 3 passed");
    expect(readFileSync(report, "utf8")).toContain('failures="0"');
  });

  await test.step("a password change that also revokes the API tokens: the command is refused", async () => {
    await page.goto("/profile");
    await page.getByLabel("Current password").fill(cid.password);
    await page.getByLabel("New password", { exact: true }).fill("cid-password-34");
    await page.getByLabel("Repeat the new password").fill("cid-password-34");
    await page.getByRole("checkbox", { name: "Also revoke my API tokens and CI agents" }).check();
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText(/Your password was changed\./)).toContainText("your API tokens were revoked");
    await expect(page.getByText(/^Revoked /)).toBeVisible();
    const { code, out } = await runCI(token, ["--suite", "Smoke"]);
    expect(code, out).toBe(2);
    expect(out).toContain("this API token was revoked");
  });
});
