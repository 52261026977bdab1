// A tiny OpenAI-compatible chat-completions server for the end-to-end tests,
// like hub/language/langtest in Go: the hub's client posts to
// <HUB_LLM_BASE_URL>/chat/completions; the answer's message content is the
// JSON of the drafted steps. It knows one request (12-language.spec.ts);
// anything else gets no steps.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export const FAKE_LLM_KEY = "e2e-fake-key";
export const FAKE_LLM_MODEL = "e2e-fake-model";

/** The request 12-language.spec.ts types, and the steps a model would draft for it on e2e/site/login.html. */
export const SIGN_IN_REQUEST = "sign in as amy and check the greeting";
const signInSteps = [
  { type: "navigate", url: "${baseUrl}/login.html", description: "open the sign-in page" },
  {
    type: "fill",
    target: {
      locators: [
        { kind: "label", value: "Email" },
        { kind: "css", value: "#email" },
      ],
    },
    value: "amy@shop.test",
  },
  { type: "fill", target: { locators: [{ kind: "label", value: "Password" }] }, value: "amy-password-1" },
  { type: "click", target: { locators: [{ kind: "role", value: "button", name: "Sign in" }] } },
  {
    type: "assertText",
    target: { locators: [{ kind: "testId", value: "greeting" }] },
    expected: "Welcome, amy@shop.test",
    match: "contains",
  },
  // A step the hub drops (a click needs a target): the panel lists it with the reason.
  { type: "click", description: "tick remember me" },
];

function body(req: IncomingMessage): Promise<string> {
  return new Promise((ok, fail) => {
    let s = "";
    req.on("data", (b: Buffer) => (s += b.toString()));
    req.on("end", () => ok(s));
    req.on("error", fail);
  });
}

/** startFakeLLM listens on a free port; its base URL is what HUB_LLM_BASE_URL is set to. */
export function startFakeLLM(): Promise<{ baseURL: string; close: () => void }> {
  const srv = createServer(async (req, res) => {
    const json = (status: number, v: unknown) => res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(v));
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") return json(404, { error: { message: "no such route" } });
    if (req.headers.authorization !== `Bearer ${FAKE_LLM_KEY}`) return json(401, { error: { message: "bad API key" } });
    const raw = await body(req);
    const chat = JSON.parse(raw) as { model?: string; messages?: { role: string; content: string }[] };
    const last = (chat.messages ?? []).filter((m) => m.role === "user").pop()?.content ?? "";
    const request = /<request>\n([\s\S]*)\n<\/request>/.exec(last)?.[1].trim() ?? "";
    const steps = request === SIGN_IN_REQUEST ? signInSteps : [];
    json(200, {
      id: "chatcmpl-e2e",
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: chat.model ?? FAKE_LLM_MODEL,
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: JSON.stringify({ steps }) } }],
      usage: { prompt_tokens: raw.length >> 2, completion_tokens: 50, total_tokens: (raw.length >> 2) + 50 },
    });
  });
  return new Promise((ok) =>
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as AddressInfo).port;
      ok({ baseURL: `http://127.0.0.1:${port}/v1`, close: () => srv.close() });
    }),
  );
}
