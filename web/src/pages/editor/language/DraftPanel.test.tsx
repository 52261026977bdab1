import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, type FakeRoute } from "../../../test/render";
import type { Draft } from "../../../api/language";
import { EditorPage } from "../EditorPage";
import { testJSON, testRoutes } from "../editorFixtures";

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

function routes(extra: Record<string, FakeRoute> = {}) {
  return {
    ...testRoutes(testJSON()),
    "GET /api/environments": { body: { environments: [{ id: "env_1", projectId: "prj_1", name: "Staging", protected: false }] } },
    ...extra,
  };
}

const loc = (kind: string, value: string, name?: string) => ({ locators: [name ? { kind, value, name } : { kind, value }] });

/** A draft as the hub answers it: four steps, one ambiguous, one missing, and two dropped. */
function draft(over: Partial<Draft> = {}): Draft {
  return {
    model: "gpt-test-mini",
    steps: [
      { id: "s3", type: "navigate", url: "${baseUrl}/login" },
      { id: "s4", type: "fill", target: loc("label", "Password"), value: "amy-pass" },
      { id: "s5", type: "click", target: loc("role", "button", "Sign in") },
      { id: "s6", type: "assertText", target: loc("testId", "greeting"), expected: "Welcome", match: "contains" },
      { id: "s7", type: "click", target: loc("text", "Item") },
    ],
    issues: [
      { path: "steps[5].target", code: "required", message: "target is required", text: '{"type":"click"}' },
      { path: "steps[6].type", code: "unsupported", message: "drafts cannot call components; add the call yourself" },
      { path: "steps[6].url", code: "format", message: "not a URL" },
    ],
    grounding: { verified: true, url: "http://site.test/", title: "Shop sign-in", elements: 7 },
    checks: [
      { stepId: "s4", found: true, matches: 1 },
      { stepId: "s5", found: true, matches: 1 },
      { stepId: "s6", found: false, matches: 0, error: "no element on this page matches" },
      { stepId: "s7", found: false, matches: 3, error: "3 elements match: the locator is ambiguous" },
    ],
    ...over,
  };
}

function renderEditor() {
  return renderPage(<EditorPage />, { route: "/tests/tc_1", path: "/tests/:id" });
}

const stepNames = () => screen.getAllByRole("button", { name: /^Step \d+:/ }).map((b) => b.getAttribute("aria-label") ?? "");

async function openPanel() {
  await userEvent.click(await screen.findByRole("button", { name: "Draft from text" }));
  return screen.getByRole("region", { name: "Draft from text" });
}

async function ask(panel: HTMLElement, text = "sign in as amy and check the greeting") {
  await userEvent.type(within(panel).getByLabelText("What should the steps do?"), text);
  await userEvent.click(within(panel).getByRole("button", { name: "Generate" }));
}

