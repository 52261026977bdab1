import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext } from "../../test/render";
import type { DataPool } from "../../api/dataPools";
import { DataPoolPage } from "./DataPoolPage";
import { DataPoolsPage } from "./DataPoolsPage";

afterEach(() => vi.unstubAllGlobals());

const base: DataPool = {
  id: "dpl_cards000000000000000",
  projectId: "prj_1",
  name: "Cards",
  columns: ["card"],
  free: 1,
  leased: 1,
  consumed: 1,
  total: 3,
  protected: false,
  updatedAt: "2026-11-01T10:00:00Z",
  createdAt: "2026-11-01T10:00:00Z",
  records: [
    { index: 0, values: { card: "4111" }, state: "free" },
    {
      index: 1,
      values: { card: "4222" },
      state: "leased",
      runId: "run_held",
      testId: "tc_pay",
      testName: "Pay",
      takenBy: { id: "usr_bo", name: "Bo Runner" },
      takenAt: "2026-11-02T10:00:00Z",
    },
    { index: 2, values: { card: "4333" }, state: "consumed" },
  ],
};
const freed: DataPool = {
  ...base,
  free: 2,
  consumed: 0,
  records: [base.records[0], base.records[1], { ...base.records[2], state: "free" }],
};

const route = { route: `/data-pools/${base.id}`, path: "/data-pools/:id", context: testContext("Test Developer") };

describe("DataPoolPage", () => {
  it("shows each record's state and who holds it, and resets the pool after asking", async () => {
    let pool = base;
    const { calls } = fakeFetch({
      [`GET /api/data-pools/${base.id}`]: () => ({ body: pool }),
      [`POST /api/data-pools/${base.id}/reset`]: () => {
        pool = freed;
        return { body: freed };
      },
    });
    const user = userEvent.setup();
    renderPage(<DataPoolPage />, route);
    expect(await screen.findByRole("heading", { name: "Cards" })).toBeInTheDocument();
    expect(screen.getByTestId("pool-counts")).toHaveTextContent("1 free 1 leased 1 consumed of 3");
    const leased = screen.getByTestId("record-2");
    expect(within(leased).getByText("leased")).toHaveClass("badge-leased");
    expect(within(leased).getByRole("link", { name: "run_held" })).toHaveAttribute("href", "/runs/run_held");
    expect(within(leased).getByRole("link", { name: "Pay" })).toHaveAttribute("href", "/tests/tc_pay");
    expect(within(leased).getByText(/by Bo Runner/)).toBeInTheDocument();
    expect(within(screen.getByTestId("record-3")).getByText("consumed")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Reset" }));
    const dialog = screen.getByRole("dialog", { name: "Reset data pool Cards?" });
    expect(dialog).toHaveTextContent("Its 1 consumed record becomes free again");
    await user.click(within(dialog).getByRole("button", { name: "Reset pool" }));
    await waitFor(() => expect(within(screen.getByTestId("record-3")).getByText("free")).toBeInTheDocument());
    expect(screen.getByTestId("pool-counts")).toHaveTextContent("2 free 1 leased 0 consumed of 3");
    expect(screen.getByText(/The pool was reset/)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "POST").map((c) => c.path)).toEqual([`/api/data-pools/${base.id}/reset`]);
  });

  it("shows the hub's refusal to change leased records and keeps the edits", async () => {
    const { calls } = fakeFetch({
      [`GET /api/data-pools/${base.id}`]: { body: base },
      "POST /api/data-pools": {
        status: 409,
        body: {
          error: "a queued or running run holds a record of this data pool, so its records cannot change until that run ends",
          code: "pool_in_use",
        },
      },
    });
    const user = userEvent.setup();
    renderPage(<DataPoolPage />, route);
    await user.click(await screen.findByRole("button", { name: "Edit records" }));
    expect(screen.getByText(/1 record is leased by a run that is going on/)).toBeInTheDocument();
    await user.type(screen.getByLabelText("Record 1 card"), "9");
    await user.click(screen.getByRole("button", { name: "Add record" }));
    await user.type(screen.getByLabelText("Record 4 card"), "4444");
    expect(screen.getByText(/Saving changed records makes every record free again/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Save records" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The data pool was not saved: a queued or running run holds a record of this data pool, so its records cannot change until that run ends",
    );
    expect(screen.getByLabelText("Record 1 card")).toHaveValue("41119");
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({
      id: base.id,
      name: "Cards",
      protected: false,
      columns: ["card"],
      records: [{ card: "41119" }, { card: "4222" }, { card: "4333" }, { card: "4444" }],
    });
  });

  it("hides the changing buttons from a Tester", async () => {
    fakeFetch({ [`GET /api/data-pools/${base.id}`]: { body: base } });
    renderPage(<DataPoolPage />, { ...route, context: testContext("Tester") });
    expect(await screen.findByRole("heading", { name: "Cards" })).toBeInTheDocument();
    for (const name of ["Edit records", "Reset", "Delete"]) expect(screen.queryByRole("button", { name })).not.toBeInTheDocument();
  });
});

describe("DataPoolsPage", () => {
  it("lists pools with their free, leased and consumed counts", async () => {
    fakeFetch({ "GET /api/data-pools": { body: { dataPools: [{ ...base, records: undefined }] } } });
    renderPage(<DataPoolsPage />, { route: "/data-pools", path: "/data-pools", context: testContext("Test Developer") });
    const row = (await screen.findByRole("link", { name: "Cards" })).closest("tr")!;
    expect(
      within(row)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["Cards", "card", "1", "1", "1", "3", expect.any(String)]);
    expect(screen.getByRole("link", { name: "New data pool" })).toHaveAttribute("href", "/data-pools/new");
  });
});
