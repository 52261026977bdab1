// Builds the hub and the headless agent, starts the hub on a free port with
// a fresh data folder (its own PostgreSQL) and a small site the tests run
// against, and stops both at the end. The addresses reach the tests through
// environment variables (E2E_HUB, E2E_SITE, E2E_AGENT, E2E_TMP).
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { AddressInfo } from "node:net";
import { FAKE_LLM_KEY, FAKE_LLM_MODEL, startFakeLLM } from "./fake-llm";

const webDir = resolve(import.meta.dirname, "..");
const repo = resolve(webDir, "..");

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => ok(port));
    });
    s.on("error", fail);
  });
}

async function waitFor(url: string, proc: ChildProcess, log: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (proc.exitCode !== null) throw new Error(`the hub exited with ${proc.exitCode}; its log:\n${readFileSync(log, "utf8")}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the hub did not answer ${url} within ${ms} ms; its log:\n${readFileSync(log, "utf8")}`);
}

function serveSite(dir: string): Promise<Server> {
  return new Promise((ok) => {
    const srv = createServer((req, res) => {
      const name = (req.url ?? "/").split("?")[0].replace(/^\/+/, "") || "login.html";
      // /price: the price service shop.html calls, failing (500) for a page
      // opened with ?broken (its Referer says so): the same request changes
      // its status between two runs (26-trace.spec.ts).
      if (name === "price") {
        const broken = (req.headers.referer ?? "").includes("broken");
        res.writeHead(broken ? 500 : 200, { "Content-Type": "application/json" }).end(broken ? '{"error":"down"}' : '{"total":"42.00"}');
        return;
      }
      const file = join(dir, name);
      if (!/^[a-z0-9-]+\.html$/.test(name) || !existsSync(file)) {
        res.writeHead(404).end("not found");
        return;
      }
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(readFileSync(file));
    });
    srv.listen(0, "127.0.0.1", () => ok(srv));
  });
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(join(webDir, "dist", "index.html"))) {
    throw new Error("web/dist is not built: run `npm run build` in web/ (make test does) before the end-to-end tests");
  }
  const tmp = mkdtempSync(join(tmpdir(), "ta-e2e-"));
  chmodSync(tmp, 0o755); // the hub runs PostgreSQL as the postgres account when root
  const bin = join(tmp, "bin");
  const go = process.env.GO ?? "go";
  execFileSync(go, ["build", "-o", join(bin, "hub"), "./hub"], { cwd: repo, stdio: "inherit" });
  execFileSync(go, ["build", "-tags", "headless", "-o", join(bin, "agent"), "./agent"], { cwd: repo, stdio: "inherit" });

  const port = await freePort();
  const hubURL = `http://127.0.0.1:${port}`;
  const log = join(tmp, "hub.log");
  // Drafting from text (12-language.spec.ts) asks a fake OpenAI-compatible model.
  const llm = await startFakeLLM();
  const llmEnv = { HUB_LLM_BASE_URL: llm.baseURL, HUB_LLM_API_KEY: FAKE_LLM_KEY, HUB_LLM_MODEL: FAKE_LLM_MODEL };
  const out = createWriteStream(log);
  const hub = spawn(join(bin, "hub"), ["--addr", `127.0.0.1:${port}`, "--data", join(tmp, "data")], {
    // The specs register many accounts from 127.0.0.1: more than the hub allows one address by default.
    env: {
      ...process.env,
      HUB_BASE_URL: hubURL,
      HUB_ADMIN_EMAIL: "root@e2e.test",
      HUB_ADMIN_PASSWORD: "root-password-1",
      HUB_REGISTER_PER_ADDR: "1000",
      ...llmEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  hub.stdout?.pipe(out);
  hub.stderr?.pipe(out);
  await waitFor(`${hubURL}/healthz`, hub, log, 90_000);

  const site = await serveSite(join(import.meta.dirname, "site"));
  const sitePort = (site.address() as AddressInfo).port;

  process.env.E2E_HUB = hubURL;
  process.env.E2E_SITE = `http://127.0.0.1:${sitePort}`;
  process.env.E2E_AGENT = join(bin, "agent");
  process.env.E2E_TMP = tmp;
  process.env.E2E_HUB_LOG = log;

  return async () => {
    site.close();
    llm.close();
    hub.kill("SIGTERM");
    await new Promise<void>((r) => {
      if (hub.exitCode !== null) return r();
      const t = setTimeout(() => {
        hub.kill("SIGKILL");
        r();
      }, 30_000);
      hub.on("exit", () => {
        clearTimeout(t);
        r();
      });
    });
    if (!process.env.E2E_KEEP) rmSync(tmp, { recursive: true, force: true });
  };
}
