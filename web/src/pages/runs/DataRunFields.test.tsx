import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import type { Test, TestCan } from "../../api";
import { StartRunButton } from "./StartRunButton";

const can = { run: true } as TestCan;
const test: Test = {
  id: "tc_1",
  projectId: "prj_1",
  name: "Sign in",
  suite: null,
  tags: [],
  visibility: "Shared",
  owner: null,
  status: "Draft",
  version: 1,
  steps: 2,
  lastRun: null,
  lastSaved: { at: "2026-11-02T10:00:00Z", by: null },
  createdAt: "2026-11-01T10:00:00Z",
  can,
  quarantine: null,
};
const set = (id: string, name: string, emails: string[]) => ({
  id,
  projectId: "prj_1",
  name,
  columns: ["email", "password"],
  rows: emails.map((email) => ({ email, password: "pw" })),
  createdAt: "",
  updatedAt: "",
});
const users = set("tds_users00000000000000", "Users", ["ann@example.com", "bob@example.com", "cy@example.com"]);
const admins = set("tds_admins0000000000000", "Admins", ["root@example.com"]);

function routes(binding: object) {
  return {
    "GET /api/environments": { body: { environments: [] } },
    "GET /api/tests/tc_1": { body: { ...test, document: { dsl: 2, name: "Sign in", steps: [], data: binding } } },
    "GET /api/test-data": {
      body: {
        dataSets: [users, admins].map((s) => ({ id: s.id, name: s.name, columns: s.columns, rowCount: s.rows.length, updatedAt: "" })),
      },
    },
    [`GET /api/test-data/${users.id}`]: { body: users },
    [`GET /api/test-data/${admins.id}`]: { body: admins },
    "GET /api/data-pools/dpl_cards000000000000000": { body: { id: "dpl_cards000000000000000", name: "Cards", free: 2, total: 3 } },
    "POST /api/runs": { status: 201, body: { runId: "run_9", status: "queued" } },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("the run dialog's data", () => {
  it("runs all rows of the test's data set by default, sending no override", async () => {
    const { calls } = fakeFetch(routes({ set: users.id }));
    const user = userEvent.setup();
    renderPage(<StartRunButton test={test} />, { route: "/tests/tc_1", path: "/tests/:id" });
    await user.click(screen.getByRole("button", { name: "Run" }));
    const dialog = await screen.findByRole("dialog", { name: "Run Sign in" });
    expect(await within(dialog).findByLabelText("All 3 rows")).toBeChecked();
    expect(within(dialog).getByLabelText("Data set")).toHaveValue(users.id);
    await user.click(within(dialog).getByRole("button", { name: "Start run" }));
    await screen.findByTestId("elsewhere");
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ testId: "tc_1", headed: false, screenshots: true });
  });

  it("sends the chosen rows, and another data set when one is chosen", async () => {
    const { calls } = fakeFetch(routes({ set: users.id, pool: "dpl_cards000000000000000", mode: "consume" }));
    const user = userEvent.setup();
    renderPage(<StartRunButton test={test} />, { route: "/tests/tc_1", path: "/tests/:id" });
    await user.click(screen.getByRole("button", { name: "Run" }));
    const dialog = await screen.findByRole("dialog", { name: "Run Sign in" });
    expect(await within(dialog).findByTestId("run-pool-hint")).toHaveTextContent(
      "Takes a record of data pool Cards (2 of 3 free), to consume until the pool is reset.",
    );
    await user.click(await within(dialog).findByLabelText("Chosen rows"));
    await user.click(within(dialog).getByRole("button", { name: "Start run" }));
    expect(within(dialog).getByText("Choose at least one row, or run them all.")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);
    const rows = within(dialog).getByRole("group", { name: "Rows to run" });
    await user.click(within(rows).getByLabelText(/Row 3/));
    await user.click(within(rows).getByLabelText(/Row 1 email: ann@example.com/));
    await user.click(within(dialog).getByRole("button", { name: "Start run" }));
    await screen.findByTestId("elsewhere");
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ testId: "tc_1", headed: false, screenshots: true, rows: [0, 2] });
  });

  it("runs another data set", async () => {
    const { calls } = fakeFetch(routes({ set: users.id }));
    const user = userEvent.setup();
    renderPage(<StartRunButton test={test} />, { route: "/tests/tc_1", path: "/tests/:id" });
    await user.click(screen.getByRole("button", { name: "Run" }));
    const dialog = await screen.findByRole("dialog", { name: "Run Sign in" });
    await within(dialog).findByLabelText("All 3 rows");
    await user.selectOptions(within(dialog).getByLabelText("Data set"), admins.id);
    expect(await within(dialog).findByLabelText("All 1 row")).toBeChecked();
    await user.click(within(dialog).getByRole("button", { name: "Start run" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({
      testId: "tc_1",
      headed: false,
      screenshots: true,
      dataSetId: admins.id,
    });
  });
});
