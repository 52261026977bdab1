import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, Link, RouterProvider, useNavigate } from "react-router";
import { describe, expect, it } from "vitest";
import { DISCARDED, LeaveGuard } from "./LeaveGuard";

function Editor() {
  const navigate = useNavigate();
  return (
    <>
      <h1>Editor</h1>
      <Link to="/tests">Tests</Link>
      <Link to="/tests/tc_1?step=s2">Step 2</Link>
      <button type="button" onClick={() => navigate("/tests", { state: DISCARDED })}>
        Delete
      </button>
      <LeaveGuard when />
    </>
  );
}

function renderGuarded() {
  const router = createMemoryRouter(
    [
      { path: "/tests/:id", element: <Editor /> },
      { path: "/tests", element: <h1>List</h1> },
    ],
    { initialEntries: ["/tests/tc_1"] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe("LeaveGuard", () => {
  it("asks before leaving; Stay keeps the page, Leave goes", async () => {
    const router = renderGuarded();
    await userEvent.click(screen.getByRole("link", { name: "Tests" }));
    const ask = screen.getByRole("dialog", { name: "Leave without saving?" });
    await userEvent.click(within(ask).getByRole("button", { name: "Stay on this page" }));
    expect(screen.getByRole("heading", { name: "Editor" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/tests/tc_1");
    await userEvent.click(screen.getByRole("link", { name: "Tests" }));
    await userEvent.click(screen.getByRole("button", { name: "Leave without saving" }));
    expect(await screen.findByRole("heading", { name: "List" })).toBeInTheDocument();
  });

  it("lets a change of ?step= and an action that asked already pass", async () => {
    const router = renderGuarded();
    await userEvent.click(screen.getByRole("link", { name: "Step 2" }));
    expect(router.state.location.search).toBe("?step=s2");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Delete" }));
    expect(await screen.findByRole("heading", { name: "List" })).toBeInTheDocument();
  });
});
