// The desktop agent's download: with an installer in the hub's downloads
// folder (<data>/downloads, read at request time), the Agents page of a
// Linux browser offers it as step 1 of pairing, and the banner of a user
// without an agent offers it too; the file the browser saves is the one the
// hub lists (size and SHA-256) and carries the hub's address. Without
// installers the page says how its operator builds them.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, shot, test } from "./fixtures";

const stamp = Date.now().toString(36);
// The browser's own processor decides which build it is offered.
const arch = process.arch === "arm64" ? "arm64" : "amd64";
const file = `ta-agent_0.1.0_linux_${arch}.tar.gz`;
const downloadsDir = () => join(process.env.E2E_TMP ?? "", "data", "downloads");
const linuxUA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

test.use({ userAgent: linuxUA });

/** placeInstaller writes a small but real agent archive (ta-agent/ta-agent) where the hub serves downloads from. */
function placeInstaller(): string {
  const src = mkdtempSync(join(process.env.E2E_TMP ?? "/tmp", "installer-"));
  mkdirSync(join(src, "ta-agent"));
  writeFileSync(join(src, "ta-agent", "ta-agent"), "#!/bin/sh\necho 'a stand-in for the agent'\n", { mode: 0o755 });
  mkdirSync(downloadsDir(), { recursive: true });
  const path = join(downloadsDir(), file);
  execFileSync("tar", ["czf", path, "-C", src, "ta-agent"]);
  rmSync(src, { recursive: true, force: true });
  return path;
}

// Later specs (and runs) see a hub without installers again.
test.afterAll(() => {
  rmSync(join(downloadsDir(), file), { force: true });
});

test("without installers the Agents page says how the hub's operator builds them", async ({ page }) => {
  rmSync(join(downloadsDir(), file), { force: true });
  const res = await page.request.post("/api/auth/register", {
    data: { name: "Nia Noinstaller", email: `none-${stamp}@download.e2e.test`, password: "none-password-1" },
  });
  expect(res.status(), await res.text()).toBe(201);
  await page.goto("/agents");
  const help = page.getByRole("region", { name: "How to pair a computer" });
  await expect(help.getByText(/This hub has no agent installers yet/)).toContainText("make installers");
  await expect(help.getByRole("link", { name: /Download the agent/ })).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText("go run");
  await shot(page, "13-agent-download-none");
});

test("the Agents page offers the Linux download and the browser saves the file the hub lists", async ({ page }) => {
  placeInstaller();
  const res = await page.request.post("/api/auth/register", {
    data: { name: "Dora Downloader", email: `dl-${stamp}@download.e2e.test`, password: "dl-password-1" },
  });
  expect(res.status(), await res.text()).toBe(201);
  const org = await page.request.post("/api/orgs", { data: { name: "Download Co" } });
  expect(org.status(), await org.text()).toBe(201);
  const project = await page.request.post(`/api/orgs/${(await org.json()).id}/projects`, { data: { name: "Shop" } });
  expect(project.status(), await project.text()).toBe(201);

  const listed = await page.request.get("/api/agent/download");
  expect(listed.status()).toBe(200);
  const { downloads } = (await listed.json()) as { downloads: { file: string; size: number; sha256: string; kind: string }[] };
  const entry = downloads.find((d) => d.file === file);
  expect(entry, JSON.stringify(downloads)).toBeTruthy();
  expect(entry!.kind).toBe("tar.gz");

  // The banner of a user without an agent offers it on every other page.
  await page.goto("/");
  const banner = page.locator(".banner");
  await expect(banner.getByRole("link", { name: /^Download the agent for Linux/ })).toHaveAttribute(
    "href",
    `/api/agent/download?os=linux&arch=${arch}&kind=tar.gz`,
  );
  await expect(banner.getByRole("link", { name: "Pair a computer" })).toBeVisible();
  await shot(page, "13-agent-download-banner");

  await page.goto("/agents");
  const help = page.getByRole("region", { name: "How to pair a computer" });
  const link = help.getByRole("link", { name: /^Download the agent for Linux .*\(\.tar\.gz\)$/ });
  await expect(link).toHaveAttribute("href", `/api/agent/download?os=linux&arch=${arch}&kind=tar.gz`);
  const primary = help.locator(".download-primary");
  await expect(primary).toContainText(file);
  await expect(primary).toContainText("version 0.1.0");
  await expect(primary.locator(`[title="${entry!.size} bytes"]`)).toBeVisible();
  await expect(primary).toContainText(entry!.sha256);
  await expect(primary).toContainText(`tar xzf ${file} && ./ta-agent/ta-agent`);
  await expect(help).toContainText(`ta-agent --headless --hub ${process.env.E2E_HUB}`);
  await expect(page.locator("body")).not.toContainText("go run");
  await shot(page, "13-agent-download-agents-page");

  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toBe(file);
  const saved = join(process.env.E2E_TMP ?? "/tmp", `saved-${stamp}.tar.gz`);
  await download.saveAs(saved);
  expect(statSync(saved).size).toBe(entry!.size);
  expect(createHash("sha256").update(readFileSync(saved)).digest("hex")).toBe(entry!.sha256);
  // The archive carries the hub's address, so the agent in it pairs with this hub.
  const hubFile = execFileSync("tar", ["xzf", saved, "-O", "ta-agent/hub.json"]).toString();
  expect(JSON.parse(hubFile)).toEqual({ hub: process.env.E2E_HUB });
});
