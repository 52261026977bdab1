import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext, type FakeCall } from "../../test/render";
import { useWorkspace } from "../../session";
import { EditorPage } from "./EditorPage";
import { baseDoc, testJSON, testRoutes } from "./editorFixtures";
import type { EditorDocument } from "../../api/editorApi";

afterEach(() => vi.unstubAllGlobals());

function renderEditor(id = "tc_1", search = "") {
  return renderPage(<EditorPage />, { route: `/tests/${id}${search}`, path: "/tests/:id" });
}

/** The steps as their lines read, in order: "Step 1: Open ${baseUrl}/login". */
function stepNames(): string[] {
  return screen.getAllByRole("button", { name: /^Step \d+:/ }).map((b) => b.getAttribute("aria-label") ?? "");
}

const OPEN = "Open ${baseUrl}/login";
const FILL = 'Fill "Email" with ${user}';

function sentDocument(calls: FakeCall[], method = "PUT"): EditorDocument {
  const call = calls.find((c) => c.method === method && c.path === "/api/tests/tc_1");
  if (!call) throw new Error(`no ${method} /api/tests/tc_1`);
  return call.body as EditorDocument;
}

describe("EditorPage", () => {
  it("shows the test's header, settings and steps", async () => {
    fakeFetch(testRoutes());
    renderEditor();
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeInTheDocument();
    expect(screen.getByText("v3")).toBeInTheDocument();
    expect(screen.getByText("Draft")).toBeInTheDocument();
    expect(screen.getByText("Shared")).toBeInTheDocument();
    expect(screen.getByText("Owner: Mia Tester")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "History" })).toHaveAttribute("href", "/tests/tc_1/versions");
    expect(screen.getByRole("link", { name: "Runs" })).toHaveAttribute("href", "/runs?testId=tc_1");
    expect(screen.getByLabelText("Name")).toHaveValue("Sign in");
    expect(screen.getByLabelText("Suite")).toHaveValue("Accounts");
    expect(screen.getByLabelText("Tags")).toHaveValue("smoke");
    expect(screen.getByLabelText("Variable 1 name")).toHaveValue("user");
    expect(stepNames()).toEqual([`Step 1: ${OPEN}`, `Step 2: ${FILL}`]);
    // A step is shown in the inspector, under human labels.
    await userEvent.click(screen.getByRole("button", { name: `Step 1: ${OPEN}` }));
    const step1 = screen.getByRole("group", { name: "Step 1 navigate" });
    expect(within(step1).getByLabelText("URL")).toHaveValue("${baseUrl}/login");
    expect(within(step1).getByLabelText("Timeout (ms)")).toHaveAttribute("placeholder", "default 10000");
    expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
  });

  it("adds a navigate step from the registry and saves the document with If-Match", async () => {
    const saved = { ...baseDoc(), steps: [...baseDoc().steps, { id: "s3", type: "navigate", url: "https://shop.test/cart" }] };
    const { calls } = fakeFetch({
      ...testRoutes(),
      "PUT /api/tests/tc_1": { body: testJSON({}, saved), headers: { ETag: '"v3-r2"' } },
    });
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await userEvent.selectOptions(screen.getByLabelText("Step type"), "navigate");
    await userEvent.click(screen.getByRole("button", { name: "Add step" }));
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
    const step3 = screen.getByRole("group", { name: "Step 3 navigate" });
    const url = within(step3).getByLabelText("URL");
    expect(url).toHaveAccessibleDescription(/Required. The address to open/);
    await userEvent.type(url, "https://shop.test/cart");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));

    await screen.findByText("Saved.");
    const put = calls.find((c) => c.method === "PUT");
    expect(put?.headers["If-Match"]).toBe('"v3-r1"');
    expect(sentDocument(calls).steps[2]).toEqual({ id: "s3", type: "navigate", url: "https://shop.test/cart" });
    expect(screen.queryByText("Unsaved changes")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
  });

  it("gives new steps the registry's defaults and a target row", async () => {
    fakeFetch(testRoutes());
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await userEvent.selectOptions(screen.getByLabelText("Step type"), "assertText");
    await userEvent.click(screen.getByRole("button", { name: "Add step" }));
    const step3 = screen.getByRole("group", { name: "Step 3 assertText" });
    expect(within(step3).getByLabelText("Match")).toHaveValue("contains");
    expect(within(step3).getByLabelText("Locator 1 kind")).toHaveValue("css");
    await userEvent.selectOptions(within(step3).getByLabelText("Locator 1 kind"), "role");
    await userEvent.type(within(step3).getByLabelText("Locator 1 value"), "heading");
    await userEvent.type(within(step3).getByLabelText("Locator 1 name"), "Welcome");
    await userEvent.click(within(step3).getByRole("button", { name: "Add locator" }));
    await userEvent.type(within(step3).getByLabelText("Locator 2 value"), "h1");
    await userEvent.click(within(step3).getByRole("button", { name: "Move locator 2 up" }));
    await userEvent.click(screen.getByRole("tab", { name: "JSON" }));
    const doc = JSON.parse((screen.getByLabelText("Document JSON") as HTMLTextAreaElement).value) as EditorDocument;
    expect(doc.steps[2]).toEqual({
      id: "s3",
      type: "assertText",
      expected: "",
      match: "contains",
      target: {
        locators: [
          { kind: "css", value: "h1" },
          { kind: "role", value: "heading", name: "Welcome" },
        ],
      },
    });
  });

  it("reorders, duplicates and removes steps", async () => {
    const { calls } = fakeFetch({ ...testRoutes(), "PUT /api/tests/tc_1": { body: testJSON(), headers: { ETag: '"v3-r2"' } } });
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await userEvent.click(screen.getByRole("button", { name: `Step 1: ${OPEN}` }));
    expect(screen.getByRole("button", { name: "Move selected steps up" })).toBeDisabled();
    await userEvent.click(screen.getByRole("button", { name: `Step 2: ${FILL}` }));
    expect(screen.getByRole("button", { name: "Move selected steps down" })).toBeDisabled();
    await userEvent.click(screen.getByRole("button", { name: "Move selected steps up" }));
    expect(stepNames()).toEqual([`Step 1: ${FILL}`, `Step 2: ${OPEN}`]);
    await userEvent.click(screen.getByRole("button", { name: "Duplicate selected steps" }));
    expect(stepNames()).toEqual([`Step 1: ${FILL}`, `Step 2: ${FILL}`, `Step 3: ${OPEN}`]);
    await userEvent.click(screen.getByRole("button", { name: `Step 3: ${OPEN}` }));
    await userEvent.click(screen.getByRole("button", { name: "Delete selected steps" }));
    expect(stepNames()).toEqual([`Step 1: ${FILL}`, `Step 2: ${FILL}`]);
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    const steps = sentDocument(calls).steps;
    expect(steps.map((s) => s.id)).toEqual(["s2", "s3"]);
    expect(steps[1]).toEqual({ ...steps[0], id: "s3" });
  });

  it("shows a checked issue under the field it names, and unplaced ones at the top", async () => {
    const doc = { ...baseDoc(), steps: [baseDoc().steps[1], { id: "s3", type: "navigate", url: "" }] };
    fakeFetch({
      ...testRoutes(testJSON({}, doc)),
      "POST /api/tests/tc_1/validate": {
        body: {
          valid: false,
          migratedFrom: null,
          issues: [
            { path: "dsl", message: "dsl must be 2, not 3", code: "unsupported" },
            { path: "steps[1].url", message: "url is required for a navigate step", code: "required" },
          ],
        },
      },
    });
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    expect(screen.queryByRole("group", { name: "Step 2 navigate" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Check" }));
    // The step with the problem is shown.
    const step2 = await screen.findByRole("group", { name: "Step 2 navigate" });
    expect(within(step2).getByLabelText("URL")).toHaveAccessibleDescription(/url is required for a navigate step/);
    expect(within(step2).getByLabelText("URL")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText("1 problem")).toBeInTheDocument();
    expect(screen.getByRole("list", { name: "Problems with the test" })).toHaveTextContent("dsl must be 2, not 3");
    // The issue stays on its step when steps move.
    await userEvent.click(screen.getByRole("button", { name: "Move selected steps up" }));
    expect(within(screen.getByRole("group", { name: "Step 1 navigate" })).getByLabelText("URL")).toHaveAccessibleDescription(
      /url is required/,
    );
  });

  it("places a 422's issues on the locator row and the settings field they name", async () => {
    fakeFetch({
      ...testRoutes(),
      "PUT /api/tests/tc_1": {
        status: 422,
        body: {
          error: "the test document is not valid",
          code: "invalid",
          issues: [
            { path: "name", message: "name is required", code: "required" },
            { path: "steps[1].target.locators[0].value", message: "value is required for a locator", code: "required" },
          ],
        },
      },
    });
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await userEvent.clear(screen.getByLabelText("Name"));
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("name is required")).toBeInTheDocument();
    expect(screen.getByLabelText("Name")).toHaveAccessibleDescription("name is required");
    const step2 = screen.getByRole("group", { name: "Step 2 fill" });
    expect(within(step2).getByLabelText("Locator 1 value")).toHaveAccessibleDescription(/value is required for a locator/);
    expect(screen.getByRole("alert")).toHaveTextContent("The test has problems");
  });

  it("warns before leaving the page with unsaved changes", async () => {
    fakeFetch(testRoutes());
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    const leave = () => {
      const e = new Event("beforeunload", { cancelable: true });
      window.dispatchEvent(e);
      return e.defaultPrevented;
    };
    expect(leave()).toBe(false);
    await userEvent.type(screen.getByLabelText("Tags"), ", checkout");
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
    expect(leave()).toBe(true);
  });

  it("explains a 412 and reloads the newer version", async () => {
    let gets = 0;
    const newer = { ...baseDoc(), name: "Sign in (theirs)" };
    fakeFetch({
      "GET /api/registry": testRoutes()["GET /api/registry"],
      "GET /api/tests/tc_1": () =>
        ++gets === 1 ? { body: testJSON(), headers: { ETag: '"v3-r1"' } } : { body: testJSON({}, newer), headers: { ETag: '"v3-r2"' } },
      "PUT /api/tests/tc_1": { status: 412, body: { error: "someone saved a newer version of this test", code: "stale" } },
    });
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await userEvent.type(screen.getByLabelText("Suite"), " team");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Someone saved a newer version of this test. Reload to see it (your changes will be lost) or copy your JSON first.",
    );
    await userEvent.click(screen.getByRole("button", { name: "Reload" }));
    expect(await screen.findByRole("heading", { name: "Sign in (theirs)" })).toBeInTheDocument();
    expect(screen.getByLabelText("Suite")).toHaveValue("Accounts");
    expect(screen.queryByText("Unsaved changes")).not.toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("explains a 409 on a test that became Ready", async () => {
    fakeFetch({
      ...testRoutes(),
      "PUT /api/tests/tc_1": {
        status: 409,
        body: { error: "this test is Ready and frozen; start a new revision to change it", code: "frozen" },
      },
    });
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await userEvent.type(screen.getByLabelText("Suite"), "!");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This test is Ready; start a new revision to change it.");
    expect(screen.getByRole("button", { name: "Reload" })).toBeInTheDocument();
  });

  it("keeps the form and the JSON view in sync", async () => {
    fakeFetch(testRoutes());
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await userEvent.type(screen.getByLabelText("Suite"), " A");
    await userEvent.click(screen.getByRole("tab", { name: "JSON" }));
    const area = screen.getByLabelText("Document JSON") as HTMLTextAreaElement;
    const doc = JSON.parse(area.value) as EditorDocument;
    expect(doc).toEqual({ ...baseDoc(), suite: "Accounts A" });

    fireEvent.change(area, { target: { value: "{ not json" } });
    await userEvent.click(screen.getByRole("button", { name: "Apply JSON" }));
    expect(screen.getByRole("alert")).toHaveTextContent(/^Not valid JSON/);
    await userEvent.click(screen.getByRole("tab", { name: "Form" }));
    expect(screen.getByRole("tab", { name: "JSON" })).toHaveAttribute("aria-selected", "true");

    const edited = { ...doc, name: "Log in", steps: [...doc.steps, { id: "s9", type: "wait", ms: 500 }] };
    fireEvent.change(area, { target: { value: JSON.stringify(edited) } });
    await userEvent.click(screen.getByRole("button", { name: "Apply JSON" }));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("tab", { name: "Form" }));
    expect(screen.getByLabelText("Name")).toHaveValue("Log in");
    expect(stepNames()).toEqual([`Step 1: ${OPEN}`, `Step 2: ${FILL}`, "Step 3: Wait 500 ms"]);
  });

  it("keeps the shown step across a switch to the JSON view and back", async () => {
    fakeFetch(testRoutes());
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await userEvent.click(screen.getByRole("button", { name: /^Step 2:/ }));
    expect(screen.getByRole("group", { name: "Step 2 fill" })).toBeVisible();
    await userEvent.click(screen.getByRole("tab", { name: "JSON" }));
    expect(screen.queryByRole("group", { name: "Step 2 fill" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("tab", { name: "Form" }));
    expect(screen.getByRole("group", { name: "Step 2 fill" })).toBeVisible();
  });

  it("is read-only with a notice when the test is Ready, and offers only the actions `can` allows", async () => {
    fakeFetch(
      testRoutes(
        testJSON({
          status: "Ready",
          can: {
            edit: false,
            run: true,
            delete: false,
            markReady: false,
            deprecate: false,
            revise: true,
            duplicate: false,
            share: false,
            transfer: false,
            restore: false,
            runProtected: false,
          },
        }),
      ),
    );
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    expect(screen.getByText("This test is Ready and frozen. Start a new revision to change it.")).toBeInTheDocument();
    expect(screen.getByLabelText("Name")).toBeDisabled();
    expect(screen.getByRole("button", { name: "New revision" })).toBeInTheDocument();
    for (const name of [
      "Save",
      "Mark Ready",
      "Deprecate",
      "Duplicate",
      "Sharing",
      "Delete",
      "Add step",
      "Delete selected steps",
      "Move selected steps up",
    ]) {
      expect(screen.queryByRole("button", { name })).not.toBeInTheDocument();
    }
    await userEvent.click(screen.getByRole("button", { name: `Step 1: ${OPEN}` }));
    expect(within(screen.getByRole("group", { name: "Step 1 navigate" })).getByLabelText("URL")).toBeDisabled();
  });

  it("says Deprecated tests are read-only", async () => {
    fakeFetch(testRoutes(testJSON({ status: "Deprecated", can: { ...testJSON().can, edit: false, delete: false, markReady: false } })));
    renderEditor();
    expect(await screen.findByText("Deprecated tests are read-only; duplicate it to work from a copy.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Duplicate" })).toBeInTheDocument();
  });

  it("opens a test of another of the caller's projects and makes that project the current one", async () => {
    const { calls } = fakeFetch(testRoutes(testJSON({ projectId: "prj_2" })));
    const context = testContext();
    context.organizations[0].projects?.push({ id: "prj_2", orgId: "org_1", name: "Blog", role: "Admin" });
    function CurrentProject() {
      return <p data-testid="current">{useWorkspace().project?.name}</p>;
    }
    renderPage(
      <>
        <CurrentProject />
        <EditorPage />
      </>,
      { route: "/tests/tc_1", path: "/tests/:id", context },
    );
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeInTheDocument();
    const get = calls.find((c) => c.method === "GET" && c.path === "/api/tests/tc_1");
    expect(get?.headers["x-project-id"]).toBeUndefined();
    await waitFor(() => expect(screen.getByTestId("current")).toHaveTextContent("Blog"));
  });

  it("opens with the step of ?step= shown", async () => {
    fakeFetch(testRoutes());
    renderEditor("tc_1", "?step=s2");
    const step2 = await screen.findByRole("group", { name: "Step 2 fill" });
    expect(within(step2).getByLabelText("Value")).toHaveValue("${user}");
    expect(screen.getByRole("button", { name: `Step 2: ${FILL}` })).toHaveAttribute("aria-current", "step");
  });

  it("moves the shown step with Alt+Arrow keys and keeps the focus on it", async () => {
    fakeFetch(testRoutes());
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await userEvent.click(screen.getByRole("button", { name: `Step 1: ${OPEN}` }));
    await userEvent.keyboard("{Alt>}{ArrowDown}{/Alt}");
    expect(stepNames()).toEqual([`Step 1: ${FILL}`, `Step 2: ${OPEN}`]);
    expect(screen.getByRole("button", { name: `Step 2: ${OPEN}` })).toHaveFocus();
    await userEvent.keyboard("{Alt>}{ArrowUp}{/Alt}");
    expect(stepNames()).toEqual([`Step 1: ${OPEN}`, `Step 2: ${FILL}`]);
    // Without Alt the arrows walk the list.
    await userEvent.keyboard("{ArrowDown}");
    expect(screen.getByRole("button", { name: `Step 2: ${FILL}` })).toHaveFocus();
    expect(screen.getByRole("group", { name: "Step 2 fill" })).toBeInTheDocument();
  });

  it("selects several steps with Shift-click and the checkboxes, and deletes them together", async () => {
    const doc = { ...baseDoc(), steps: [...baseDoc().steps, { id: "s3", type: "wait", ms: 5 }, { id: "s4", type: "wait", ms: 6 }] };
    fakeFetch(testRoutes(testJSON({}, doc)));
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: `Step 2: ${FILL}` }));
    await user.keyboard("{Shift>}");
    await user.click(screen.getByRole("button", { name: "Step 3: Wait 5 ms" }));
    await user.keyboard("{/Shift}");
    expect(screen.getByRole("checkbox", { name: "Select step 2" })).toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Select step 3" })).toBeChecked();
    await userEvent.click(screen.getByRole("checkbox", { name: "Select step 4" }));
    expect(screen.getByText("3 selected")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Delete selected steps" }));
    expect(stepNames()).toEqual([`Step 1: ${OPEN}`]);
  });

  it("saves with Ctrl+S", async () => {
    const { calls } = fakeFetch({ ...testRoutes(), "PUT /api/tests/tc_1": { body: testJSON(), headers: { ETag: '"v3-r2"' } } });
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await userEvent.type(screen.getByLabelText("Suite"), "!");
    await userEvent.keyboard("{Control>}s{/Control}");
    await screen.findByText("Saved.");
    expect(sentDocument(calls).suite).toBe("Accounts!");
  });

  it("offers Save and run on unsaved changes, and an invalid test does not run", async () => {
    const { calls } = fakeFetch({
      ...testRoutes(),
      "PUT /api/tests/tc_1": {
        status: 422,
        body: {
          error: "the test document is not valid",
          code: "invalid",
          issues: [{ path: "steps[0].url", message: "url is required for a navigate step", code: "required" }],
        },
      },
    });
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await userEvent.click(screen.getByRole("button", { name: `Step 1: ${OPEN}` }));
    await userEvent.clear(within(screen.getByRole("group", { name: "Step 1 navigate" })).getByLabelText("URL"));
    await userEvent.click(screen.getByRole("button", { name: "Run" }));
    const ask = screen.getByRole("dialog", { name: "Save before running?" });
    await userEvent.click(within(ask).getByRole("button", { name: "Save and run" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(within(screen.getByRole("group", { name: "Step 1 navigate" })).getByLabelText("URL")).toHaveAccessibleDescription(
      /url is required/,
    );
    expect(calls.some((c) => c.method === "POST" && c.path === "/api/runs")).toBe(false);
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
  });
});
