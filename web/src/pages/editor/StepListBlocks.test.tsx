// Blocks in the editor (issue 29): an if, a repeat and a forEach show
// their steps indented below their line, numbered 2.1, 2.2; they collapse;
// steps are added into them, moved out of them, and their problems show
// on the step inside the block that has them.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, type FakeCall } from "../../test/render";
import type { EditorDocument } from "../../api/editorApi";
import { EditorPage } from "./EditorPage";
import { baseDoc, flowRegistry, testJSON, testRoutes } from "./editorFixtures";

afterEach(() => vi.unstubAllGlobals());

const cookies = { locators: [{ kind: "role", value: "button", name: "Accept cookies" }] };

function blockDoc(): EditorDocument {
  return {
    ...baseDoc(),
    steps: [
      { id: "open", type: "navigate", url: "${baseUrl}/" },
      {
        id: "banner",
        type: "if",
        condition: { kind: "visible", target: cookies },
        steps: [{ id: "accept", type: "click", target: cookies }],
        else: [{ id: "note", type: "fill", target: { locators: [{ kind: "label", value: "Note" }] }, value: "x" }],
      },
      { id: "five", type: "repeat", times: 5, steps: [{ id: "pause", type: "wait", ms: 500 }] },
    ],
  };
}

function renderEditor(routes = {}) {
  const fetch = fakeFetch({ ...testRoutes(testJSON({}, blockDoc())), "GET /api/registry": { body: flowRegistry }, ...routes });
  renderPage(<EditorPage />, { route: "/tests/tc_1", path: "/tests/:id" });
  return fetch;
}

const IF = 'If the button "Accept cookies" is visible';
const stepNames = () => screen.getAllByRole("button", { name: /^Step [\d.]+:/ }).map((b) => b.getAttribute("aria-label") ?? "");
const sent = (calls: FakeCall[]) => calls.find((c) => c.method === "PUT")?.body as EditorDocument;

