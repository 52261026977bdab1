// The benchmark flow in Playwright, one Node process, a new browser context
// per iteration: node flow.mjs <site> <iterations> <screenshots 0|1>.
// Prints the durations in milliseconds as JSON (after one warm-up).
// Playwright comes from web/node_modules; Chromium is Debian's (or CHROMIUM).
import { createRequire } from "node:module";
import { resolve } from "node:path";

const require = createRequire(resolve(import.meta.dirname, "../../../../web/package.json"));
const { chromium } = require("playwright");
const { expect } = require("@playwright/test");

const [site, n, shots] = [process.argv[2], Number(process.argv[3] ?? 10), process.argv[4] === "1"];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
});
const sizes = ["s", "m", "l", "s", "m"];

async function flow() {
  const context = await browser.newContext();
  const page = await context.newPage();
  const shot = async () => {
    if (shots) await page.screenshot();
  };
  await page.goto(site + "/shop.html");
  await shot();
  await page.getByLabel("Email").fill("amy@shop.test");
  await shot();
  await page.getByLabel("Password").fill("amy-password");
  await shot();
  await page.getByRole("button", { name: "Sign in" }).click();
  await shot();
  await expect(page.getByTestId("greeting")).toContainText("Welcome, amy@shop.test");
  await shot();
  for (let i = 0; i < 5; i++) {
    await page.getByLabel("Size").selectOption(sizes[i]);
    await shot();
    await page.getByLabel("Gift wrap").check();
    await shot();
    await page.getByRole("button", { name: "Add to cart" }).click();
    await shot();
    await expect(page.getByTestId("cart")).toContainText(`Cart: ${i + 1} items, last ${sizes[i]} gift`);
    await shot();
  }
  await context.close();
}

await flow(); // warm-up
const out = [];
for (let i = 0; i < n; i++) {
  const start = performance.now();
  await flow();
  out.push(performance.now() - start);
}
await browser.close();
console.log(JSON.stringify(out));
