import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";
import { fakeFetch, renderPage, testContext } from "../../test/render";
import { FakeEventSource, installFakeEventSource } from "../../test/eventSource";
import { useWorkspace } from "../../session";
import type { Run, RunEvent } from "../../api/runs";
import { RunPage } from "./RunPage";

function makeRun(over: Partial<Run> = {}): Run {
  return {
    runId: "run_1",
    testId: "tc_1",
    testName: "Sign in",
    batchId: null,
    projectId: "prj_1",
    environmentId: "env_1",
    status: "running",
    passed: 0,
    total: 0,
    durationMs: 0,
    version: 3,
    options: { headed: false, screenshots: true, retries: 0 },
    flaky: false,
    quarantined: false,
    result: { steps: [] },
    attempts: 1,
    startedBy: "usr_me",
    startedByName: "Mia Tester",
    createdAt: "2026-11-02T10:00:00Z",
    startedAt: "2026-11-02T10:00:01Z",
    finishedAt: null,
    ...over,
  };
}

const common = {
  "GET /api/tests/tc_1/versions/3": {
    body: {
      version: 3,
      document: {
        dsl: 2,
        name: "Sign in",
        steps: [
          { id: "s1", type: "navigate", url: "${baseUrl}/login", description: "Open the sign-in page" },
          { id: "s2", type: "click", target: { locators: [{ kind: "role", value: "button", name: "Sign in" }] } },
        ],
      },
    },
  },
  "GET /api/environments": { body: { environments: [{ id: "env_1", projectId: "prj_1", name: "Staging" }] } },
  "GET /api/agent": { body: { agents: [], needed: true } },
};

let n = 0;
function ev(kind: RunEvent["kind"], fields: Partial<RunEvent> = {}): RunEvent {
  n += 1;
  return { runId: "run_1", seq: n, time: "2026-11-02T10:00:02Z", kind, ...fields };
}

installFakeEventSource();
beforeEach(() => {
  n = 0;
});

