// End-to-end tests: a real hub (with its private PostgreSQL), a real
// headless agent and Debian's Chromium, driven through the web application.
// e2e/global-setup.ts builds and starts the hub and a fixture site.
import { defineConfig } from "@playwright/test";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "e2e",
  outputDir: "e2e-results/artifacts",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    headless: true,
    viewport: { width: 1280, height: 800 },
    screenshot: "only-on-failure",
    trace: "off",
    actionTimeout: 15_000,
    launchOptions: {
      executablePath: chromium,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    },
  },
});
