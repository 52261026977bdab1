import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import { QuarantineAction } from "./QuarantineDialog";
import { CAN_ALL, makeTest } from "./fixtures";

afterEach(() => vi.unstubAllGlobals());

const QUARANTINE = { at: "2026-11-02T10:00:00Z", by: "usr_m", byName: "Mo Manager", reason: "sandbox down" };

describe("QuarantineAction", () => {
  it("is not offered to those who may not quarantine", () => {
    renderPage(<QuarantineAction test={makeTest({ can: { ...CAN_ALL, quarantine: false } })} onChanged={() => {}} />);
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("asks the reason, then quarantines the test", async () => {
    const quarantined = makeTest({ quarantine: QUARANTINE });
    const { calls } = fakeFetch({ "PUT /api/tests/tc_1/quarantine": { body: quarantined, headers: { ETag: '"v3-r1"' } } });
    const onChanged = vi.fn();
    renderPage(<QuarantineAction test={makeTest()} onChanged={onChanged} />);
    await userEvent.click(screen.getByRole("button", { name: "Quarantine…" }));
    const dialog = screen.getByRole("dialog", { name: "Quarantine Sign in" });
    const submit = screen.getByRole("button", { name: "Quarantine" });
    await userEvent.click(submit); // no reason: the form does not go
    await userEvent.type(screen.getByLabelText("Reason"), "   ");
    await userEvent.click(submit); // blanks are no reason either
    expect(screen.getByRole("alert")).toHaveTextContent("Say why the test is quarantined.");
    expect(calls).toEqual([]);
    await userEvent.type(screen.getByLabelText("Reason"), "sandbox down ");
    await userEvent.click(submit);
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(calls.filter((c) => c.method === "PUT")).toEqual([
      expect.objectContaining({ path: "/api/tests/tc_1/quarantine", body: { reason: "sandbox down" } }),
    ]);
    expect(onChanged.mock.calls[0][0]).toMatchObject({ test: { quarantine: QUARANTINE }, etag: '"v3-r1"' });
    expect(dialog).not.toBeInTheDocument();
  });

  it("shows the hub's refusal in the dialog", async () => {
    fakeFetch({
      "PUT /api/tests/tc_1/quarantine": {
        status: 422,
        body: {
          error: "the quarantine is not valid",
          code: "invalid",
          issues: [{ path: "reason", code: "length", message: "reason must be 1 to 500 characters" }],
        },
      },
    });
    renderPage(<QuarantineAction test={makeTest()} onChanged={() => {}} />);
    await userEvent.click(screen.getByRole("button", { name: "Quarantine…" }));
    await userEvent.type(screen.getByLabelText("Reason"), "x");
    await userEvent.click(screen.getByRole("button", { name: "Quarantine" }));
    expect(await screen.findByText(/reason must be 1 to 500 characters|the quarantine is not valid/)).toBeInTheDocument();
  });

  it("lifts a quarantine after asking", async () => {
    const { calls } = fakeFetch({ "DELETE /api/tests/tc_1/quarantine": { body: makeTest() } });
    const onChanged = vi.fn();
    renderPage(<QuarantineAction test={makeTest({ quarantine: QUARANTINE })} onChanged={onChanged} />);
    await userEvent.click(screen.getByRole("button", { name: "Lift quarantine" }));
    expect(screen.getByRole("dialog")).toHaveTextContent("Its failures will fail batches again");
    await userEvent.click(screen.getAllByRole("button", { name: "Lift quarantine" }).at(-1)!);
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(["DELETE /api/tests/tc_1/quarantine"]);
    expect(onChanged.mock.calls[0][0].test.quarantine).toBeNull();
  });
});