describe("blocks in the step list", { timeout: 30_000 }, () => {
  it("shows a block's steps below its line, an if's Else, numbered as an outline", async () => {
    renderEditor();
    await screen.findByRole("button", { name: `Step 2: ${IF}` });
    expect(stepNames()).toEqual([
      "Step 1: Open ${baseUrl}/",
      `Step 2: ${IF}`,
      'Step 2.1: Click the button "Accept cookies"',
      'Step 2.2: Fill "Note" with "x"',
      "Step 3: Repeat 5 times",
      "Step 3.1: Wait 500 ms",
    ]);
    expect(within(screen.getByRole("list", { name: "Steps of step 2" })).getByRole("button", { name: /^Step 2\.1:/ })).toBeInTheDocument();
    expect(
      within(screen.getByRole("list", { name: "Else steps of step 2" })).getByRole("button", { name: /^Step 2\.2:/ }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText("Else of step 2")).toHaveTextContent("Else");
    expect(screen.getByRole("heading", { name: "Steps (6)" })).toBeInTheDocument();
  });

  it("collapses and expands a block", async () => {
    renderEditor();
    await userEvent.click(await screen.findByRole("button", { name: "Collapse step 2" }));
    expect(screen.queryByRole("button", { name: /^Step 2\.1:/ })).not.toBeInTheDocument();
    expect(screen.getByText("2 steps")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Expand step 2" }));
    expect(screen.getByRole("button", { name: /^Step 2\.1:/ })).toBeInTheDocument();
  });

  it("adds steps into a block and after the selected step in its own list, and saves the tree", async () => {
    const { calls } = renderEditor({ "PUT /api/tests/tc_1": { body: testJSON({}, blockDoc()), headers: { ETag: '"v4-r1"' } } });
    await screen.findByRole("button", { name: `Step 2: ${IF}` });
    await userEvent.selectOptions(screen.getByLabelText("Step type"), "wait");
    await userEvent.click(screen.getByRole("button", { name: "Add step into step 3" }));
    expect(stepNames()[6]).toBe("Step 3.2: Wait ? ms");
    expect(screen.getByRole("group", { name: "Step 3.2 wait" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: /^Step 2\.1:/ }));
    await userEvent.click(screen.getByRole("button", { name: "Add step" }));
    expect(stepNames()[3]).toBe("Step 2.2: Wait ? ms");
    await userEvent.click(screen.getByRole("button", { name: "Add else step to step 2" }));
    expect(stepNames()[5]).toBe("Step 2.4: Wait ? ms");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    const steps = sent(calls).steps;
    expect(steps.map((s) => s.id)).toEqual(["open", "banner", "five"]);
    expect((steps[1].steps as { id: string }[]).map((s) => s.id)).toEqual(["accept", "s8"]);
    expect((steps[1].else as { id: string }[]).map((s) => s.id)).toEqual(["note", "s9"]);
    expect((steps[2].steps as { id: string }[]).map((s) => s.id)).toEqual(["pause", "s7"]);
  });

  it("moves a step out of its block at the edge; undo brings it back", async () => {
    renderEditor();
    await userEvent.click(await screen.findByRole("button", { name: "Step 3.1: Wait 500 ms" }));
    await userEvent.click(screen.getByRole("button", { name: "Move selected steps up" }));
    expect(stepNames().slice(4)).toEqual(["Step 3: Wait 500 ms", "Step 4: Repeat 5 times"]);
    await userEvent.click(screen.getByRole("button", { name: "Undo" }));
    expect(stepNames().slice(4)).toEqual(["Step 3: Repeat 5 times", "Step 3.1: Wait 500 ms"]);
  });

  it("drags a step into a block's list and on into another block", async () => {
    renderEditor();
    const row = (name: RegExp) => screen.getByRole("button", { name }).closest("[data-step-key]")!;
    const dataTransfer = { setData: () => {}, effectAllowed: "", dropEffect: "" };
    await screen.findByRole("button", { name: /^Step 1:/ });
    // Onto the end of the repeat's list.
    fireEvent.dragStart(row(/^Step 1:/), { dataTransfer });
    const end = screen.getByRole("button", { name: "Add step into step 3" }).closest("li")!;
    fireEvent.dragOver(end, { dataTransfer });
    fireEvent.drop(end, { dataTransfer });
    expect(stepNames().slice(3)).toEqual(["Step 2: Repeat 5 times", "Step 2.1: Wait 500 ms", "Step 2.2: Open ${baseUrl}/"]);
    // From one block to another: the end of the if's else-steps.
    fireEvent.dragStart(row(/^Step 2\.2:/), { dataTransfer });
    const elseEnd = screen.getByRole("button", { name: "Add else step to step 1" }).closest("li")!;
    fireEvent.dragOver(elseEnd, { dataTransfer });
    fireEvent.drop(elseEnd, { dataTransfer });
    expect(stepNames()).toEqual([
      `Step 1: ${IF}`,
      'Step 1.1: Click the button "Accept cookies"',
      'Step 1.2: Fill "Note" with "x"',
      "Step 1.3: Open ${baseUrl}/",
      "Step 2: Repeat 5 times",
      "Step 2.1: Wait 500 ms",
    ]);
  });

  it("refuses to move steps of different lists together, but deletes them", async () => {
    renderEditor();
    await userEvent.click(await screen.findByRole("button", { name: "Step 1: Open ${baseUrl}/" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Select step 3.1" }));
    expect(screen.getByRole("button", { name: "Move selected steps up" })).toBeDisabled();
    expect(screen.getByRole("status", { name: "Selection" })).toHaveTextContent("2 selected in different blocks");
    await userEvent.click(screen.getByRole("button", { name: "Delete selected steps" }));
    expect(stepNames()).toEqual([
      `Step 1: ${IF}`,
      'Step 1.1: Click the button "Accept cookies"',
      'Step 1.2: Fill "Note" with "x"',
      "Step 2: Repeat 5 times",
    ]);
  });

  it("shows a problem on the step inside a block that has it, and on its collapsed block", async () => {
    renderEditor({
      "POST /api/tests/tc_1/validate": {
        body: {
          valid: false,
          migratedFrom: null,
          issues: [{ path: "steps[1].else[0].value", message: "value is required for a fill step", code: "required" }],
        },
      },
    });
    await screen.findByRole("button", { name: `Step 2: ${IF}` });
    await userEvent.click(screen.getByRole("button", { name: "Check" }));
    const step = await screen.findByRole("group", { name: "Step 2.2 fill" });
    expect(within(step).getByLabelText("Value")).toHaveAccessibleDescription(/value is required for a fill step/);
    await userEvent.click(screen.getByRole("button", { name: "Collapse step 2" }));
    expect(screen.getByText("1 problem")).toBeInTheDocument();
  });

  it("edits a block's condition in the inspector", async () => {
    renderEditor();
    await userEvent.click(await screen.findByRole("button", { name: `Step 2: ${IF}` }));
    const form = screen.getByRole("group", { name: "Step 2 if" });
    const condition = within(form).getByRole("group", { name: "Condition" });
    expect(within(condition).getByLabelText("Locator 1 value")).toHaveValue("button");
    await userEvent.selectOptions(within(condition).getByLabelText("Kind"), "variable");
    expect(within(condition).queryByLabelText("Locator 1 value")).not.toBeInTheDocument();
    await userEvent.type(within(condition).getByLabelText("Name"), "loggedIn");
    expect(screen.getByRole("button", { name: "Step 2: If loggedIn is set" })).toBeInTheDocument();
    expect(within(form).queryByRole("group", { name: "Steps" })).not.toBeInTheDocument();
  });

  it("edits a repeat's while and a forEach's items", async () => {
    renderEditor();
    await userEvent.click(await screen.findByRole("button", { name: "Step 3: Repeat 5 times" }));
    const form = screen.getByRole("group", { name: "Step 3 repeat" });
    await userEvent.click(within(form).getByRole("button", { name: "Add a while condition" }));
    await userEvent.selectOptions(within(form).getByLabelText("Kind"), "script");
    await userEvent.type(within(form).getByLabelText("Code"), "window.more");
    expect(screen.getByRole("button", { name: "Step 3: Repeat while window.more (at most 5 times)" })).toBeInTheDocument();
    await userEvent.selectOptions(within(form).getByLabelText("Type"), "forEach");
    await userEvent.type(within(form).getByLabelText("Variable holding the items"), "rows");
    expect(screen.getByRole("button", { name: "Step 3: For each item in rows" })).toBeInTheDocument();
    await userEvent.click(within(form).getByLabelText("Texts written here"));
    await userEvent.type(within(form).getByLabelText("Add to texts"), "a{Enter}");
    expect(screen.getByRole("button", { name: 'Step 3: For each item in "a"' })).toBeInTheDocument();
    // Its steps stay through the change of type.
    expect(screen.getByRole("button", { name: "Step 3.1: Wait 500 ms" })).toBeInTheDocument();
  });
});
