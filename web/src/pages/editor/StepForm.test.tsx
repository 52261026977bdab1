import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../api/editorApi";
import { registry } from "./editorFixtures";
import { StepForm } from "./StepForm";

const waitType = registry.stepTypes.find((t) => t.type === "wait")!;

function renderWait(step: JsonObject) {
  render(<StepForm step={step} stepType={waitType} kinds={registry.locatorKinds} issues={{}} onChange={() => {}} idBase="t" />);
}

describe("StepForm", () => {
  it("shows a wait step one duration field", () => {
    renderWait({ id: "s1", type: "wait", ms: 500 });
    expect(screen.getAllByRole("spinbutton")).toHaveLength(1);
    expect(screen.getByRole("spinbutton")).toHaveValue(500);
  });

  it("still shows a wait's timeout when the step has one, so it can be cleared", () => {
    renderWait({ id: "s1", type: "wait", ms: 500, timeoutMs: 2000 });
    expect(screen.getAllByRole("spinbutton")).toHaveLength(2);
  });
});