describe("RunPage", () => {
  it("shows each step as it starts and turns passed, then the final result, and stops listening", async () => {
    fakeFetch({ ...common, "GET /api/runs/run_1": { status: 202, body: makeRun() } });
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    expect(await screen.findByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/tests/tc_1");
    await waitFor(() => expect(FakeEventSource.all).toHaveLength(1));
    const es = FakeEventSource.latest();
    expect(es.url).toBe("/api/runs/run_1/events");
    es.open();
    expect(await screen.findByText("Staging")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Cancel run" })).toBeInTheDocument();

    es.emitRun(ev("run.started", { version: 3, total: 2 }));
    es.emitRun(ev("step.started", { index: 0, id: "s1", type: "navigate" }));
    const step1 = await screen.findByTestId("step-1");
    expect(within(step1).getByText("running")).toBeInTheDocument();
    expect(within(step1).getByText("navigate")).toBeInTheDocument();
    expect(await within(step1).findByText("Open the sign-in page")).toBeInTheDocument();

    es.emitRun(ev("artifact", { name: "step-001-s1.png", contentType: "image/png", step: 0, size: 100 }));
    es.emitRun(
      ev("step.finished", { index: 0, id: "s1", type: "navigate", status: "passed", durationMs: 420, screenshot: "step-001-s1.png" }),
    );
    await waitFor(() => expect(within(screen.getByTestId("step-1")).getByText("passed")).toBeInTheDocument());
    expect(within(screen.getByTestId("step-1")).getByText("420 ms")).toBeInTheDocument();

    es.emitRun(ev("step.started", { index: 1, id: "s2", type: "click" }));
    es.emitRun(ev("step.retry", { index: 1, id: "s2", type: "click", attempt: 2, error: "not visible yet" }));
    es.emitRun(ev("log", { level: "warn", message: "step s2: healed by the fallback locator", step: 1 }));
    es.emitRun(
      ev("step.finished", {
        index: 1,
        id: "s2",
        type: "click",
        status: "passed",
        durationMs: 1500,
        healedBy: { kind: "css", value: "#sign-in" },
      }),
    );
    const step2 = screen.getByTestId("step-2");
    expect(within(step2).getByText("retried 1×")).toBeInTheDocument();
    expect(within(step2).getByText(/Healed: found by the fallback locator/)).toHaveTextContent('css "#sign-in"');
    expect(within(step2).getByText('Click the button "Sign in"')).toBeInTheDocument();
    expect(screen.getByText(/Log \(1 line/)).toBeInTheDocument();

    es.emitRun(ev("run.finished", { status: "passed", passed: 2, total: 2, durationMs: 2100 }));
    const result = await screen.findByRole("region", { name: "Result" });
    expect(result).toHaveTextContent("Passed.");
    expect(result).toHaveTextContent("2 of 2 steps passed in 2.1 s");
    expect(screen.getByTestId("run-passed")).toHaveTextContent("2/2");
    expect(screen.queryByRole("button", { name: "Cancel run" })).not.toBeInTheDocument();
    expect(es.readyState).toBe(2);

    await userEvent.click(screen.getByRole("button", { name: "Open screenshot of step 1" }));
    const dialog = await screen.findByRole("dialog", { name: "Screenshot of step 1" });
    expect(within(dialog).getByRole("img")).toHaveAttribute("src", "/api/runs/run_1/artifacts/step-001-s1.png");
  });

  it("renders a finished run from its stored result and closes the stream on unmount", async () => {
    fakeFetch({
      ...common,
      "GET /api/runs/run_1": {
        status: 200,
        body: makeRun({
          status: "failed",
          passed: 1,
          total: 2,
          durationMs: 5300,
          error: "step 2 (click): no element matches",
          finishedAt: "2026-11-02T10:00:07Z",
          result: {
            steps: [
              { index: 0, id: "s1", type: "navigate", status: "passed", durationMs: 300, screenshot: "step-001-s1.png" },
              { index: 1, id: "s2", type: "click", status: "failed", durationMs: 5000, error: "no element matches", attempts: 4 },
            ],
          },
        }),
      },
    });
    const { unmount } = renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    const result = await screen.findByRole("region", { name: "Result" });
    expect(result).toHaveTextContent("Failed");
    expect(result).toHaveTextContent("step 2 (click): no element matches");
    expect(within(screen.getByTestId("step-2")).getByText("failed")).toBeInTheDocument();
    expect(within(screen.getByTestId("step-2")).getByText("retried 3×")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Open screenshot of step 1" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Cancel run" })).not.toBeInTheDocument();
    await waitFor(() => expect(FakeEventSource.all).toHaveLength(1));
    const es = FakeEventSource.latest();
    unmount();
    expect(es.readyState).toBe(2);
  });

  it("explains a queued run waits for an agent and cancels it", async () => {
    const { calls } = fakeFetch({
      ...common,
      "GET /api/runs/run_1": { status: 202, body: makeRun({ status: "queued", startedAt: null }) },
      "POST /api/runs/run_1/cancel": { status: 202, body: { runId: "run_1", status: "cancelling" } },
    });
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    expect(await screen.findByText("Waiting for an agent.")).toBeInTheDocument();
    expect(await screen.findByRole("link", { name: "pair a computer or start its agent" })).toHaveAttribute("href", "/agents");
    await userEvent.click(screen.getByRole("button", { name: "Cancel run" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.path === "/api/runs/run_1/cancel")).toBe(true));
    expect(await screen.findByRole("button", { name: "Cancelling…" })).toBeDisabled();
  });

  it("says what a queued run waits for when a connected agent cannot take it", async () => {
    fakeFetch({
      ...common,
      "GET /api/agent": { body: { agents: [], needed: false } },
      "GET /api/runs/run_1": {
        status: 202,
        body: makeRun({ status: "queued", startedAt: null, waiting: "waiting for an agent with a display" }),
      },
    });
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    expect(await screen.findByText("It is waiting for an agent with a display.")).toBeInTheDocument();
  });

  it("says so when the run does not exist for the caller", async () => {
    fakeFetch({ ...common, "GET /api/runs/run_1": { status: 404, body: { error: "no such run", code: "not_found" } } });
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    expect(await screen.findByRole("alert")).toHaveTextContent("Not found");
    expect(FakeEventSource.all).toHaveLength(0);
  });

  it("opens a run of another of the caller's projects and makes that project the current one", async () => {
    const { calls } = fakeFetch({
      ...common,
      "GET /api/runs/run_1": {
        body: makeRun({ projectId: "prj_2", status: "passed", environmentId: null, startedBy: "usr_2", startedByName: "Bo Builder" }),
      },
    });
    const context = testContext();
    context.organizations[0].projects?.push({ id: "prj_2", orgId: "org_1", name: "Blog", role: "Tester" });
    function CurrentProject() {
      return <p data-testid="current">{useWorkspace().project?.name}</p>;
    }
    renderPage(
      <>
        <CurrentProject />
        <RunPage />
      </>,
      { route: "/runs/run_1", path: "/runs/:id", context },
    );
    expect(await screen.findByRole("link", { name: "Sign in" })).toBeInTheDocument();
    expect(await screen.findByText("Bo Builder")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId("current")).toHaveTextContent("Blog"));
    for (const path of ["/api/runs/run_1", "/api/tests/tc_1/versions/3"]) {
      const call = calls.find((c) => c.method === "GET" && c.path === path);
      expect(call?.headers["x-project-id"]).toBeUndefined();
    }
  });

  it("explains a failed step: the values it used, a link to it in the editor, and Run again with the same options", async () => {
    const failed = makeRun({
      status: "failed",
      passed: 1,
      total: 2,
      durationMs: 5300,
      options: { headed: true, screenshots: false, retries: 0, device: "Pixel 7" },
      finishedAt: "2026-11-02T10:00:07Z",
      result: {
        steps: [
          { index: 0, id: "s1", type: "navigate", status: "passed", durationMs: 300, used: { url: "https://shop.test/login" } },
          { index: 1, id: "s2", type: "click", status: "failed", durationMs: 5000, error: "no element matches", attempts: 1 },
        ],
      },
    });
    const { calls } = fakeFetch({
      ...common,
      "GET /api/runs/run_1": { status: 200, body: failed },
      "POST /api/runs": { status: 201, body: { runId: "run_2", status: "queued" } },
      "GET /api/runs/run_2": { status: 202, body: makeRun({ runId: "run_2", status: "queued", startedAt: null }) },
    });
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    const step1 = await screen.findByTestId("step-1");
    expect(within(step1).getByTestId("step-1-used")).toHaveTextContent("opened https://shop.test/login");
    const step2 = screen.getByTestId("step-2");
    expect(within(step2).queryByText(/retried/)).not.toBeInTheDocument();
    expect(within(step2).getByRole("link", { name: "Open step 2 in the editor" })).toHaveAttribute("href", "/tests/tc_1?step=s2");
    expect(within(step1).queryByRole("link", { name: /in the editor/ })).not.toBeInTheDocument();
    expect(screen.getByText(/screenshots of failures only; as a Pixel 7/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Run again" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.path === "/api/runs")).toBe(true));
    const post = calls.find((c) => c.method === "POST" && c.path === "/api/runs");
    expect(post?.body).toEqual({ testId: "tc_1", environmentId: "env_1", headed: true, screenshots: false, device: "Pixel 7" });
    expect(post?.headers["x-project-id"]).toBe("prj_1");
    expect(await screen.findByText("Waiting for an agent.")).toBeInTheDocument();
  });

  it("says prominently when headed was asked for but the agent has no display", async () => {
    fakeFetch({
      ...common,
      "GET /api/runs/run_1": { status: 202, body: makeRun({ options: { headed: true, screenshots: true, retries: 0 } }) },
    });
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    await waitFor(() => expect(FakeEventSource.all).toHaveLength(1));
    const es = FakeEventSource.latest();
    es.open();
    es.emitRun(ev("run.started", { version: 3, total: 2, headed: true }));
    expect(screen.queryByText(/this agent has no display/)).not.toBeInTheDocument();
    es.emitRun(ev("run.started", { version: 3, total: 2, headed: false }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Headed was asked for but this agent has no display: the browser ran without a window",
    );
  });

  it("draws the element's box on a screenshot that loaded before the box came", async () => {
    fakeFetch({ ...common, "GET /api/runs/run_1": { status: 202, body: makeRun() } });
    renderPage(<RunPage />, { route: "/runs/run_1", path: "/runs/:id" });
    await waitFor(() => expect(FakeEventSource.all).toHaveLength(1));
    const es = FakeEventSource.latest();
    es.open();
    es.emitRun(ev("run.started", { version: 3, total: 2 }));
    es.emitRun(ev("step.started", { index: 0, id: "s1", type: "navigate" }));
    es.emitRun(ev("artifact", { name: "step-001-s1-failure.png", contentType: "image/png", step: 0, size: 100 }));
    const thumb = await screen.findByRole("button", { name: "Open screenshot of step 1" });
    const img = thumb.querySelector("img");
    if (!img) throw new Error("no thumbnail image");
    Object.defineProperty(img, "naturalWidth", { value: 2000 });
    Object.defineProperty(img, "naturalHeight", { value: 1000 });
    fireEvent.load(img);
    expect(within(thumb).queryByTestId("element-box")).not.toBeInTheDocument();
    const box = { x: 100, y: 50, width: 200, height: 40, viewportWidth: 1000, viewportHeight: 500, dpr: 2 };
    es.emitRun(
      ev("step.finished", {
        index: 0,
        id: "s1",
        type: "navigate",
        status: "failed",
        durationMs: 10,
        screenshot: "step-001-s1-failure.png",
        box,
      }),
    );
    const drawn = await within(thumb).findByTestId("element-box");
    // The filmstrip shows the page at 0.6 of its size: 100 px from the left is 60 px.
    expect(drawn.style.left).toBe("60px");
    expect(drawn.style.width).toBe("120px");
  });
});
