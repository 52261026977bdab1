import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext } from "../../test/render";
import type { DataPool } from "../../api/dataPools";
import type { DataSet } from "../../api/testData";
import { DataSetPage } from "./DataSetPage";
import { TestDataPage } from "./TestDataPage";
import { DataPoolPage } from "./DataPoolPage";
import { DataPoolsPage } from "./DataPoolsPage";

// Protected test data (issue 26): only Test Managers and Admins mark data
// protected or change protected data; runs on protected environments use
// only protected data. The screens mark it and offer only what the hub allows.

afterEach(() => vi.unstubAllGlobals());

const logins: DataSet = {
  id: "tds_logins0000000000000",
  projectId: "prj_1",
  name: "Logins",
  columns: ["loginUrl"],
  rows: [{ loginUrl: "https://shop.example.com/login" }],
  protected: false,
  createdAt: "2026-11-01T10:00:00Z",
  updatedAt: "2026-11-01T10:00:00Z",
};
const guarded: DataSet = { ...logins, protected: true };

const setRoute = (role: Parameters<typeof testContext>[0]) => ({
  route: `/test-data/${logins.id}`,
  path: "/test-data/:id",
  context: testContext(role),
});

const cards: DataPool = {
  id: "dpl_cards000000000000000",
  projectId: "prj_1",
  name: "Cards",
  columns: ["card"],
  free: 1,
  leased: 0,
  consumed: 0,
  total: 1,
  protected: true,
  updatedAt: "2026-11-01T10:00:00Z",
  createdAt: "2026-11-01T10:00:00Z",
  records: [{ index: 0, values: { card: "4111" }, state: "free" }],
};

const poolRoute = (role: Parameters<typeof testContext>[0]) => ({
  route: `/data-pools/${cards.id}`,
  path: "/data-pools/:id",
  context: testContext(role),
});

describe("protected data sets", () => {
  it("lets a Test Manager mark a set protected", async () => {
    const { calls } = fakeFetch({
      [`GET /api/test-data/${logins.id}`]: { body: logins },
      "POST /api/test-data": (call) => ({ body: { ...logins, ...(call.body as object) } }),
    });
    const user = userEvent.setup();
    renderPage(<DataSetPage />, setRoute("Test Manager"));
    const box = await screen.findByRole("checkbox", { name: "Protected" });
    expect(box).toBeEnabled();
    expect(box).not.toBeChecked();
    expect(screen.getByText(/Runs on protected environments use only protected data/)).toBeInTheDocument();
    await user.click(box);
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({ id: logins.id, protected: true });
    expect(await screen.findByRole("heading", { name: /Logins.*Protected/ })).toBeInTheDocument();
  });

  it("shows a Test Developer the flag without letting them set it", async () => {
    fakeFetch({ [`GET /api/test-data/${logins.id}`]: { body: logins } });
    renderPage(<DataSetPage />, setRoute("Test Developer"));
    const box = await screen.findByRole("checkbox", { name: "Protected" });
    expect(box).toBeDisabled();
    expect(screen.getByText(/Only a Test Manager or Admin may change this setting/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Save" })).toBeInTheDocument();
  });

  it("makes a protected set read-only for a Test Developer", async () => {
    fakeFetch({ [`GET /api/test-data/${logins.id}`]: { body: guarded } });
    renderPage(<DataSetPage />, setRoute("Test Developer"));
    expect(await screen.findByText(/This data set is protected/)).toHaveTextContent("your role in this project is Test Developer");
    expect(screen.getByRole("heading", { name: /Logins.*Protected/ })).toBeInTheDocument();
    expect(screen.queryByRole("textbox")).not.toBeInTheDocument();
    for (const name of ["Save", "Delete", "Import CSV…"]) expect(screen.queryByRole("button", { name })).not.toBeInTheDocument();
  });

  it("marks protected sets in the list and offers their deletion to Test Managers only", async () => {
    const list = { dataSets: [{ ...guarded, rowCount: 1, rows: undefined }] };
    fakeFetch({ "GET /api/test-data": { body: list } });
    renderPage(<TestDataPage />, { route: "/test-data", path: "/test-data", context: testContext("Test Developer") });
    const row = (await screen.findByRole("link", { name: "Logins" })).closest("tr")!;
    expect(within(row).getByText("Protected")).toHaveAttribute("title", expect.stringMatching(/only Test Managers and Admins/));
    expect(within(row).queryByRole("button", { name: "Delete Logins" })).not.toBeInTheDocument();
    vi.unstubAllGlobals();

    fakeFetch({ "GET /api/test-data": { body: list } });
    renderPage(<TestDataPage />, { route: "/test-data", path: "/test-data", context: testContext("Test Manager") });
    expect(await screen.findByRole("button", { name: "Delete Logins" })).toBeInTheDocument();
  });
});

describe("protected data pools", () => {
  it("makes a protected pool read-only for a Test Developer", async () => {
    fakeFetch({ [`GET /api/data-pools/${cards.id}`]: { body: cards } });
    renderPage(<DataPoolPage />, poolRoute("Test Developer"));
    expect(await screen.findByRole("heading", { name: /Cards.*Protected/ })).toBeInTheDocument();
    expect(screen.getByText(/This data pool is protected/)).toBeInTheDocument();
    for (const name of ["Edit records", "Reset", "Delete"]) expect(screen.queryByRole("button", { name })).not.toBeInTheDocument();
  });

  it("lets a Test Manager clear the flag", async () => {
    const { calls } = fakeFetch({
      [`GET /api/data-pools/${cards.id}`]: { body: cards },
      "POST /api/data-pools": { body: { ...cards, protected: false } },
    });
    const user = userEvent.setup();
    renderPage(<DataPoolPage />, poolRoute("Test Manager"));
    await user.click(await screen.findByRole("button", { name: "Edit records" }));
    const box = screen.getByRole("checkbox", { name: "Protected" });
    expect(box).toBeChecked();
    await user.click(box);
    await user.click(screen.getByRole("button", { name: "Save records" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({ id: cards.id, protected: false, records: [{ card: "4111" }] });
  });

  it("marks protected pools in the list", async () => {
    fakeFetch({ "GET /api/data-pools": { body: { dataPools: [{ ...cards, records: undefined }] } } });
    renderPage(<DataPoolsPage />, { route: "/data-pools", path: "/data-pools", context: testContext("Tester") });
    const row = (await screen.findByRole("link", { name: "Cards" })).closest("tr")!;
    expect(within(row).getByText("Protected")).toBeInTheDocument();
  });
});
