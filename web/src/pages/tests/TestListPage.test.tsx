import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useLocation } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import { TestListPage } from "./TestListPage";
import { makeTest } from "./fixtures";

afterEach(() => vi.unstubAllGlobals());

function Where() {
  const l = useLocation();
  return <output data-testid="where">{l.pathname + l.search}</output>;
}

function renderList(route = "/tests") {
  return renderPage(
    <>
      <TestListPage />
      <Where />
    </>,
    { route, path: "/tests" },
  );
}

const SUITES = {
  body: {
    suites: [
      { name: "Accounts", tests: 2 },
      { name: "Checkout", tests: 1 },
    ],
  },
};

function listCalls(calls: { method: string; path: string }[]) {
  return calls.filter((c) => c.method === "GET" && c.path.startsWith("/api/tests")).map((c) => c.path);
}

describe("TestListPage", () => {
  it("shows each column as the presentation rules say", async () => {
    fakeFetch({
      "GET /api/suites": SUITES,
      "GET /api/tests": {
        body: {
          total: 12,
          nextCursor: null,
          tests: [
            makeTest({
              id: "tc_a",
              name: "Sign in",
              version: 3,
              lastRun: { runId: "run_9", status: "passed", passed: 4, total: 5, at: "2026-11-02T09:00:00Z" },
            }),
            makeTest({
              id: "tc_b",
              name: "Checkout draft",
              version: 1,
              suite: null,
              visibility: "Private",
              owner: null,
              steps: 0,
              lastSaved: { at: "2026-11-02T10:00:00Z", by: { id: "usr_2", name: "Ben Builder" } },
            }),
          ],
        },
      },
    });
    renderList();
    const table = await screen.findByRole("table");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["", "Name", "Suite", "Status", "Owner", "Steps", "Last runs", "Last run", "Last saved"]);
    expect(screen.getByText("12 tests")).toBeInTheDocument();

    const [, first, second] = within(table).getAllByRole("row");
    const a = within(first).getAllByRole("cell").slice(1); // after the tick box
    expect(a[0]).toHaveTextContent("Sign in v3");
    expect(within(a[0]).getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/tests/tc_a");
    expect(a[1]).toHaveTextContent("Accounts");
    expect(a[2]).toHaveTextContent("Draft");
    expect(a[3]).toHaveTextContent("Mia Tester");
    expect(a[3]).toHaveTextContent("Shared");
    expect(a[4]).toHaveTextContent("4");
    expect(a[5]).toHaveTextContent("no runs");
    expect(within(a[6]).getByRole("link")).toHaveAttribute("href", "/runs/run_9");
    expect(within(a[6]).getByRole("link")).toHaveTextContent("passed 4/5");
    expect(a[7]).toHaveTextContent("Mia Tester");

    const b = within(second).getAllByRole("cell").slice(1);
    expect(b[0]).toHaveTextContent("Checkout draft v1");
    expect(b[1]).toHaveTextContent("—");
    expect(b[3]).toHaveTextContent("(account removed)");
    expect(within(b[3]).getByText("Private")).toHaveClass("badge-private");
    expect(b[6]).toHaveTextContent("never");
    expect(within(b[6]).queryByRole("link")).toBeNull();
    expect(b[7]).toHaveTextContent("Ben Builder");
  });

  it("reads its filters from the URL and sends them as the hub's query parameters", async () => {
    const { calls } = fakeFetch({ "GET /api/suites": SUITES, "GET /api/tests": { body: { tests: [], total: 0, nextCursor: null } } });
    renderList("/tests?visibility=mine&unsorted=1&q=smoke");
    await screen.findByText("No test matches these filters");
    expect(listCalls(calls)).toEqual(["/api/tests?q=smoke&unsorted=1&visibility=mine"]);
    expect(screen.getByLabelText("Search")).toHaveValue("smoke");
    expect(screen.getByLabelText("Suite")).toHaveValue("/unsorted");
    expect(screen.getByLabelText("Visibility")).toHaveValue("mine");
  });

  it("turns filter changes into query parameters and keeps them in the URL", async () => {
    const { calls } = fakeFetch({ "GET /api/suites": SUITES, "GET /api/tests": { body: { tests: [], total: 0, nextCursor: null } } });
    renderList();
    await screen.findByText("No tests yet — create one or import a file");
    expect(listCalls(calls)).toEqual(["/api/tests"]);

    await screen.findByRole("option", { name: "Checkout" });
    await userEvent.selectOptions(screen.getByLabelText("Suite"), "Checkout");
    await waitFor(() => expect(listCalls(calls)).toContain("/api/tests?suite=Checkout"));

    await userEvent.selectOptions(screen.getByLabelText("Visibility"), "Shared with the project");
    await waitFor(() => expect(listCalls(calls)).toContain("/api/tests?suite=Checkout&visibility=shared"));

    await userEvent.selectOptions(screen.getByLabelText("Suite"), "Unsorted");
    await waitFor(() => expect(listCalls(calls)).toContain("/api/tests?unsorted=1&visibility=shared"));

    const before = listCalls(calls).length;
    await userEvent.type(screen.getByPlaceholderText("Name, suite or tag"), "login");
    // Debounced: one call for the whole word, not one per letter.
    await waitFor(() => expect(listCalls(calls)).toContain("/api/tests?q=login&unsorted=1&visibility=shared"));
    expect(listCalls(calls).length).toBe(before + 1);
    expect(screen.getByTestId("where")).toHaveTextContent("/tests?visibility=shared&unsorted=1&q=login");
    expect(screen.getByText("No test matches these filters")).toBeInTheDocument();
  });

  it("loads the next page by cursor and shows the total", async () => {
    const { calls } = fakeFetch({
      "GET /api/suites": SUITES,
      "GET /api/tests": { body: { tests: [makeTest({ id: "tc_1", name: "First" })], total: 2, nextCursor: "abc" } },
      "GET /api/tests?cursor=abc": { body: { tests: [makeTest({ id: "tc_2", name: "Second" })], total: 2, nextCursor: null } },
    });
    renderList();
    await screen.findByRole("link", { name: "First" });
    expect(screen.getByText("2 tests")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Load more" }));
    await screen.findByRole("link", { name: "Second" });
    expect(screen.getByRole("link", { name: "First" })).toBeInTheDocument();
    expect(listCalls(calls)).toEqual(["/api/tests", "/api/tests?cursor=abc"]);
    expect(screen.queryByRole("button", { name: "Load more" })).toBeNull();
  });
});
