// Starting runs of many tests: "Run selected" and "Run all N matching" on
// the test list, "Run suite" on the suites page.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useLocation } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext, type FakeCall } from "../../test/render";
import { TestListPage } from "../tests/TestListPage";
import { SuitesPage } from "../suites/SuitesPage";
import { makeTest } from "../tests/fixtures";

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear(); // the dialog remembers the environment chosen last
});

function Where() {
  const l = useLocation();
  return <output data-testid="where">{l.pathname}</output>;
}

const STARTED = { status: 201, body: { batchId: "bat_new", runIds: ["run_1"], runs: [{ runId: "run_1", testId: "tc_a" }] } };
const ENVS = { body: { environments: [{ id: "env_1", projectId: "prj_1", name: "Staging", protected: false }] } };

function runPost(calls: FakeCall[]) {
  return calls.find((c) => c.method === "POST" && c.path === "/api/runs");
}

describe("runs of many tests", () => {
  it("runs the ticked tests of the list with the dialog's options", async () => {
    const { calls } = fakeFetch({
      "GET /api/suites": { body: { suites: [] } },
      "GET /api/tests": {
        body: {
          total: 3,
          nextCursor: null,
          tests: [
            makeTest({ id: "tc_a", name: "Sign in" }),
            makeTest({ id: "tc_b", name: "Search" }),
            makeTest({ id: "tc_c", name: "Old", status: "Deprecated" }),
          ],
        },
      },
      "GET /api/environments": ENVS,
      "POST /api/runs": STARTED,
    });
    renderPage(
      <>
        <TestListPage />
        <Where />
      </>,
      { route: "/tests", path: "*" },
    );
    const run = await screen.findByRole("button", { name: "Run selected" });
    expect(run).toBeDisabled();
    expect(screen.getByRole("checkbox", { name: "Select Old" })).toBeDisabled();
    await userEvent.click(screen.getByRole("checkbox", { name: "Select Sign in" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Select Search" }));
    await userEvent.click(screen.getByRole("button", { name: "Run selected (2)" }));
    const dialog = await screen.findByRole("dialog", { name: "Run 2 tests" });
    await userEvent.selectOptions(within(dialog).getByLabelText("Environment"), "env_1");
    await userEvent.click(within(dialog).getByLabelText("Headed (show the browser windows)"));
    await userEvent.click(within(dialog).getByRole("button", { name: "Start runs" }));
    await waitFor(() => expect(screen.getByTestId("where")).toHaveTextContent("/batches/bat_new"));
    const post = runPost(calls);
    expect(post?.body).toEqual({ testIds: ["tc_a", "tc_b"], environmentId: "env_1", headed: true, screenshots: true });
    expect(post?.headers["x-project-id"]).toBe("prj_1");
  });

  it("runs every test the filters match, page by page, without Deprecated ones", async () => {
    const { calls } = fakeFetch({
      "GET /api/suites": { body: { suites: [] } },
      "GET /api/tests": (c) =>
        c.path.includes("cursor=p2")
          ? { body: { total: 3, nextCursor: null, tests: [makeTest({ id: "tc_c", name: "Smoke C" })] } }
          : c.path.includes("limit=500")
            ? {
                body: {
                  total: 3,
                  nextCursor: "p2",
                  tests: [makeTest({ id: "tc_a", name: "Smoke A" }), makeTest({ id: "tc_b", name: "Smoke B", status: "Deprecated" })],
                },
              }
            : { body: { total: 3, nextCursor: null, tests: [makeTest({ id: "tc_a", name: "Smoke A" })] } },
      "GET /api/environments": ENVS,
      "POST /api/runs": STARTED,
    });
    renderPage(
      <>
        <TestListPage />
        <Where />
      </>,
      { route: "/tests?q=smoke", path: "*" },
    );
    await userEvent.click(await screen.findByRole("button", { name: "Run all 3 matching" }));
    const dialog = await screen.findByRole("dialog", { name: "Run 3 tests" });
    expect(dialog).toHaveTextContent("Every test these filters match (3) will run");
    await userEvent.click(within(dialog).getByRole("button", { name: "Start runs" }));
    await waitFor(() => expect(screen.getByTestId("where")).toHaveTextContent("/batches/bat_new"));
    expect(calls.filter((c) => c.path.includes("limit=500")).map((c) => c.path)).toEqual([
      "/api/tests?q=smoke&limit=500",
      "/api/tests?q=smoke&limit=500&cursor=p2",
    ]);
    expect(runPost(calls)?.body).toEqual({ testIds: ["tc_a", "tc_c"], environmentId: "env_1", headed: false, screenshots: true }); // the only environment
  });

  it("runs a suite from the suites page, for any role, and lists each refusal", async () => {
    const { calls } = fakeFetch({
      "GET /api/suites": {
        body: {
          suites: [
            { name: "Checkout", tests: 3 },
            { name: "Empty", tests: 0 },
          ],
        },
      },
      "GET /api/environments": ENVS,
      "POST /api/runs": {
        status: 422,
        body: {
          error: "some of these tests cannot run; nothing was started",
          code: "invalid",
          issues: [
            { path: "tests[1]", code: "invalid_document", message: '"Pay" has 1 problem(s) in its document; fix them in the editor' },
          ],
        },
      },
    });
    renderPage(<SuitesPage />, { route: "/suites", path: "/suites", context: testContext("Tester") });
    expect(await screen.findByRole("button", { name: "Run suite Empty" })).toBeDisabled();
    await userEvent.click(screen.getByRole("button", { name: "Run suite Checkout" }));
    const dialog = await screen.findByRole("dialog", { name: "Run suite Checkout" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Start runs" }));
    expect(await within(dialog).findByText(/"Pay" has 1 problem/)).toBeInTheDocument();
    expect(runPost(calls)?.body).toEqual({ suite: "Checkout", environmentId: "env_1", headed: false, screenshots: true }); // the only environment
  });
});
