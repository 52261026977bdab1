import { useState } from "react";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import type { EditorDocument } from "../../api/editorApi";
import { SettingsForm } from "./SettingsForm";

afterEach(() => vi.unstubAllGlobals());

let last: EditorDocument | null = null;
function Harness({ start }: { start: EditorDocument }) {
  const [doc, setDoc] = useState(start);
  last = doc;
  return (
    <SettingsForm
      doc={doc}
      onChange={setDoc}
      issues={{ data: [{ path: "data.pool", code: "unknown", message: "no data pool of this project has the id", sub: ".pool" }] }}
    />
  );
}

const lists = {
  "GET /api/test-data": {
    body: { dataSets: [{ id: "tds_users00000000000000", name: "Users", columns: ["email"], rowCount: 5, updatedAt: "" }] },
  },
  "GET /api/data-pools": {
    body: {
      dataPools: [
        { id: "dpl_cards000000000000000", name: "Cards", columns: ["card"], free: 2, leased: 0, consumed: 1, total: 3, updatedAt: "" },
      ],
    },
  },
};

describe("the Data settings", () => {
  it("binds a data set and a pool in consume mode, and unbinds", async () => {
    fakeFetch(lists);
    const user = userEvent.setup();
    renderPage(<Harness start={{ dsl: 2, name: "T", steps: [] }} />);
    const data = screen.getByRole("group", { name: "Data" });
    const setSelect = within(data).getByLabelText("Data set");
    await within(setSelect).findByRole("option", { name: "Users (5 rows)" });
    await user.selectOptions(setSelect, "tds_users00000000000000");
    expect(within(data).getByText("Runs once per row (5); steps read ${email}.")).toBeInTheDocument();
    expect(last?.data).toEqual({ set: "tds_users00000000000000" });
    expect(within(data).getByLabelText(/Consume/)).toBeDisabled();
    const poolSelect = within(data).getByLabelText("Data pool");
    await within(poolSelect).findByRole("option", { name: "Cards (2 free)" });
    await user.selectOptions(poolSelect, "dpl_cards000000000000000");
    expect(last?.data).toEqual({ set: "tds_users00000000000000", pool: "dpl_cards000000000000000", mode: "lease" });
    await user.click(within(data).getByLabelText(/Consume/));
    expect(last?.data).toEqual({ set: "tds_users00000000000000", pool: "dpl_cards000000000000000", mode: "consume" });
    await user.selectOptions(poolSelect, "");
    await user.selectOptions(setSelect, "");
    expect(last && "data" in last).toBe(false);
  });

  it("keeps an id the lists do not hold and shows the hub's issue beside it", async () => {
    fakeFetch(lists);
    renderPage(<Harness start={{ dsl: 2, name: "T", steps: [], data: { pool: "dpl_gone0000000000000000", mode: "consume" } }} />);
    const pool = screen.getByLabelText("Data pool");
    expect(await within(pool).findByRole("option", { name: "Unknown data pool (dpl_gone0000000000000000)" })).toBeInTheDocument();
    expect(pool).toHaveValue("dpl_gone0000000000000000");
    expect(screen.getByText("no data pool of this project has the id")).toBeInTheDocument();
    expect(screen.getByLabelText(/Consume/)).toBeChecked();
  });
});
