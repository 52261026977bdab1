import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext } from "../../test/render";
import type { Schedule } from "../../api/schedules";
import { formatInZone } from "../../api/schedules";
import { SchedulesPage } from "./SchedulesPage";

afterEach(() => vi.unstubAllGlobals());

const nightly: Schedule = {
  id: "sch_nightly000000000",
  projectId: "prj_1",
  name: "Nightly",
  cron: "30 2 * * 1-5",
  timezone: "Europe/Paris",
  suite: "Checkout",
  tag: null,
  testIds: [],
  environmentId: null,
  options: { headed: false, screenshots: true, trace: "failures", retries: 0 },
  enabled: true,
  nextAt: "2026-11-02T01:30:00.000Z",
  next: ["2026-11-02T02:30:00+01:00", "2026-11-03T02:30:00+01:00"],
  ownerId: "usr_me",
  ownerName: "Mia Tester",
  lastRun: {
    dueAt: "2026-10-30T01:30:00.000Z",
    status: "skipped",
    batchId: null,
    reason: "no hub was running",
    createdAt: "2026-10-31T08:00:00.000Z",
  },
  createdAt: "2026-10-01T10:00:00.000Z",
  updatedAt: "2026-10-01T10:00:00.000Z",
};
const ENVS = { body: { environments: [] } };

describe("formatInZone", () => {
  it("writes the wall-clock time of the schedule's zone and names it", () => {
    expect(formatInZone("2026-11-02T01:30:00Z", "Europe/Paris")).toBe("Mon, 2 Nov 2026, 02:30 (Europe/Paris)");
    expect(formatInZone("2026-11-02T01:30:00Z", "America/New_York")).toBe("Sun, 1 Nov 2026, 20:30 (America/New_York)");
  });
});

describe("SchedulesPage", () => {
  it("lists schedules with what they run, when, the next time and the last one", async () => {
    fakeFetch({ "GET /api/schedules": { body: { schedules: [nightly] } } });
    renderPage(<SchedulesPage />, { route: "/schedules", path: "/schedules", context: testContext("Test Manager") });
    const row = (await screen.findByText("Nightly")).closest("tr")!;
    expect(row).toHaveTextContent("Suite Checkout");
    expect(row).toHaveTextContent("30 2 * * 1-5");
    expect(row).toHaveTextContent("Mon, 2 Nov 2026, 02:30 (Europe/Paris)");
    expect(row).toHaveTextContent("skipped no hub was running");
  });

  it("is read-only for a Tester", async () => {
    const { calls } = fakeFetch({ "GET /api/schedules": { body: { schedules: [nightly] } } });
    renderPage(<SchedulesPage />, { route: "/schedules", path: "/schedules", context: testContext("Tester") });
    expect(await screen.findByText("Nightly")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "New schedule" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Delete Nightly" })).not.toBeInTheDocument();
    expect(screen.getByRole("checkbox", { name: "Nightly enabled" })).toBeDisabled();
    expect(calls.filter((c) => c.method !== "GET")).toHaveLength(0);
  });

  it("pauses a schedule with its whole body", async () => {
    const { calls } = fakeFetch({
      "GET /api/schedules": { body: { schedules: [nightly] } },
      "PUT /api/schedules/sch_nightly000000000": { body: { ...nightly, enabled: false, next: [], nextAt: null } },
    });
    const user = userEvent.setup();
    renderPage(<SchedulesPage />, { route: "/schedules", path: "/schedules", context: testContext("Admin") });
    await user.click(await screen.findByRole("checkbox", { name: "Nightly enabled" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    expect(calls.find((c) => c.method === "PUT")!.body).toEqual({
      name: "Nightly",
      cron: "30 2 * * 1-5",
      timezone: "Europe/Paris",
      suite: "Checkout",
      options: nightly.options,
      enabled: false,
    });
  });

  it("asks before deleting", async () => {
    const { calls } = fakeFetch({
      "GET /api/schedules": { body: { schedules: [nightly] } },
      "DELETE /api/schedules/sch_nightly000000000": { status: 204 },
    });
    const user = userEvent.setup();
    renderPage(<SchedulesPage />, { route: "/schedules", path: "/schedules", context: testContext("Test Manager") });
    await user.click(await screen.findByRole("button", { name: "Delete Nightly" }));
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Delete schedule" }));
    await waitFor(() => expect(calls.some((c) => c.method === "DELETE")).toBe(true));
  });

  it("shows the next times as one types, or the hub's message, and creates the schedule", async () => {
    const { calls } = fakeFetch({
      "GET /api/schedules": { body: { schedules: [] } },
      "GET /api/suites": { body: { suites: [{ name: "Checkout", tests: 3 }] } },
      "GET /api/environments": ENVS,
      "GET /api/agent": { body: { agents: [], needed: false } },
      "POST /api/schedules/preview": (call) => {
        const b = call.body as { cron: string; timezone: string };
        if (b.cron.split(" ").length !== 5)
          return {
            status: 422,
            body: {
              error: "the schedule is not valid",
              code: "invalid",
              issues: [{ path: "cron", code: "fields", message: "a cron has 5 fields" }],
            },
          };
        return { body: { next: ["2026-11-02T02:30:00+01:00", "2026-11-03T02:30:00+01:00"] } };
      },
      "POST /api/schedules": { status: 201, body: nightly },
    });
    const user = userEvent.setup();
    renderPage(<SchedulesPage />, { route: "/schedules", path: "/schedules", context: testContext("Test Manager") });
    await user.click(await screen.findByRole("button", { name: "New schedule" }));
    await user.type(screen.getByLabelText("Name"), "Nightly");
    const cron = screen.getByLabelText("Cron");
    await user.clear(cron);
    await user.type(cron, "30 2 * *");
    expect(await screen.findByTestId("next-times-error")).toHaveTextContent("a cron has 5 fields");
    await user.type(cron, " 1-5");
    await user.selectOptions(screen.getByLabelText("Time zone"), "Europe/Paris");
    const times = await screen.findByTestId("next-times");
    await waitFor(() => expect(times).toHaveTextContent("Mon, 2 Nov 2026, 02:30 (Europe/Paris)"));
    await user.selectOptions(screen.getByLabelText("Suite"), "Checkout");
    await user.click(screen.getByRole("button", { name: "Create schedule" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.path === "/api/schedules")).toBe(true));
    expect(calls.find((c) => c.method === "POST" && c.path === "/api/schedules")!.body).toEqual({
      name: "Nightly",
      cron: "30 2 * * 1-5",
      timezone: "Europe/Paris",
      suite: "Checkout",
      options: { headed: false, screenshots: true, trace: "failures" },
      enabled: true,
    });
  });
});