describe("Draft from text", () => {
  it("shows each proposed step with its mark, the dropped ones and the model, and inserts them after the cursor as unsaved edits", async () => {
    const { calls } = fakeFetch(routes({ "POST /api/language/generate": { body: draft() } }));
    renderEditor();
    const panel = await openPanel();
    // The editor's one environment choice: the project's only one.
    await waitFor(() => expect(screen.getByLabelText("Environment")).toHaveValue("env_1"));
    expect(within(panel).getByText("Environment: Staging (chosen in the editor's toolbar).")).toBeInTheDocument();
    await ask(panel);

    const steps = await within(panel).findByRole("list", { name: /Proposed steps/ });
    const call = calls.find((c) => c.path === "/api/language/generate")!;
    expect(call.body).toEqual({ text: "sign in as amy and check the greeting", testId: "tc_1", environmentId: "env_1" });
    expect(call.headers["x-project-id"]).toBe("prj_1");
    const items = within(steps)
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(items[0]).toBe("Open ${baseUrl}/login – No element");
    expect(items[1]).toBe('Fill "Password" with "amy-pass" ✓ Verified: found 1 element');
    expect(items[2]).toBe('Click the button "Sign in" ✓ Verified: found 1 element');
    expect(items[3]).toMatch(/^Check the text of test id "greeting" .* ✗ Not found/);
    expect(items[3]).toContain("no element on this page matches (http://site.test/)");
    expect(items[4]).toMatch(/! Ambiguous: 3 elements match/);
    expect(within(panel).getByText("gpt-test-mini")).toBeInTheDocument();
    expect(within(panel).getByText(/Checked in your agent's browser on “Shop sign-in”/)).toHaveTextContent(
      "(7 elements read): 2 found, 1 ambiguous, 1 not found (perhaps on a later page).",
    );
    const dropped = within(panel).getByRole("list", { name: "Left out (2)" });
    expect(
      within(dropped)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual([
      'Proposed step 6: target: target is required{"type":"click"}',
      "Proposed step 7: type: drafts cannot call components; add the call yourself; url: not a URL",
    ]);

    // The cursor is step 1: the draft goes after it, without its Open of the page the test is already on.
    await userEvent.click(screen.getByRole("button", { name: /^Step 1:/ }));
    await userEvent.click(within(panel).getByRole("button", { name: "Insert 5 steps" }));
    expect(
      within(panel).getByText(
        "Added 4 drafted steps to the test (unsaved); the first, an Open of the page the test is already on, was left out.",
      ),
    ).toBeInTheDocument();
    expect(stepNames()).toEqual([
      "Step 1: Open ${baseUrl}/login",
      'Step 2: Fill "Password" with "amy-pass"',
      'Step 3: Click the button "Sign in"',
      'Step 4: Check the text of test id "greeting" contains "Welcome"',
      'Step 5: Click the text "Item"',
      'Step 6: Fill "Email" with ${user}',
    ]);
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
    expect(within(panel).getByRole("button", { name: "Insert 5 steps" })).toBeDisabled();
    // Nothing was saved: the steps are edits like any other, saved with Save.
    expect(calls.some((c) => c.method === "PUT")).toBe(false);
    // The next run offers the environment the steps were drafted for.
    expect(localStorage.getItem("ta.lastEnvironment.prj_1")).toBe("env_1");
  });

  it("appends at the end without a cursor, keeping edits made before", async () => {
    fakeFetch(routes({ "POST /api/language/generate": { body: draft({ steps: [draft().steps[2]], issues: [] }) } }));
    renderEditor();
    await userEvent.selectOptions(await screen.findByLabelText("Step type"), "wait");
    await userEvent.click(screen.getByRole("button", { name: "Add step" }));
    const panel = await openPanel();
    await ask(panel, "click sign in");
    await userEvent.click(await within(panel).findByRole("button", { name: "Insert 1 step" }));
    expect(stepNames().slice(2)).toEqual(["Step 3: Wait ? ms", 'Step 4: Click the button "Sign in"']);
  });

  it("says why a draft was not checked against a page", async () => {
    fakeFetch(
      routes({
        "POST /api/language/generate": {
          body: draft({
            checks: [],
            grounding: {
              verified: false,
              elements: 0,
              reason: "no agent of yours is connected: the steps are not checked against the page",
            },
          }),
        },
      }),
    );
    renderEditor();
    const panel = await openPanel();
    await ask(panel);
    expect(
      await within(panel).findByText(
        "Not checked against a page: no agent of yours is connected: the steps are not checked against the page.",
      ),
    ).toBeInTheDocument();
    const marks = within(panel).getAllByText("Unverified");
    expect(marks).toHaveLength(4);
    expect(marks[0].closest("[title]")).toHaveAttribute(
      "title",
      "no agent of yours is connected: the steps are not checked against the page",
    );
  });

  it("explains how to configure a model when the hub has none", async () => {
    fakeFetch(
      routes({
        "POST /api/language/generate": {
          status: 503,
          body: { error: "no language model is configured on this hub", code: "language_model_not_configured" },
        },
      }),
    );
    renderEditor();
    const panel = await openPanel();
    await ask(panel);
    const help = await within(panel).findByRole("alert");
    expect(help).toHaveTextContent("No language model is configured on this hub.");
    for (const v of ["HUB_LLM_BASE_URL", "HUB_LLM_API_KEY", "HUB_LLM_MODEL", "OpenAI", "Azure OpenAI", "Ollama", "vLLM", "llama.cpp"]) {
      expect(help).toHaveTextContent(v);
    }
    expect(within(panel).queryByRole("list", { name: /Proposed steps/ })).not.toBeInTheDocument();
  });

  it("shows the model's failure and the rate limit with the hub's message", async () => {
    let answer = {
      status: 502,
      body: { error: "the language model refused the API key (HTTP 401): check HUB_LLM_API_KEY", code: "language_model_failed" },
      headers: {} as Record<string, string>,
    };
    fakeFetch(routes({ "POST /api/language/generate": () => answer }));
    renderEditor();
    const panel = await openPanel();
    await ask(panel);
    expect(await within(panel).findByRole("alert")).toHaveTextContent(
      "Drafting failed: the language model refused the API key (HTTP 401): check HUB_LLM_API_KEY.",
    );
    answer = {
      status: 429,
      body: { error: "this project asked for too many drafts: try again in 31 s", code: "rate_limited" },
      headers: { "Retry-After": "31" },
    };
    await userEvent.click(within(panel).getByRole("button", { name: "Generate" }));
    await waitFor(() =>
      expect(within(panel).getByRole("alert")).toHaveTextContent("This project asked for too many drafts: try again in 31 s."),
    );
  });

  it("disables Generate while the draft is pending, and can stop waiting", async () => {
    const { fn } = fakeFetch(routes());
    const real = fn.getMockImplementation()!;
    let release: (() => void) | null = null;
    fn.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes("/api/language/generate")) {
        await new Promise<void>((ok, fail) => {
          release = ok;
          init?.signal?.addEventListener("abort", () => fail(new DOMException("aborted", "AbortError")));
        });
        return new Response(JSON.stringify(draft()), { status: 200, headers: { "Content-Type": "application/json" } });
      }
      return real(input, init);
    });
    renderEditor();
    const panel = await openPanel();
    await ask(panel);
    expect(within(panel).getByRole("button", { name: "Generating…" })).toBeDisabled();
    expect(within(panel).getByRole("status")).toHaveTextContent(/Drafting the steps and checking them on the page/);
    await userEvent.click(within(panel).getByRole("button", { name: "Stop waiting" }));
    expect(await within(panel).findByRole("button", { name: "Generate" })).toBeEnabled();
    expect(within(panel).queryByRole("alert")).not.toBeInTheDocument();

    await userEvent.click(within(panel).getByRole("button", { name: "Generate" }));
    await waitFor(() => expect(release).not.toBeNull());
    release!();
    expect(await within(panel).findByRole("list", { name: /Proposed steps/ })).toBeInTheDocument();
  });

  it("keeps the request and its steps as an example", async () => {
    let n = 0;
    const { calls } = fakeFetch(
      routes({
        "POST /api/language/generate": { body: draft() },
        "POST /api/language/examples": () =>
          ++n === 1
            ? { status: 409, body: { error: "the project keeps at most 1000 examples: delete some first", code: "too_many_examples" } }
            : { status: 201, body: { id: "lex_1", text: "x", steps: [], author: null, createdAt: "2026-11-23T10:00:00Z" } },
      }),
    );
    renderEditor();
    const panel = await openPanel();
    await ask(panel, "  sign in as amy  ");
    await userEvent.click(await within(panel).findByRole("button", { name: "Keep as example" }));
    expect(await within(panel).findByRole("alert")).toHaveTextContent(
      "The example was not kept: the project keeps at most 1000 examples: delete some first",
    );
    await userEvent.click(within(panel).getByRole("button", { name: "Keep as example" }));
    expect(await within(panel).findByRole("button", { name: "Kept as example" })).toBeDisabled();
    expect(within(panel).getByText(/Kept: later drafts in this project learn from it/)).toBeInTheDocument();
    expect(within(panel).getByRole("link", { name: "learned examples" })).toHaveAttribute("href", "/admin?tab=examples");
    const post = calls.filter((c) => c.path === "/api/language/examples")[1];
    expect(post.body).toEqual({ text: "sign in as amy", steps: draft().steps });
    expect(post.headers["x-project-id"]).toBe("prj_1");
  });

  it("asks before closing with a draft not inserted", async () => {
    fakeFetch(routes({ "POST /api/language/generate": { body: draft() } }));
    renderEditor();
    const panel = await openPanel();
    await ask(panel);
    await within(panel).findByRole("list", { name: /Proposed steps/ });
    await userEvent.click(within(panel).getByRole("button", { name: "Close the Draft from text panel" }));
    const dialog = await screen.findByRole("dialog", { name: "Insert the drafted steps?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Insert them and close" }));
    await waitFor(() => expect(screen.queryByRole("region", { name: "Draft from text" })).not.toBeInTheDocument());
    // Appended at the end: the test already opens the login page, so the draft's Open is left out.
    expect(stepNames()).toHaveLength(6);
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
  });

  it("is not offered on a test the caller cannot edit", async () => {
    fakeFetch({ ...routes(), ...testRoutes(testJSON({ status: "Ready", can: { ...testJSON().can, edit: false } })) });
    renderEditor();
    await screen.findByRole("button", { name: /^Step 1:/ });
    expect(screen.queryByRole("button", { name: "Draft from text" })).not.toBeInTheDocument();
  });
});
