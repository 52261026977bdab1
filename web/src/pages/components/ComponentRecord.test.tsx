import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeFetch, renderPage, testContext } from "../../test/render";
import { FakeEventSource, installFakeEventSource } from "../../test/eventSource";
import { NewComponentPage } from "./ComponentEditorPage";
import { registry } from "./componentFixtures";

installFakeEventSource();

const recording = (over: Record<string, unknown> = {}) => ({
  id: "rec_1",
  status: "recording",
  url: "http://site.test/",
  steps: [],
  error: null,
  environmentId: null,
  testId: null,
  createdAt: "2026-11-23T10:00:00Z",
  ...over,
});
const click = { id: "r1", type: "click", target: { locators: [{ kind: "role", value: "button", name: "Sign in" }] } };

describe("Record in the component editor", () => {
  it("offers the Record its empty step list promises, and appends the recorded steps to the component", async () => {
    const { calls } = fakeFetch({
      "GET /api/registry": { body: registry },
      "GET /api/environments": { body: { environments: [] } },
      "POST /api/record/start": { status: 201, body: recording() },
      "POST /api/record/rec_1/stop": { body: recording({ status: "stopped", steps: [click] }) },
    });
    const user = userEvent.setup();
    renderPage(<NewComponentPage />, { route: "/components/new", path: "/components/new", context: testContext("Test Developer") });
    expect(await screen.findByText(/record them with Record/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Record" }));
    const panel = screen.getByRole("region", { name: "Record" });
    await user.type(within(panel).getByLabelText("Start URL"), "http://site.test/");
    await user.click(within(panel).getByRole("button", { name: "Start recording" }));
    await waitFor(() => expect(calls.find((c) => c.path === "/api/record/start")?.headers["x-project-id"]).toBe("prj_1"));
    // The recording's steps come on its events stream (its live picture has a stream of its own).
    await waitFor(() => expect(FakeEventSource.all.some((e) => e.url.endsWith("/events"))).toBe(true));
    FakeEventSource.all.find((e) => e.url.endsWith("/events"))!.emit("step", { seq: 1, step: click });
    await user.click(await within(panel).findByRole("button", { name: "Stop and add the steps" }));
    expect(await within(panel).findByText("Added 1 recorded step to the component (unsaved).")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: 'Step 1: Click the button "Sign in"' })).toBeInTheDocument();
  });
});
