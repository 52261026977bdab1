import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import { TestListPage } from "./TestListPage";
import { makeTest } from "./fixtures";

afterEach(() => vi.unstubAllGlobals());

const BASE = {
  "GET /api/suites": { body: { suites: [{ name: "Accounts", tests: 2 }] } },
  "GET /api/tests": { body: { tests: [], total: 0, nextCursor: null } },
};

function renderList() {
  return renderPage(<TestListPage />, { route: "/tests", path: "/tests" });
}

describe("New test", () => {
  it("posts a document with the visibility and opens the editor on the new test", async () => {
    const { calls } = fakeFetch({
      ...BASE,
      "POST /api/tests": { status: 201, body: makeTest({ id: "tc_new", name: "Checkout", version: 1 }) },
    });
    renderList();
    await userEvent.click(await screen.findByRole("button", { name: "New test" }));
    const dialog = screen.getByRole("dialog", { name: "New test" });
    await userEvent.type(within(dialog).getByLabelText("Name"), "Checkout");
    await userEvent.type(within(dialog).getByLabelText("Suite"), "Accounts");
    expect(within(dialog).getByRole("group", { name: "Visibility" })).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Shared")).toBeChecked();
    await userEvent.click(within(dialog).getByLabelText("Private"));
    await userEvent.click(within(dialog).getByRole("button", { name: "Create test" }));
    await screen.findByTestId("elsewhere");
    const post = calls.find((c) => c.method === "POST");
    expect(post?.path).toBe("/api/tests");
    expect(post?.body).toEqual({ dsl: 2, name: "Checkout", suite: "Accounts", steps: [], visibility: "Private" });
  });

  it("leaves the suite out when empty and shows a 422 issue beside its field", async () => {
    const { calls } = fakeFetch({
      ...BASE,
      "POST /api/tests": {
        status: 422,
        body: {
          error: "the document is not valid",
          code: "invalid",
          issues: [{ path: "name", message: "name is too long", code: "too_long" }],
        },
      },
    });
    renderList();
    await userEvent.click(await screen.findByRole("button", { name: "New test" }));
    const dialog = screen.getByRole("dialog", { name: "New test" });
    await userEvent.type(within(dialog).getByLabelText("Name"), "Sign in{Enter}");
    expect(await within(dialog).findByText("name is too long")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Name")).toHaveAttribute("aria-invalid", "true");
    expect(within(dialog).getByLabelText("Name")).toHaveAccessibleDescription("name is too long");
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ dsl: 2, name: "Sign in", steps: [], visibility: "Shared" });
    expect(screen.queryByTestId("elsewhere")).toBeNull();
  });
});

