// The inspector's inputs for the parameter types of issue 28: list
// (checkboxes with allowed values, removable items without), position
// (x and y), a second target (dragTo's drop target), and fields that show
// only with the choice they go with.
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import type { RegistryParam, StepType } from "../../api";
import type { JsonObject } from "../../api/editorApi";
import { registry } from "./editorFixtures";
import { StepForm } from "./StepForm";
import { newStep } from "./documentModel";

const target: RegistryParam = { name: "target", type: "target", required: true, description: "the element to act on" };
const type = (t: string, params: RegistryParam[]): StepType => ({ type: t, description: t, params });

const click = type("click", [
  target,
  { name: "button", type: "enum", required: false, description: "the mouse button", values: ["left", "right", "middle"], default: "left" },
  { name: "modifiers", type: "list", required: false, description: "keys held", values: ["Alt", "Control", "Meta", "Shift"] },
  { name: "position", type: "position", required: false, description: "where to click" },
]);
const upload = type("upload", [target, { name: "files", type: "list", required: true, description: "project files" }]);
const dragTo = type("dragTo", [target, { name: "to", type: "target", required: true, description: "the element to drop it on" }]);
const switchTab = type("switchTab", [
  { name: "to", type: "enum", required: true, description: "which tab", values: ["new", "opener", "index", "match"] },
  { name: "index", type: "number", required: false, description: "the tab's position", min: 0, max: 99 },
  { name: "url", type: "string", required: false, description: "the tab's URL" },
  { name: "title", type: "string", required: false, description: "the tab's title" },
]);
const setVariable = type("setVariable", [
  { name: "name", type: "string", required: true, description: "the variable" },
  { name: "value", type: "string", required: false, description: "the value" },
  { ...target, required: false },
  { name: "from", type: "enum", required: false, description: "what is read", values: ["text", "attribute", "title"], default: "text" },
  { name: "attribute", type: "string", required: false, description: "the attribute" },
]);
const assertCount = type("assertCount", [target, { name: "expected", type: "number", required: true, description: "how many", min: 0 }]);

/** Form keeps the step in state, as the inspector does, and reports each change. */
function Form({
  stepType,
  initial,
  onStep,
  fileNames,
}: {
  stepType: StepType;
  initial: JsonObject;
  onStep: (s: JsonObject) => void;
  fileNames?: Record<string, string>;
}) {
  const [step, setStep] = useState(initial);
  return (
    <StepForm
      step={step}
      stepType={stepType}
      kinds={registry.locatorKinds}
      issues={{}}
      idBase="t"
      fileNames={fileNames}
      onChange={(s) => {
        setStep(s);
        onStep(s);
      }}
    />
  );
}

const css = (v: string) => ({ locators: [{ kind: "css", value: v }] });

