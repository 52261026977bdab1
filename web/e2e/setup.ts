// What most specs start from, set up through the API as the account the
// spec's browser is signed in as: a new account with an organization and
// a project, an environment on the fixture site, and a paired headless
// agent; for specs that act in the agent's own browser as a person would,
// an agent whose authoring browser listens on a DevTools port.
import { chromium, type APIRequestContext, type Browser, type Locator, type Page } from "@playwright/test";
import { expect, freePort, startAgent, type Agent } from "./fixtures";

/** post sends data to path (in project projectId, when given), expects success and answers the JSON body. */
export async function post(request: APIRequestContext, path: string, data: unknown, projectId?: string): Promise<Record<string, unknown>> {
  const res = await request.post(path, { data, headers: projectId ? { "x-project-id": projectId } : {} });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json().catch(() => ({}))) as Record<string, unknown>;
}

export interface Person {
  name: string;
  email: string;
  password: string;
}

/**
 * newProject registers who (the browser behind request is then signed in
 * as them), creates the organization org with a project in it and answers
 * the project's id.
 */
export async function newProject(request: APIRequestContext, who: Person, org: string, project = "Shop"): Promise<string> {
  await post(request, "/api/auth/register", who);
  const o = await post(request, "/api/orgs", { name: org });
  const p = await post(request, `/api/orgs/${o.id as string}/projects`, { name: project });
  return p.id as string;
}

/** stagingEnvironment creates the environment "Staging" on the fixture site (its baseUrl) with these secrets; it answers its id. */
export async function stagingEnvironment(
  request: APIRequestContext,
  projectId: string,
  secrets: Record<string, string> = {},
): Promise<string> {
  const env = await post(
    request,
    "/api/environments",
    { name: "Staging", variables: { baseUrl: process.env.E2E_SITE ?? "" }, secrets },
    projectId,
  );
  return env.id as string;
}

/** pairAgent starts an agent (see startAgent) and pairs it with the signed-in account. */
export async function pairAgent(request: APIRequestContext, extraArgs: string[] = [], display?: string): Promise<Agent> {
  const agent = startAgent(extraArgs, display);
  await post(request, `/api/agent/pair/${await agent.code}`, {});
  return agent;
}

/** A paired agent whose authoring browser a spec reaches through its DevTools port. */
export interface DebugAgent extends Agent {
  /**
   * page finds the page of the agent's authoring browser whose URL
   * contains part, connecting anew each time so pages opened since are seen.
   */
  page: (part: string) => Promise<Page>;
}

/** pairDebugAgent is pairAgent with the agent's authoring browser on a free DevTools port; stop also drops the connection to it. */
export async function pairDebugAgent(request: APIRequestContext): Promise<DebugAgent> {
  const port = await freePort();
  const agent = await pairAgent(request, ["--remote-debugging-port", String(port)]);
  let cdp: Browser | null = null;
  return {
    ...agent,
    page: async (part) => {
      let found: Page | undefined;
      await expect(async () => {
        await cdp?.close().catch(() => {});
        cdp = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
        found = cdp
          .contexts()
          .flatMap((c) => c.pages())
          .find((p) => p.url().includes(part));
        expect(found, `a page at ${part} in the agent's browser`).toBeTruthy();
      }).toPass({ timeout: 30_000 });
      return found!;
    },
    stop: async () => {
      await cdp?.close().catch(() => {});
      await agent.stop();
    },
  };
}

/**
 * inPicture is where, on the editor's live picture, the agent's element's
 * centre shows, once the picture stopped moving (the captured steps above
 * it grow as they arrive).
 */
export async function inPicture(picture: Locator, agentEl: Locator): Promise<{ x: number; y: number }> {
  const box = await agentEl.boundingBox();
  const width = await agentEl.page().evaluate(() => window.innerWidth);
  let shown = await picture.boundingBox();
  await expect(async () => {
    const before = shown;
    await picture.page().waitForTimeout(300);
    shown = await picture.boundingBox();
    expect(shown).toEqual(before);
  }).toPass();
  expect(box && shown).toBeTruthy();
  const scale = shown!.width / width;
  return { x: shown!.x + (box!.x + box!.width / 2) * scale, y: shown!.y + (box!.y + box!.height / 2) * scale };
}

/** clickInPicture clicks, in the editor's live picture, where the agent's element shows. */
export async function clickInPicture(picture: Locator, agentEl: Locator) {
  const at = await inPicture(picture, agentEl);
  await picture.page().mouse.click(at.x, at.y);
}