describe("Import", () => {
  it("sends the file's text as the body and lists the tests it created", async () => {
    const text = '{"version":1,"name":"Old test","steps":[{"command":"open","target":"/"}]}';
    const { fn } = fakeFetch({
      ...BASE,
      "POST /api/tests/import": {
        status: 201,
        body: {
          test: makeTest({ id: "tc_x", name: "Old test", version: 1 }),
          version: 1,
          migratedFrom: 1,
          tests: [{ test: makeTest({ id: "tc_x", name: "Old test", version: 1 }), version: 1 }],
        },
      },
    });
    renderList();
    await userEvent.click(await screen.findByRole("button", { name: "Import" }));
    const dialog = screen.getByRole("dialog", { name: "Import tests" });
    await userEvent.upload(within(dialog).getByLabelText("Test file"), new File([text], "old.json", { type: "application/json" }));
    await within(dialog).findByText(/old\.json is read/);
    await userEvent.click(within(dialog).getByRole("button", { name: "Import tests" }));
    expect(await within(dialog).findByRole("link", { name: "Old test" })).toHaveAttribute("href", "/tests/tc_x");
    expect(within(dialog).getByText(/Imported 1 test/)).toHaveTextContent("Migrated from DSL version 1");
    const call = fn.mock.calls.find(([, init]) => init?.method === "POST");
    expect(call?.[0]).toBe("/api/tests/import");
    expect(call?.[1]?.body).toBe(text);
  });

  it("lists several tests of a Selenium IDE project", async () => {
    fakeFetch({
      ...BASE,
      "POST /api/tests/import": {
        status: 201,
        body: {
          test: makeTest({ id: "tc_1", name: "One" }),
          version: 1,
          migratedFrom: "side",
          tests: [
            { test: makeTest({ id: "tc_1", name: "One" }), version: 1 },
            { test: makeTest({ id: "tc_2", name: "Two" }), version: 1 },
          ],
        },
      },
    });
    renderList();
    await userEvent.click(await screen.findByRole("button", { name: "Import" }));
    const dialog = screen.getByRole("dialog", { name: "Import tests" });
    await userEvent.click(within(dialog).getByLabelText("Or paste a document"));
    await userEvent.paste('{"id":"p","name":"Side project","tests":[]}');
    await userEvent.click(within(dialog).getByRole("button", { name: "Import tests" }));
    expect(await within(dialog).findByText(/Imported 2 tests/)).toHaveTextContent("Converted from a Selenium IDE project");
    expect(within(dialog).getByRole("link", { name: "Two" })).toHaveAttribute("href", "/tests/tc_2");
  });

  it("imports against a chosen environment's secrets and says how many values became references", async () => {
    const { calls } = fakeFetch({
      ...BASE,
      "GET /api/environments": { body: { environments: [{ id: "env_1", projectId: "prj_1", name: "Staging", protected: false }] } },
      "POST /api/tests/import": {
        status: 201,
        body: { test: makeTest({ id: "tc_1", name: "One" }), version: 1, migratedFrom: "side", skipped: [], secretsReplaced: 2 },
      },
    });
    renderList();
    await userEvent.click(await screen.findByRole("button", { name: "Import" }));
    const dialog = screen.getByRole("dialog", { name: "Import tests" });
    const env = within(dialog).getByLabelText("Secrets of environment");
    expect(env).toHaveAccessibleDescription(/equal to one of this environment's secrets .* is imported as \$\{secrets.NAME\}/);
    await waitFor(() => expect(within(dialog).getByRole("option", { name: "Staging" })).toBeInTheDocument());
    await userEvent.selectOptions(env, "env_1");
    await userEvent.click(within(dialog).getByLabelText("Or paste a document"));
    await userEvent.paste('{"id":"p","name":"Side project","tests":[]}');
    await userEvent.click(within(dialog).getByRole("button", { name: "Import tests" }));
    expect(await within(dialog).findByText(/Imported 1 test/)).toHaveTextContent(
      "2 values were equal to a secret and imported as ${secrets.NAME}.",
    );
    expect(calls.find((c) => c.method === "POST")?.path).toBe("/api/tests/import?environmentId=env_1");
  });

  it("shows the issues of a 422 and imports nothing", async () => {
    fakeFetch({
      ...BASE,
      "POST /api/tests/import": {
        status: 422,
        body: {
          error: "the document is not valid",
          code: "invalid_document",
          issues: [
            { path: "steps[0].url", message: "url is required for a navigate step", code: "required" },
            { path: "name", message: "name is required", code: "required" },
          ],
        },
      },
    });
    renderList();
    await userEvent.click(await screen.findByRole("button", { name: "Import" }));
    const dialog = screen.getByRole("dialog", { name: "Import tests" });
    await userEvent.click(within(dialog).getByLabelText("Or paste a document"));
    await userEvent.paste('{"dsl":2,"steps":[{"id":"s1","type":"navigate"}]}');
    await userEvent.click(within(dialog).getByRole("button", { name: "Import tests" }));
    const alert = await within(dialog).findByRole("alert");
    expect(alert).toHaveTextContent("Nothing was imported");
    const issues = within(alert).getAllByRole("listitem");
    expect(issues[0]).toHaveTextContent("steps[0].url url is required for a navigate step");
    expect(issues[1]).toHaveTextContent("name name is required");
    expect(within(dialog).queryByRole("link")).toBeNull();
  });

  it("refuses text that is not JSON without calling the hub", async () => {
    const { calls } = fakeFetch(BASE);
    renderList();
    await userEvent.click(await screen.findByRole("button", { name: "Import" }));
    const dialog = screen.getByRole("dialog", { name: "Import tests" });
    await userEvent.click(within(dialog).getByLabelText("Or paste a document"));
    await userEvent.paste("steps: nope");
    await userEvent.click(within(dialog).getByRole("button", { name: "Import tests" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("This is not JSON");
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(false));
  });

  it("lists every command a Selenium IDE import left out, with its test and place", async () => {
    fakeFetch({
      ...BASE,
      "POST /api/tests/import": {
        status: 201,
        body: {
          test: makeTest({ id: "tc_1", name: "Checkout" }),
          version: 1,
          migratedFrom: "side",
          tests: [{ test: makeTest({ id: "tc_1", name: "Checkout" }), version: 1 }],
          skipped: [
            {
              test: "Checkout",
              index: 1,
              command: "dragAndDropToObject",
              reason: 'Selenium IDE command "dragAndDropToObject" is not supported',
            },
            { test: "Checkout", index: 4, command: "click", reason: "dom= locators are not supported" },
          ],
        },
      },
    });
    renderList();
    await userEvent.click(await screen.findByRole("button", { name: "Import" }));
    const dialog = screen.getByRole("dialog", { name: "Import tests" });
    await userEvent.click(within(dialog).getByLabelText("Or paste a document"));
    await userEvent.paste('{"name":"Side project","tests":[]}');
    await userEvent.click(within(dialog).getByRole("button", { name: "Import tests" }));
    expect(await within(dialog).findByText(/Imported 1 test/)).toBeInTheDocument();
    expect(within(dialog).getByText(/2 commands were left out/)).toBeInTheDocument();
    const rows = within(within(dialog).getByRole("table", { name: "Skipped commands" })).getAllByRole("row");
    expect(rows.map((r) => r.textContent)).toEqual([
      "TestCommandWhy",
      'Checkout#2 dragAndDropToObjectSelenium IDE command "dragAndDropToObject" is not supported',
      "Checkout#5 clickdom= locators are not supported",
    ]);
  });

  it("lists nothing when an import left nothing out", async () => {
    fakeFetch({
      ...BASE,
      "POST /api/tests/import": {
        status: 201,
        body: {
          test: makeTest({ id: "tc_1", name: "One" }),
          version: 1,
          migratedFrom: null,
          tests: [{ test: makeTest({ id: "tc_1", name: "One" }), version: 1 }],
          skipped: [],
        },
      },
    });
    renderList();
    await userEvent.click(await screen.findByRole("button", { name: "Import" }));
    const dialog = screen.getByRole("dialog", { name: "Import tests" });
    await userEvent.click(within(dialog).getByLabelText("Or paste a document"));
    await userEvent.paste('{"dsl":2,"name":"One","steps":[]}');
    await userEvent.click(within(dialog).getByRole("button", { name: "Import tests" }));
    expect(await within(dialog).findByText(/Imported 1 test/)).toBeInTheDocument();
    expect(within(dialog).queryByText(/left out/)).not.toBeInTheDocument();
  });
});
