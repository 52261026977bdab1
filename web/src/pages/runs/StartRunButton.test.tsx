import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext } from "../../test/render";
import type { Test, TestCan } from "../../api";
import { EnvironmentsPage } from "../environments/EnvironmentsPage";
import { StartRunButton } from "./StartRunButton";

const can: TestCan = {
  edit: true,
  run: true,
  delete: true,
  markReady: true,
  deprecate: false,
  revise: false,
  duplicate: true,
  share: true,
  transfer: false,
  restore: true,
  runProtected: true,
  quarantine: false,
};

function makeTest(over: Partial<Test> = {}): Test {
  return {
    id: "tc_1",
    projectId: "prj_1",
    name: "Checkout",
    suite: null,
    tags: [],
    visibility: "Shared",
    owner: null,
    status: "Ready",
    version: 4,
    steps: 3,
    lastRun: null,
    lastSaved: { at: "2026-11-02T10:00:00Z", by: null },
    createdAt: "2026-11-01T10:00:00Z",
    can,
    quarantine: null,
    ...over,
  };
}

const envs = {
  "GET /api/environments": {
    body: {
      environments: [
        { id: "env_1", projectId: "prj_1", name: "Staging", protected: false },
        { id: "env_2", projectId: "prj_1", name: "Production", protected: true },
      ],
    },
  },
};

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("StartRunButton", () => {
  it("runs on the device chosen from the registry's list", async () => {
    const devices = [
      { name: "iPhone 15", width: 393, height: 852, deviceScaleFactor: 3, isMobile: true, hasTouch: true, userAgent: "iPhone" },
      { name: "Pixel 7", width: 412, height: 915, deviceScaleFactor: 2.625, isMobile: true, hasTouch: true, userAgent: "Pixel 7" },
    ];
    const { calls } = fakeFetch({
      ...envs,
      "GET /api/registry": { body: { dslVersion: 2, locatorKinds: [], stepTypes: [], devices } },
      "POST /api/runs": { status: 201, body: { runId: "run_42", status: "queued" } },
    });
    renderPage(<StartRunButton test={makeTest()} />, { route: "/tests/tc_1", path: "/tests/:id" });
    await userEvent.click(screen.getByRole("button", { name: "Run" }));
    const dialog = await screen.findByRole("dialog", { name: "Run Checkout" });
    const select = within(dialog).getByLabelText("Device");
    expect(select).toHaveValue("");
    await within(select).findByRole("option", { name: "Pixel 7 (412×915)" });
    await userEvent.selectOptions(select, "Pixel 7");
    await userEvent.click(within(dialog).getByRole("button", { name: "Start run" }));
    await screen.findByTestId("elsewhere");
    const post = calls.find((c) => c.method === "POST");
    expect(post?.body).toEqual({ testId: "tc_1", headed: false, screenshots: true, device: "Pixel 7" });
  });

  it("starts a run with the chosen options and opens its page", async () => {
    const { calls } = fakeFetch({ ...envs, "POST /api/runs": { status: 201, body: { runId: "run_42", status: "queued" } } });
    renderPage(<StartRunButton test={makeTest()} />, { route: "/tests/tc_1", path: "/tests/:id" });
    await userEvent.click(screen.getByRole("button", { name: "Run" }));
    const dialog = await screen.findByRole("dialog", { name: "Run Checkout" });
    const select = within(dialog).getByLabelText("Environment");
    await within(select).findByRole("option", { name: "Staging" });
    expect(select).toHaveValue("");
    await userEvent.selectOptions(select, "Staging");
    expect(within(dialog).queryByText(/is protected/)).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByLabelText("Headed (show the browser window)"));
    const shots = within(dialog).getByRole("group", { name: "Screenshots" });
    expect(within(shots).getByLabelText("Every step")).toBeChecked();
    await userEvent.click(within(shots).getByLabelText("Failures only"));
    await userEvent.click(within(dialog).getByRole("button", { name: "Start run" }));
    await screen.findByTestId("elsewhere");
    const post = calls.find((c) => c.method === "POST");
    expect(post?.path).toBe("/api/runs");
    expect(post?.body).toEqual({ testId: "tc_1", environmentId: "env_1", headed: true, screenshots: false });
    expect(post?.headers["x-project-id"]).toBe("prj_1");
  });

  it("sends no environment and every screenshot by default", async () => {
    const { calls } = fakeFetch({ ...envs, "POST /api/runs": { status: 201, body: { runId: "run_43", status: "queued" } } });
    renderPage(<StartRunButton test={makeTest()} />, { route: "/tests/tc_1", path: "/tests/:id" });
    await userEvent.click(screen.getByRole("button", { name: "Run" }));
    await userEvent.click(await screen.findByRole("button", { name: "Start run" }));
    await screen.findByTestId("elsewhere");
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ testId: "tc_1", headed: false, screenshots: true });
  });

  it("shows the hub's refusal", async () => {
    fakeFetch({
      ...envs,
      "POST /api/runs": {
        status: 409,
        body: { error: "this test is Deprecated and cannot be run; duplicate it to work from a copy", code: "deprecated" },
      },
    });
    renderPage(<StartRunButton test={makeTest()} />, { route: "/tests/tc_1", path: "/tests/:id" });
    await userEvent.click(screen.getByRole("button", { name: "Run" }));
    await userEvent.click(await screen.findByRole("button", { name: "Start run" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("this test is Deprecated and cannot be run");
    expect(screen.queryByTestId("elsewhere")).not.toBeInTheDocument();
  });

  it("marks a protected environment and, for a Tester, says before the run why it is refused", async () => {
    const refusal = 'environment "Production" is protected: its secrets go only to runs of Ready tests started by a Test Manager or Admin';
    const { calls } = fakeFetch({
      ...envs,
      "POST /api/runs": { status: 403, body: { error: refusal, code: "environment_protected" } },
    });
    renderPage(<StartRunButton test={makeTest({ can: { ...can, runProtected: false } })} />, {
      route: "/tests/tc_1",
      path: "/tests/:id",
      context: testContext("Tester"),
    });
    await userEvent.click(screen.getByRole("button", { name: "Run" }));
    const dialog = await screen.findByRole("dialog", { name: "Run Checkout" });
    const select = within(dialog).getByLabelText("Environment");
    await within(select).findByRole("option", { name: "Production (protected)" });
    expect(within(select).getByRole("option", { name: "Staging" })).toBeInTheDocument();
    await userEvent.selectOptions(select, "env_2");
    expect(within(dialog).getByRole("status")).toHaveTextContent(
      "Production is protected: its secrets go only to runs started by a Test Manager or Admin; your role in this project is Tester.",
    );
    // The hub's refusal is shown too when they try anyway.
    await userEvent.click(within(dialog).getByRole("button", { name: "Start run" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(refusal);
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({ environmentId: "env_2" });
    expect(screen.queryByTestId("elsewhere")).not.toBeInTheDocument();
  });

  it("says a Draft test cannot use a protected environment, whatever the role", async () => {
    fakeFetch(envs);
    renderPage(<StartRunButton test={makeTest({ status: "Draft", can: { ...can, runProtected: false } })} />, {
      route: "/tests/tc_1",
      path: "/tests/:id",
      context: testContext("Admin"),
    });
    await userEvent.click(screen.getByRole("button", { name: "Run" }));
    const dialog = await screen.findByRole("dialog", { name: "Run Checkout" });
    const select = within(dialog).getByLabelText("Environment");
    await within(select).findByRole("option", { name: "Production (protected)" });
    await userEvent.selectOptions(select, "env_2");
    expect(within(dialog).getByRole("status")).toHaveTextContent("only to runs of Ready tests, and this test is Draft");
  });

  it("tells a Test Manager running a Ready test what protection means, without a warning", async () => {
    const { calls } = fakeFetch({ ...envs, "POST /api/runs": { status: 201, body: { runId: "run_44", status: "queued" } } });
    renderPage(<StartRunButton test={makeTest()} />, { route: "/tests/tc_1", path: "/tests/:id", context: testContext("Test Manager") });
    await userEvent.click(screen.getByRole("button", { name: "Run" }));
    const dialog = await screen.findByRole("dialog", { name: "Run Checkout" });
    const select = within(dialog).getByLabelText("Environment");
    await within(select).findByRole("option", { name: "Production (protected)" });
    await userEvent.selectOptions(select, "env_2");
    expect(within(dialog).queryByRole("status")).not.toBeInTheDocument();
    expect(within(dialog).getByText(/Production is protected\. Secrets are sent only to runs of Ready tests/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Start run" }));
    await screen.findByTestId("elsewhere");
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({ environmentId: "env_2" });
  });

  it("is not offered when the caller may not run the test", () => {
    fakeFetch(envs);
    renderPage(<StartRunButton test={makeTest({ can: { ...can, run: false } })} />, { route: "/tests/tc_1", path: "/tests/:id" });
    expect(screen.queryByRole("button", { name: "Run" })).not.toBeInTheDocument();
  });

  it("closes without starting anything on Cancel", async () => {
    const { calls } = fakeFetch(envs);
    renderPage(<StartRunButton test={makeTest()} />, { route: "/tests/tc_1", path: "/tests/:id" });
    await userEvent.click(screen.getByRole("button", { name: "Run" }));
    await userEvent.click(await screen.findByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === "POST")).toBe(false);
  });

  it("lists an environment created since the dialog was last opened", async () => {
    const env = (id: string, name: string) => ({
      id,
      projectId: "prj_1",
      name,
      variables: {},
      secrets: [],
      applicationId: null,
      protected: false,
      createdAt: "2026-11-01T10:00:00Z",
      updatedAt: "2026-11-01T10:00:00Z",
    });
    const list = [env("env_1", "Staging")];
    fakeFetch({
      "GET /api/environments": () => ({ body: { environments: list } }),
      "GET /api/applications": { body: { applications: [] } },
      "POST /api/environments": () => {
        list.push(env("env_2", "QA"));
        return { status: 201, body: list[1] };
      },
    });
    const user = userEvent.setup();
    renderPage(
      <>
        <StartRunButton test={makeTest()} />
        <EnvironmentsPage />
      </>,
      { route: "/tests/tc_1", path: "/tests/:id", context: testContext("Test Manager") },
    );
    await user.click(screen.getByRole("button", { name: "Run" }));
    let dialog = await screen.findByRole("dialog", { name: "Run Checkout" });
    await within(within(dialog).getByLabelText("Environment")).findByRole("option", { name: "Staging" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    await user.click(await screen.findByRole("button", { name: "New environment" }));
    const form = await screen.findByRole("dialog", { name: "New environment" });
    await user.type(within(form).getByLabelText("Name"), "QA");
    await user.click(within(form).getByRole("button", { name: "Create environment" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    await user.click(screen.getByRole("button", { name: "Run" }));
    dialog = await screen.findByRole("dialog", { name: "Run Checkout" });
    expect(await within(within(dialog).getByLabelText("Environment")).findByRole("option", { name: "QA" })).toBeInTheDocument();
  });

  it("warns when the test uses ${baseUrl} and no environment is chosen", async () => {
    fakeFetch({ ...envs, "GET /api/agent": { body: { agents: [], needed: true } } });
    const doc = { dsl: 2, name: "Checkout", steps: [{ id: "s1", type: "navigate", url: "${baseUrl}/cart" }] };
    renderPage(<StartRunButton test={makeTest({ document: doc as Test["document"] })} />, { route: "/tests/tc_1", path: "/tests/:id" });
    await userEvent.click(screen.getByRole("button", { name: "Run" }));
    const dialog = await screen.findByRole("dialog", { name: "Run Checkout" });
    const env = within(dialog).getByLabelText("Environment");
    await within(env).findByRole("option", { name: "Staging" });
    await userEvent.selectOptions(env, "");
    expect(within(dialog).getByText(/which only an environment fills/)).toBeInTheDocument();
    await userEvent.selectOptions(env, "env_1");
    expect(within(dialog).queryByText(/which only an environment fills/)).not.toBeInTheDocument();
  });

  it("warns from the editor's document when the test object carries none", async () => {
    // The editor loads the test without its document (it keeps the document
    // apart, with unsaved edits): the warning must read the editor's one.
    fakeFetch({ ...envs, "GET /api/agent": { body: { agents: [], needed: true } } });
    const doc = { dsl: 2, name: "Checkout", steps: [{ id: "s1", type: "navigate", url: "${baseUrl}/cart" }] };
    renderPage(<StartRunButton test={makeTest({ document: undefined })} document={doc} />, { route: "/tests/tc_1", path: "/tests/:id" });
    await userEvent.click(screen.getByRole("button", { name: "Run" }));
    const dialog = await screen.findByRole("dialog", { name: "Run Checkout" });
    const env = within(dialog).getByLabelText("Environment");
    await within(env).findByRole("option", { name: "Staging" });
    await userEvent.selectOptions(env, "");
    expect(within(dialog).getByText(/which only an environment fills/)).toBeInTheDocument();
  });

  describe("what it says about the agents", () => {
    const agent = (over: { headless?: boolean; [k: string]: unknown }) => ({
      id: "agt_1",
      name: "ci-box",
      os: "linux",
      connected: true,
      busy: 0,
      headless: false,
      labels: [],
      browserVersion: "Chrome/131.0.6778.85",
      state: over.connected === false ? "offline" : "idle",
      lastSeen: "2026-11-02T10:00:00Z",
      createdAt: "2026-11-01T10:00:00Z",
      ...over,
      display: !over.headless,
    });
    const open = async () => {
      renderPage(<StartRunButton test={makeTest()} />, { route: "/tests/tc_1", path: "/tests/:id" });
      await userEvent.click(screen.getByRole("button", { name: "Run" }));
      return screen.findByRole("dialog", { name: "Run Checkout" });
    };

    it("says when no agent is connected and where to start and pair one; the run still starts", async () => {
      const { calls } = fakeFetch({
        ...envs,
        "GET /api/agent": { body: { agents: [], needed: true } },
        "POST /api/runs": { status: 201, body: { runId: "run_44", status: "queued" } },
      });
      const dialog = await open();
      const notice = await within(dialog).findByText(/No agent of yours is connected/);
      expect(notice).toHaveTextContent("this run waits in the queue until one is. Start the desktop agent on your computer and pair it");
      expect(within(notice).getByRole("link", { name: "how to start and pair an agent" })).toHaveAttribute("href", "/agents");
      await userEvent.click(within(dialog).getByRole("button", { name: "Start run" }));
      await screen.findByTestId("elsewhere");
      expect(calls.some((c) => c.method === "POST" && c.path === "/api/runs")).toBe(true);
    });

    it("warns before a headed run that no connected agent has a display", async () => {
      fakeFetch({
        ...envs,
        "GET /api/agent": {
          body: { agents: [agent({ headless: true }), agent({ id: "agt_2", name: "old-laptop", connected: false })], needed: false },
        },
      });
      const dialog = await open();
      const headed = within(dialog).getByLabelText("Headed (show the browser window)");
      await waitFor(() => expect(within(dialog).queryByText(/No agent of yours/)).not.toBeInTheDocument());
      expect(within(dialog).queryByText(/has a display/)).not.toBeInTheDocument();
      await userEvent.click(headed);
      expect(await within(dialog).findByText(/None of your connected agents has a display/)).toHaveTextContent(
        "this headed run waits in the queue until one does",
      );
      await userEvent.click(headed);
      expect(within(dialog).queryByText(/has a display/)).not.toBeInTheDocument();
    });

    it("sends the agent chosen, or the labels typed", async () => {
      const { calls } = fakeFetch({
        ...envs,
        "GET /api/agent": {
          body: { agents: [agent({ headless: true }), agent({ id: "agt_2", name: "desk", labels: ["linux"] })], needed: false },
        },
        "POST /api/runs": { status: 201, body: { runId: "run_45", status: "queued" } },
      });
      const dialog = await open();
      await userEvent.click(within(dialog).getByLabelText("Headed (show the browser window)"));
      const select = within(dialog).getByLabelText("Agent");
      expect(await within(select).findByRole("option", { name: /ci-box \(idle · no display\)/ })).toBeDisabled();
      await userEvent.selectOptions(select, "agent:agt_2");
      await userEvent.click(within(dialog).getByRole("button", { name: "Start run" }));
      await screen.findByTestId("elsewhere");
      const post = calls.find((c) => c.method === "POST" && c.path === "/api/runs");
      expect(post?.body).toMatchObject({ agentId: "agt_2", headed: true });
    });

    it("says nothing when a connected agent has a display", async () => {
      const { calls } = fakeFetch({
        ...envs,
        "GET /api/agent": { body: { agents: [agent({ headless: true }), agent({ id: "agt_2", headless: false })], needed: false } },
      });
      const dialog = await open();
      await userEvent.click(within(dialog).getByLabelText("Headed (show the browser window)"));
      await waitFor(() => expect(calls.some((c) => c.path === "/api/agent")).toBe(true));
      await new Promise((r) => setTimeout(r, 20));
      expect(within(dialog).queryByText(/has a display|No agent of yours/)).not.toBeInTheDocument();
    });
  });
});