describe("StepForm, new parameter types", () => {
  beforeEach(() => {
    fakeFetch({});
  });

  it("ticks modifiers from the allowed values and keeps the registry's order", async () => {
    const onStep = vi.fn();
    renderPage(<Form stepType={click} initial={{ id: "s1", type: "click", target: css("#a") }} onStep={onStep} />);
    const group = screen.getByRole("group", { name: "Modifier keys" });
    expect(
      within(group)
        .getAllByRole("checkbox")
        .map((c) => c.parentElement?.textContent),
    ).toEqual(["Alt", "Control", "Meta", "Shift"]);
    await userEvent.click(within(group).getByRole("checkbox", { name: "Shift" }));
    await userEvent.click(within(group).getByRole("checkbox", { name: "Alt" }));
    expect(onStep).toHaveBeenLastCalledWith(expect.objectContaining({ modifiers: ["Alt", "Shift"] }));
    await userEvent.click(within(group).getByRole("checkbox", { name: "Alt" }));
    await userEvent.click(within(group).getByRole("checkbox", { name: "Shift" }));
    expect(onStep.mock.lastCall?.[0]).not.toHaveProperty("modifiers");
  });

  it("edits a position as x and y, and removes it when both are empty", async () => {
    const onStep = vi.fn();
    renderPage(<Form stepType={click} initial={{ id: "s1", type: "click", target: css("#a") }} onStep={onStep} />);
    const group = screen.getByRole("group", { name: "Position (x, y)" });
    await userEvent.type(within(group).getByRole("spinbutton", { name: "x" }), "5");
    await userEvent.type(within(group).getByRole("spinbutton", { name: "y" }), "12");
    expect(onStep).toHaveBeenLastCalledWith(expect.objectContaining({ position: { x: 5, y: 12 } }));
    await userEvent.clear(within(group).getByRole("spinbutton", { name: "x" }));
    await userEvent.clear(within(group).getByRole("spinbutton", { name: "y" }));
    expect(onStep.mock.lastCall?.[0]).not.toHaveProperty("position");
  });

  it("chooses an upload's files by name from the project's files", async () => {
    const file = (id: string, name: string, size: number) => ({
      id,
      projectId: "prj_1",
      name,
      size,
      sha256: "ab",
      contentType: "application/pdf",
      createdBy: { id: "usr_me", name: "Mia" },
      createdAt: "2026-11-01T10:00:00Z",
    });
    fakeFetch({ "GET /api/files": { body: { files: [file("fil_a", "report.pdf", 2048), file("fil_b", "photo.png", 512)] } } });
    const onStep = vi.fn();
    renderPage(
      <Form stepType={upload} initial={{ id: "s1", type: "upload", target: css("#f"), files: ["fil_a", "fil_gone"] }} onStep={onStep} />,
    );
    const group = screen.getByRole("group", { name: "Files" });
    expect(await within(group).findByText("report.pdf")).toBeInTheDocument();
    expect(within(group).getByText("not in the project's files")).toBeInTheDocument();
    const choose = within(group).getByRole("combobox", { name: "Add to files" });
    // Only the files not chosen yet are offered, by name and size.
    expect(within(choose).queryByRole("option", { name: /report\.pdf/ })).toBeNull();
    await userEvent.selectOptions(choose, "fil_b");
    await userEvent.click(within(group).getByRole("button", { name: "Add" }));
    expect(onStep).toHaveBeenLastCalledWith(expect.objectContaining({ files: ["fil_a", "fil_gone", "fil_b"] }));
    await userEvent.click(within(group).getByRole("button", { name: "Remove report.pdf" }));
    expect(onStep).toHaveBeenLastCalledWith(expect.objectContaining({ files: ["fil_gone", "fil_b"] }));
  });

  it("gives a dragTo its drop target, edited apart from the dragged element", async () => {
    const onStep = vi.fn();
    renderPage(<Form stepType={dragTo} initial={{ id: "s1", type: "dragTo", target: css("#card"), to: css("#done") }} onStep={onStep} />);
    const drop = screen.getByRole("group", { name: "Drop target" });
    const value = within(drop).getByDisplayValue("#done");
    await userEvent.type(value, "2");
    expect(onStep).toHaveBeenLastCalledWith(expect.objectContaining({ target: css("#card"), to: css("#done2") }));
  });

  it("shows a switchTab's index only with to: index, and url and title only with to: match", async () => {
    renderPage(<Form stepType={switchTab} initial={{ id: "s1", type: "switchTab", to: "new" }} onStep={() => {}} />);
    expect(screen.queryByLabelText("Tab index")).toBeNull();
    expect(screen.queryByLabelText("URL")).toBeNull();
    await userEvent.selectOptions(screen.getByLabelText("To"), "index");
    expect(screen.getByLabelText("Tab index")).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText("To"), "match");
    expect(screen.queryByLabelText("Tab index")).toBeNull();
    expect(screen.getByLabelText("URL")).toBeInTheDocument();
    expect(screen.getByLabelText("Title")).toBeInTheDocument();
  });

  it("drops a switchTab's index when to leaves index", async () => {
    const onStep = vi.fn();
    renderPage(<Form stepType={switchTab} initial={{ id: "s1", type: "switchTab", to: "index", index: 2 }} onStep={onStep} />);
    await userEvent.selectOptions(screen.getByLabelText("To"), "new");
    expect(onStep).toHaveBeenLastCalledWith({ id: "s1", type: "switchTab", to: "new" });
    expect(screen.queryByLabelText("Tab index")).toBeNull();
  });

  it("starts a new switchTab without the match default it would be refused for", () => {
    const withMatch = type("switchTab", [
      ...switchTab.params,
      { name: "match", type: "enum", required: false, description: "how", values: ["equals", "contains"], default: "contains" },
    ]);
    expect(newStep(withMatch, [], registry.locatorKinds)).toEqual({ id: "s1", type: "switchTab", to: "new" });
  });

  it("shows setVariable's attribute only with from: attribute, and no target for the page's title", async () => {
    renderPage(<Form stepType={setVariable} initial={{ id: "s1", type: "setVariable", name: "x", target: css("a") }} onStep={() => {}} />);
    expect(screen.queryByLabelText("Attribute")).toBeNull();
    expect(screen.queryByLabelText("Value")).toBeNull(); // the target gives the value
    await userEvent.selectOptions(screen.getByLabelText("From"), "attribute");
    expect(screen.getByLabelText("Attribute")).toBeInTheDocument();
    expect(screen.getByRole("group", { name: "Element" })).toBeInTheDocument();
  });

  it("hides the target of a setVariable that reads the page's title", () => {
    renderPage(<Form stepType={setVariable} initial={{ id: "s1", type: "setVariable", name: "x", from: "title" }} onStep={() => {}} />);
    expect(screen.queryByRole("group", { name: "Element" })).toBeNull();
  });

  it("takes an assertCount's expected as a number", async () => {
    const onStep = vi.fn();
    renderPage(<Form stepType={assertCount} initial={{ id: "s1", type: "assertCount", target: css("li") }} onStep={onStep} />);
    await userEvent.type(screen.getByRole("spinbutton", { name: "Expected" }), "3");
    expect(onStep).toHaveBeenLastCalledWith(expect.objectContaining({ expected: 3 }));
  });
});
