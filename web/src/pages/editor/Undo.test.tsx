// Undo and redo in the editor: every kind of edit goes back and comes
// again, typing makes one entry per burst, Save keeps the history, and the
// keys stay a text field's own while it has the focus.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import type { EditorDocument } from "../../api/editorApi";
import { EditorPage } from "./EditorPage";
import { baseDoc, testJSON, testRoutes } from "./editorFixtures";

afterEach(() => vi.unstubAllGlobals());

const OPEN = "Open ${baseUrl}/login";
const FILL = 'Fill "Email" with ${user}';
const WAIT = "Wait 500 ms";

function threeSteps(): EditorDocument {
  return { ...baseDoc(), steps: [...baseDoc().steps, { id: "s3", type: "wait", ms: 500 }] };
}

function renderEditor() {
  return renderPage(<EditorPage />, { route: "/tests/tc_1", path: "/tests/:id" });
}

const stepNames = () => screen.getAllByRole("button", { name: /^Step \d+:/ }).map((b) => b.getAttribute("aria-label") ?? "");
const undoButton = () => screen.getByRole("button", { name: "Undo" });
const redoButton = () => screen.getByRole("button", { name: "Redo" });

describe("Undo and redo in the editor", () => {
  it("has titled toolbar buttons, disabled until there is something to undo or redo", async () => {
    fakeFetch(testRoutes());
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    expect(undoButton()).toBeDisabled();
    expect(redoButton()).toBeDisabled();
    expect(undoButton()).toHaveAttribute("title", "Undo the last edit (Ctrl+Z)");
    expect(redoButton()).toHaveAttribute("title", expect.stringContaining("Ctrl+Shift+Z"));
  });

  it("undoes a burst of typing in a step field as one edit, and redoes it", async () => {
    fakeFetch(testRoutes());
    renderEditor();
    await userEvent.click(await screen.findByRole("button", { name: `Step 1: ${OPEN}` }));
    const url = within(screen.getByRole("group", { name: "Step 1 navigate" })).getByLabelText("URL");
    await userEvent.type(url, "/again");
    expect(url).toHaveValue("${baseUrl}/login/again");
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
    await userEvent.click(undoButton());
    expect(url).toHaveValue("${baseUrl}/login");
    expect(screen.queryByText("Unsaved changes")).not.toBeInTheDocument();
    expect(undoButton()).toBeDisabled();
    await userEvent.click(redoButton());
    expect(url).toHaveValue("${baseUrl}/login/again");
    expect(redoButton()).toBeDisabled();
  });

  it("undoes settings changes", async () => {
    fakeFetch(testRoutes());
    renderEditor();
    const name = await screen.findByLabelText("Name");
    await userEvent.clear(name);
    await userEvent.type(name, "Log in");
    await userEvent.click(undoButton());
    expect(name).toHaveValue("Sign in");
  });

  it("undoes moves, and the duplicate and delete of several steps, one at a time, then redoes them", async () => {
    fakeFetch(testRoutes(testJSON({}, threeSteps())));
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    const start = [`Step 1: ${OPEN}`, `Step 2: ${FILL}`, `Step 3: ${WAIT}`];
    expect(stepNames()).toEqual(start);
    await userEvent.click(screen.getByRole("checkbox", { name: "Select step 1" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Select step 2" }));
    await userEvent.click(screen.getByRole("button", { name: "Move selected steps down" }));
    const moved = [`Step 1: ${WAIT}`, `Step 2: ${OPEN}`, `Step 3: ${FILL}`];
    expect(stepNames()).toEqual(moved);
    await userEvent.click(screen.getByRole("button", { name: "Duplicate selected steps" }));
    const duplicated = stepNames();
    expect(duplicated).toHaveLength(5);
    await userEvent.click(screen.getByRole("checkbox", { name: "Select all steps" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Select step 1" }));
    await userEvent.click(screen.getByRole("button", { name: "Delete selected steps" }));
    expect(stepNames()).toEqual([`Step 1: ${WAIT}`]);

    await userEvent.click(undoButton());
    expect(stepNames()).toEqual(duplicated);
    await userEvent.click(undoButton());
    expect(stepNames()).toEqual(moved);
    await userEvent.click(undoButton());
    expect(stepNames()).toEqual(start);
    expect(undoButton()).toBeDisabled();
    await userEvent.click(redoButton());
    await userEvent.click(redoButton());
    await userEvent.click(redoButton());
    expect(stepNames()).toEqual([`Step 1: ${WAIT}`]);
  });

  it("takes Ctrl+Z and Ctrl+Shift+Z or Ctrl+Y outside text fields, and leaves them to a focused text field", async () => {
    fakeFetch(testRoutes());
    renderEditor();
    await userEvent.click(await screen.findByRole("button", { name: `Step 2: ${FILL}` }));
    const value = within(screen.getByRole("group", { name: "Step 2 fill" })).getByLabelText("Value");
    await userEvent.type(value, "!");
    // In the field the browser's own undo applies: the editor's history is left alone.
    expect(fireEvent.keyDown(value, { key: "z", ctrlKey: true })).toBe(true);
    expect(value).toHaveValue("${user}!");
    // On the step list the editor undoes and redoes.
    const row = screen.getByRole("button", { name: /^Step 2:/ });
    row.focus();
    expect(fireEvent.keyDown(row, { key: "z", ctrlKey: true })).toBe(false);
    expect(value).toHaveValue("${user}");
    fireEvent.keyDown(row, { key: "Z", ctrlKey: true, shiftKey: true });
    expect(value).toHaveValue("${user}!");
    fireEvent.keyDown(row, { key: "z", metaKey: true });
    expect(value).toHaveValue("${user}");
    fireEvent.keyDown(row, { key: "y", ctrlKey: true });
    expect(value).toHaveValue("${user}!");
  });

  it("keeps the history over a save: an undo after it is an unsaved change again", async () => {
    const edited = { ...baseDoc(), name: "Log in" };
    fakeFetch({ ...testRoutes(), "PUT /api/tests/tc_1": { body: testJSON({}, edited), headers: { ETag: '"v3-r2"' } } });
    renderEditor();
    const name = await screen.findByLabelText("Name");
    await userEvent.clear(name);
    await userEvent.type(name, "Log in");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await screen.findByText("Saved.");
    expect(undoButton()).toBeEnabled();
    await userEvent.click(undoButton());
    expect(name).toHaveValue("Sign in");
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
    await userEvent.click(redoButton());
    expect(screen.queryByText("Unsaved changes")).not.toBeInTheDocument();
  });

  it("undoes a step added with Add step", async () => {
    fakeFetch(testRoutes());
    renderEditor();
    await userEvent.selectOptions(await screen.findByLabelText("Step type"), "wait");
    await userEvent.click(screen.getByRole("button", { name: "Add step" }));
    expect(stepNames()).toHaveLength(3);
    await userEvent.click(undoButton());
    expect(stepNames()).toEqual([`Step 1: ${OPEN}`, `Step 2: ${FILL}`]);
  });

  it("undoes steps drafted from text, inserted at the cursor as recorded steps are", async () => {
    fakeFetch({
      ...testRoutes(),
      "GET /api/environments": { body: { environments: [] } },
      "POST /api/language/generate": {
        body: {
          model: "m",
          steps: [{ id: "d1", type: "click", target: { locators: [{ kind: "role", value: "button", name: "Sign in" }] } }],
          issues: [],
          checks: [],
          grounding: { verified: false, reason: "no environment" },
        },
      },
    });
    renderEditor();
    await userEvent.click(await screen.findByRole("button", { name: "Draft from text" }));
    const panel = screen.getByRole("region", { name: "Draft from text" });
    await userEvent.type(within(panel).getByLabelText("What should the steps do?"), "click sign in");
    await userEvent.click(within(panel).getByRole("button", { name: "Generate" }));
    await userEvent.click(await within(panel).findByRole("button", { name: "Insert 1 step" }));
    expect(stepNames()).toHaveLength(3);
    await userEvent.click(undoButton());
    expect(stepNames()).toEqual([`Step 1: ${OPEN}`, `Step 2: ${FILL}`]);
    await userEvent.click(redoButton());
    expect(stepNames()[2]).toBe('Step 3: Click the button "Sign in"');
  });

  it("undoes Make component: the steps come back in place of the call, as unsaved changes", async () => {
    let made = false;
    const after: EditorDocument = { ...baseDoc(), steps: [{ id: "s1", type: "callComponent", component: "cmp_login", version: 1 }] };
    fakeFetch({
      "GET /api/tests/tc_1": () =>
        made ? { body: testJSON({ version: 4 }, after), headers: { ETag: '"v4-r1"' } } : { body: testJSON(), headers: { ETag: '"v3-r1"' } },
      "GET /api/registry": testRoutes()["GET /api/registry"],
      "GET /api/components": { body: { components: [] } },
      "POST /api/components": () => {
        made = true;
        return {
          status: 201,
          body: {
            component: { id: "cmp_login", projectId: "prj_1", name: "Sign in form", description: "", latestVersion: 1, inputs: [] },
            test: { id: "tc_1", version: 4 },
          },
        };
      },
    });
    renderEditor();
    await userEvent.click(await screen.findByRole("checkbox", { name: "Select all steps" }));
    await userEvent.click(screen.getByRole("button", { name: "Make component" }));
    const dialog = screen.getByRole("dialog", { name: "Make component" });
    await userEvent.type(within(dialog).getByLabelText("Name"), "Sign in form");
    await userEvent.click(within(dialog).getByRole("button", { name: "Make component" }));
    await screen.findByText(/The steps are now component Sign in form v1/);
    await waitFor(() => expect(stepNames()).toHaveLength(1));
    expect(screen.getByText("v4")).toBeInTheDocument();
    await userEvent.click(undoButton());
    expect(stepNames()).toEqual([`Step 1: ${OPEN}`, `Step 2: ${FILL}`]);
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
  });

  it("is not offered on a test the caller cannot edit", async () => {
    fakeFetch(testRoutes(testJSON({ status: "Ready", can: { ...testJSON().can, edit: false } })));
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    expect(screen.queryByRole("button", { name: "Undo" })).not.toBeInTheDocument();
    await waitFor(() => expect(stepNames()).toHaveLength(2));
  });
});
