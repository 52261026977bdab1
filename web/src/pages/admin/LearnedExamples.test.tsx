import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext } from "../../test/render";
import { registry } from "../editor/editorFixtures";
import { AdminPage } from "./AdminPage";

afterEach(() => vi.unstubAllGlobals());

const mine = {
  id: "lex_mine000000000000000",
  text: "sign in as amy and check the greeting",
  steps: [
    { id: "s1", type: "navigate", url: "${baseUrl}/login" },
    { id: "s2", type: "click", target: { locators: [{ kind: "role", value: "button", name: "Sign in" }] } },
  ],
  author: { id: "usr_me", name: "Mia Tester" },
  createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
};
const bobs = {
  id: "lex_bob0000000000000000",
  text: "open the cart",
  steps: [{ id: "s1", type: "navigate", url: "/cart" }],
  author: { id: "usr_bob", name: "Bob" },
  createdAt: "2026-01-02T10:00:00Z",
};

function render(role: Parameters<typeof testContext>[0] = "Admin") {
  return renderPage(<AdminPage />, { route: "/admin?tab=examples", path: "/admin", context: testContext(role) });
}

describe("AdminPage: learned examples", () => {
  it("lists each example's request, step count, author and time, and deletes one after asking", async () => {
    let list = [mine, bobs];
    const { calls } = fakeFetch({
      "GET /api/language/examples": () => ({ body: { examples: list } }),
      "GET /api/registry": { body: registry },
      "DELETE /api/language/examples/lex_bob0000000000000000": () => {
        list = [mine];
        return { status: 204 };
      },
    });
    render("Test Developer");
    expect(screen.getByRole("tab", { name: "Learned examples" })).toHaveAttribute("aria-selected", "true");
    const table = await screen.findByRole("table");
    const rows = within(table).getAllByRole("row");
    expect(
      within(rows[0])
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Request", "Steps", "Author", "Added", "Actions"]);
    expect(rows[1]).toHaveTextContent("sign in as amy and check the greeting");
    expect(rows[1]).toHaveTextContent("Mia Tester");
    expect(rows[1]).toHaveTextContent("5 min ago");
    expect(within(rows[1]).getAllByRole("cell")[1]).toHaveTextContent("2");
    expect(within(rows[2]).getAllByRole("cell")[1]).toHaveTextContent("1");
    expect(rows[2]).toHaveTextContent("Bob");
    expect(calls.find((c) => c.path === "/api/language/examples")?.headers["x-project-id"]).toBe("prj_1");

    await userEvent.click(within(rows[1]).getByText("Show the steps"));
    await waitFor(() => expect(within(rows[1]).getByText('Click the button "Sign in"')).toBeVisible());

    // A Test Developer may delete anyone's example.
    await userEvent.click(screen.getByRole("button", { name: "Delete the example “open the cart”" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete this example?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Delete example" }));
    expect(await screen.findByText("The example “open the cart” was deleted.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText("open the cart")).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === "DELETE" && c.path === "/api/language/examples/lex_bob0000000000000000")).toBe(true);
  });

  it("offers a Tester delete only for their own examples, and shows the hub's refusal", async () => {
    fakeFetch({
      "GET /api/language/examples": { body: { examples: [mine, bobs] } },
      "GET /api/registry": { body: registry },
      "DELETE /api/language/examples/lex_mine000000000000000": {
        status: 403,
        body: { error: "your role may not do this", code: "forbidden" },
      },
    });
    render("Tester");
    await screen.findByRole("table");
    expect(screen.queryByRole("button", { name: "Delete the example “open the cart”" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: /^Delete the example “sign in as amy/ }));
    const dialog = await screen.findByRole("dialog", { name: "Delete this example?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Delete example" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Not allowed: your role may not do this (your role here is Tester)");
    expect(screen.getByText("sign in as amy and check the greeting")).toBeInTheDocument();
  });

  it("says how examples are made when there are none, and shows a failed load", async () => {
    let fail = false;
    fakeFetch({
      "GET /api/language/examples": () =>
        fail ? { status: 500, body: { error: "the hub failed", code: "internal" } } : { body: { examples: [] } },
      "GET /api/registry": { body: registry },
    });
    const view = render();
    expect(
      await screen.findByText(/No examples yet\. Draft steps from text in a test's editor, then choose Keep as example\./),
    ).toBeInTheDocument();
    view.unmount();
    fail = true;
    render();
    expect(await screen.findByRole("alert")).toHaveTextContent("The learned examples could not be loaded: the hub failed");
  });
});
