import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import { EditorPage } from "./EditorPage";
import { baseDoc, can, testJSON, testRoutes } from "./editorFixtures";

afterEach(() => vi.unstubAllGlobals());

function renderEditor() {
  return renderPage(<EditorPage />, { route: "/tests/tc_1", path: "/tests/:id" });
}

const ALL_ACTIONS = ["Mark Ready", "Deprecate", "New revision", "Duplicate", "Sharing", "Delete"];

describe("EditorPage actions", () => {
  it("offers no action whose `can` flag is false", async () => {
    const none = can({
      edit: false,
      run: false,
      delete: false,
      markReady: false,
      duplicate: false,
      share: false,
      transfer: false,
      restore: false,
      runProtected: false,
    });
    fakeFetch(testRoutes(testJSON({ can: none })));
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    for (const name of ALL_ACTIONS) expect(screen.queryByRole("button", { name })).not.toBeInTheDocument();
    expect(screen.getByText("You can view this test but not edit it.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Export as Playwright" })).toBeInTheDocument();
  });

  it("offers each action whose `can` flag is true", async () => {
    fakeFetch(testRoutes(testJSON({ can: can({ deprecate: true, revise: true }) })));
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    for (const name of ALL_ACTIONS) expect(screen.getByRole("button", { name })).toBeInTheDocument();
  });

  it("marks the test Ready with If-Match, but only once changes are saved", async () => {
    const { calls } = fakeFetch({
      ...testRoutes(),
      "PUT /api/tests/tc_1": {
        body: testJSON({ status: "Ready", can: can({ edit: false, markReady: false, revise: true }) }),
        headers: { ETag: '"v3-r2"' },
      },
    });
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await userEvent.type(screen.getByLabelText("Suite"), "x");
    expect(screen.getByRole("button", { name: "Mark Ready" })).toBeDisabled();
    expect(screen.getByText("Save your changes before marking the test Ready.")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Suite"), "{Backspace}");
    await userEvent.click(screen.getByRole("button", { name: "Mark Ready" }));
    // It asks first, and takes an optional note.
    const dialog = screen.getByRole("dialog", { name: "Mark Sign in Ready?" });
    expect(calls.some((c) => c.method === "PUT")).toBe(false);
    await userEvent.type(within(dialog).getByLabelText("Note"), "  Reviewed with Ann ");
    await userEvent.click(within(dialog).getByRole("button", { name: "Mark Ready" }));
    expect(await screen.findByText("This test is Ready and frozen. Start a new revision to change it.")).toBeInTheDocument();
    const put = calls.find((c) => c.method === "PUT");
    expect(put?.body).toEqual({ status: "Ready", note: "Reviewed with Ann" });
    expect(put?.headers["If-Match"]).toBe('"v3-r1"');
    expect(screen.getByRole("button", { name: "New revision" })).toBeInTheDocument();
  });

  it("deprecates after confirming", async () => {
    const { calls } = fakeFetch({
      ...testRoutes(testJSON({ status: "Ready", can: can({ edit: false, markReady: false, deprecate: true }) })),
      "PUT /api/tests/tc_1": { body: testJSON({ status: "Deprecated", can: can({ edit: false, markReady: false, delete: false }) }) },
    });
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await userEvent.click(screen.getByRole("button", { name: "Deprecate" }));
    const dialog = screen.getByRole("dialog", { name: "Deprecate Sign in?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Deprecate" }));
    expect(await screen.findByText("Deprecated tests are read-only; duplicate it to work from a copy.")).toBeInTheDocument();
    expect(calls.find((c) => c.method === "PUT")?.body).toEqual({ status: "Deprecated" });
  });

  it("starts a new revision of a Ready test", async () => {
    const { calls } = fakeFetch({
      ...testRoutes(testJSON({ status: "Ready", can: can({ edit: false, markReady: false, revise: true }) })),
      "POST /api/tests/tc_1/revisions": { status: 201, body: testJSON({ version: 4 }), headers: { ETag: '"v4-r1"' } },
    });
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    expect(screen.getByLabelText("Name")).toBeDisabled();
    await userEvent.click(screen.getByRole("button", { name: "New revision" }));
    const dialog = screen.getByRole("dialog", { name: "Start a new revision?" });
    await userEvent.type(within(dialog).getByLabelText("Note"), "Fix the login step");
    await userEvent.click(within(dialog).getByRole("button", { name: "New revision" }));
    expect(await screen.findByText("v4")).toBeInTheDocument();
    expect(screen.getByLabelText("Name")).toBeEnabled();
    const post = calls.find((c) => c.method === "POST" && c.path === "/api/tests/tc_1/revisions");
    expect(post?.body).toEqual({ note: "Fix the login step" });
  });

  it("asks for the copy's name, starting from '<name> (copy)', and opens the copy", async () => {
    const copy = testJSON({ id: "tc_2" }, { ...baseDoc(), name: "Sign in with SSO" });
    let refused = false;
    const { calls } = fakeFetch({
      ...testRoutes(),
      "POST /api/tests/tc_1/duplicate": () => {
        if (!refused) {
          refused = true;
          return {
            status: 422,
            body: {
              error: "the copy's name is not valid",
              code: "invalid",
              issues: [{ path: "name", code: "format", message: "name may not contain line breaks" }],
            },
          };
        }
        return { status: 201, body: copy, headers: { ETag: '"v1-r1"' } };
      },
      "GET /api/tests/tc_2": { body: copy, headers: { ETag: '"v1-r1"' } },
    });
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await userEvent.click(screen.getByRole("button", { name: "Duplicate" }));
    const dialog = screen.getByRole("dialog", { name: "Duplicate Sign in" });
    const name = within(dialog).getByLabelText("Name of the copy");
    expect(name).toHaveValue("Sign in (copy)");
    await userEvent.click(within(dialog).getByRole("button", { name: "Duplicate" }));
    // A refused name is said beside the field, and the dialog stays to fix it.
    expect(await within(dialog).findByText("name may not contain line breaks")).toBeInTheDocument();
    await userEvent.clear(name);
    await userEvent.type(name, "Sign in with SSO{Enter}");
    expect(await screen.findByRole("heading", { name: "Sign in with SSO" })).toBeInTheDocument();
    const sent = calls.filter((c) => c.method === "POST" && c.path === "/api/tests/tc_1/duplicate").map((c) => c.body);
    expect(sent).toEqual([{ name: "Sign in (copy)" }, { name: "Sign in with SSO" }]);
  });

  it("changes visibility and hands the test over through Sharing", async () => {
    const { calls } = fakeFetch({
      ...testRoutes(),
      "GET /api/projects/prj_1/members": {
        body: {
          members: [
            { userId: "usr_me", name: "Mia Tester", email: "mia@example.com", role: "Admin", orgRole: "Admin", projectRole: null },
            {
              userId: "usr_bo",
              name: "Bo Dev",
              email: "bo@example.com",
              role: "Test Developer",
              orgRole: "Tester",
              projectRole: "Test Developer",
            },
          ],
        },
      },
      "PUT /api/tests/tc_1/sharing": { body: testJSON({ owner: { id: "usr_bo", name: "Bo Dev" } }), headers: { ETag: '"v3-r2"' } },
    });
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await userEvent.click(screen.getByRole("button", { name: "Sharing" }));
    const dialog = screen.getByRole("dialog", { name: "Sharing" });
    expect(within(dialog).getByRole("button", { name: "Save sharing" })).toBeDisabled();
    await userEvent.selectOptions(await within(dialog).findByLabelText("Owner"), "usr_bo");
    await userEvent.click(within(dialog).getByRole("button", { name: "Save sharing" }));
    expect(await screen.findByText("Owner: Bo Dev")).toBeInTheDocument();
    expect(calls.find((c) => c.path === "/api/tests/tc_1/sharing")?.body).toEqual({ ownerId: "usr_bo" });
  });

  it("deletes after a confirmation that names what is lost", async () => {
    const { calls } = fakeFetch({ ...testRoutes(), "DELETE /api/tests/tc_1": { status: 204 } });
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await userEvent.click(screen.getByRole("button", { name: "Delete" }));
    const dialog = screen.getByRole("dialog", { name: "Delete Sign in?" });
    expect(dialog).toHaveTextContent("all 3 versions");
    expect(dialog).toHaveTextContent("run history");
    expect(dialog).toHaveTextContent("cannot be undone");
    await userEvent.click(within(dialog).getByRole("button", { name: "Delete test" }));
    expect(await screen.findByTestId("elsewhere")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "DELETE")).toBe(true);
  });

  it("exports the test as a Playwright script and copies it", async () => {
    const script = "import { test, expect } from '@playwright/test';\n";
    const { calls } = fakeFetch({ ...testRoutes(), "POST /api/script": { body: { language: "typescript", script } } });
    const user = userEvent.setup();
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await user.click(screen.getByRole("button", { name: "Export as Playwright" }));
    const dialog = screen.getByRole("dialog", { name: "Playwright script" });
    await waitFor(() => expect(within(dialog).getByLabelText("Playwright script")).toHaveTextContent("import { test, expect }"));
    expect(calls.find((c) => c.path === "/api/script")?.body).toEqual({ testId: "tc_1" });
    await user.click(within(dialog).getByRole("button", { name: "Copy" }));
    expect(await within(dialog).findByText("Copied")).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(script);
  });
});
