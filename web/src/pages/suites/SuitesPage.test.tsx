import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext } from "../../test/render";
import { SuitesPage } from "./SuitesPage";

afterEach(() => vi.unstubAllGlobals());

const suites = [
  { name: "Accounts", tests: 3 },
  { name: "Old stuff", tests: 0 },
];

describe("SuitesPage", () => {
  it("disables delete for a suite with tests and explains why", async () => {
    fakeFetch({ "GET /api/suites": { body: { suites } } });
    renderPage(<SuitesPage />, { route: "/suites", path: "/suites", context: testContext("Test Developer") });
    const del = await screen.findByRole("button", { name: "Delete Accounts" });
    expect(del).toBeDisabled();
    expect(del.parentElement).toHaveAttribute("title", "Only empty suites can be deleted");
    expect(del).toHaveAccessibleDescription(/Only empty suites can be deleted/);
    expect(screen.getByRole("button", { name: "Delete Old stuff" })).toBeEnabled();
  });

  it("deletes an empty suite after confirming", async () => {
    const { calls } = fakeFetch({
      "GET /api/suites": { body: { suites } },
      "DELETE /api/suites/Old%20stuff": { status: 204 },
    });
    const user = userEvent.setup();
    renderPage(<SuitesPage />, { route: "/suites", path: "/suites", context: testContext("Test Developer") });
    await user.click(await screen.findByRole("button", { name: "Delete Old stuff" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Delete suite" }));
    await waitFor(() => expect(calls.some((c) => c.method === "DELETE" && c.path === "/api/suites/Old%20stuff")).toBe(true));
    expect(await screen.findByText("Suite Old stuff deleted.")).toBeInTheDocument();
  });

  it("renames a suite and says its tests moved with a new version", async () => {
    const { calls } = fakeFetch({
      "GET /api/suites": { body: { suites } },
      "PUT /api/suites/Accounts": { body: { name: "Sign-in", moved: 3 } },
    });
    const user = userEvent.setup();
    renderPage(<SuitesPage />, { route: "/suites", path: "/suites", context: testContext("Test Manager") });
    await user.click(await screen.findByRole("button", { name: "Rename Accounts" }));
    const dialog = screen.getByRole("dialog");
    expect(dialog).toHaveTextContent(/new\s+version/);
    const input = within(dialog).getByLabelText("New name");
    await user.clear(input);
    await user.type(input, "Sign-in");
    await user.click(within(dialog).getByRole("button", { name: "Rename" }));
    await waitFor(() => expect(calls.find((c) => c.method === "PUT")?.body).toEqual({ name: "Sign-in" }));
    expect(await screen.findByText(/3 tests moved, each with a new version noting the rename/)).toBeInTheDocument();
  });

  it("adds a suite", async () => {
    const { calls } = fakeFetch({
      "GET /api/suites": { body: { suites } },
      "POST /api/suites": { status: 201, body: { name: "Checkout", tests: 0 } },
    });
    const user = userEvent.setup();
    renderPage(<SuitesPage />, { route: "/suites", path: "/suites", context: testContext("Admin") });
    await user.type(await screen.findByLabelText("New suite"), "Checkout");
    await user.click(screen.getByRole("button", { name: "Add suite" }));
    await waitFor(() => expect(calls.find((c) => c.method === "POST")?.body).toEqual({ name: "Checkout" }));
  });

  it("shows a Tester the list without controls", async () => {
    fakeFetch({ "GET /api/suites": { body: { suites } } });
    renderPage(<SuitesPage />, { route: "/suites", path: "/suites", context: testContext("Tester") });
    await screen.findByText("Accounts");
    expect(screen.queryByRole("button", { name: /Delete|Rename|Add suite/ })).not.toBeInTheDocument();
  });
});
