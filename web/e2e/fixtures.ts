// Shared pieces of the end-to-end tests: the hub's address as baseURL, a
// screenshot helper writing to e2e-results/screenshots, and a real headless
// agent process that pairs with the hub.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { join, resolve } from "node:path";
import { test as base, expect, type Page } from "@playwright/test";

export const shotsDir = resolve(import.meta.dirname, "..", "e2e-results", "screenshots");

export const test = base.extend({
  baseURL: async ({}, use) => {
    await use(process.env.E2E_HUB);
  },
  page: async ({ page }, use) => {
    // No page of the application may log an error to the console.
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" && !/status of 4\d\d/.test(m.text())) errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(String(e)));
    await use(page);
    expect(errors, "errors in the browser console").toEqual([]);
  },
});
export { expect };

export function site(path: string): string {
  return `${process.env.E2E_SITE}/${path}`;
}

/** shot saves a full-page screenshot for a reviewer. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: join(shotsDir, `${name}.png`), fullPage: true });
}

export interface Agent {
  proc: ChildProcess;
  code: Promise<string>;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * startAgent runs the headless agent binary against the hub; `code` resolves
 * to its pairing code. extraArgs go after the usual ones, e.g.
 * ["--remote-debugging-port", "9333"] to drive its authoring browser.
 * display (an X display such as ":93", see startXvfb) starts it as on a
 * desktop instead: it reports a display and shows headed runs' windows.
 */
export function startAgent(extraArgs: string[] = [], display?: string): Agent {
  const config = mkdtempSync(join(process.env.E2E_TMP ?? "/tmp", "agent-"));
  const proc = spawn(
    process.env.E2E_AGENT ?? "agent",
    [
      "--hub",
      process.env.E2E_HUB ?? "",
      ...(display ? [] : ["--headless"]),
      "--config",
      config,
      "--browser",
      process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      ...extraArgs,
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
      // On a desktop the agent opens its pairing page with xdg-open: not here.
      env: display ? { ...process.env, DISPLAY: display, WAYLAND_DISPLAY: "", BROWSER: "/bin/true" } : process.env,
    },
  );
  let out = "";
  const code = new Promise<string>((ok, fail) => {
    const onData = (b: Buffer) => {
      out += b.toString();
      const m = /pairing code: ([A-Z0-9]+-[A-Z0-9]+)/.exec(out);
      if (m) ok(m[1]);
    };
    proc.stdout?.on("data", onData);
    proc.stderr?.on("data", onData);
    proc.on("exit", (c) => fail(new Error(`agent exited with ${c}:\n${out}`)));
  });
  return {
    proc,
    code,
    output: () => out,
    stop: () =>
      new Promise<void>((r) => {
        if (proc.exitCode !== null) return r();
        proc.on("exit", () => r());
        proc.kill("SIGTERM");
        setTimeout(() => proc.kill("SIGKILL"), 10_000);
      }),
  };
}

/** register creates an account through the registration page; the browser is then signed in. */
export async function register(page: Page, name: string, email: string, password: string): Promise<void> {
  await page.goto("/register");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}

/** freePort asks the system for a TCP port nothing listens on. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.on("error", fail);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === "object" ? ok(addr.port) : fail(new Error("no port"))));
    });
  });
}

/** startXvfb starts a virtual X display for an agent "with a display"; stop ends it. */
export async function startXvfb(): Promise<{ display: string; stop: () => void }> {
  for (let n = 90 + Math.floor(Math.random() * 80); ; n++) {
    if (existsSync(`/tmp/.X11-unix/X${n}`) || existsSync(`/tmp/.X${n}-lock`)) continue;
    const proc = spawn("Xvfb", [`:${n}`, "-screen", "0", "1280x800x24", "-nolisten", "tcp"], { stdio: "ignore" });
    for (let i = 0; i < 50 && !existsSync(`/tmp/.X11-unix/X${n}`) && proc.exitCode === null; i++)
      await new Promise((r) => setTimeout(r, 100));
    if (proc.exitCode !== null) continue;
    return { display: `:${n}`, stop: () => proc.kill("SIGTERM") };
  }
}
