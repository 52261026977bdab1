import { render, screen } from "@testing-library/react";
import type { UseQueryResult } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { ResourceTable, type Column } from "./ResourceTable";

interface Thing {
  id: string;
  name: string;
}

const columns: Column<Thing>[] = [{ header: "Name", cell: (t) => <strong>{t.name}</strong> }];

function table(query: Partial<UseQueryResult<Thing[]>>, withActions = true) {
  return render(
    <ResourceTable
      query={query as UseQueryResult<Thing[]>}
      columns={columns}
      rowKey={(t) => t.id}
      loadingLabel="Loading things"
      errorTitle="Things could not be loaded"
      empty="No things yet."
      actions={withActions ? (t) => <button aria-label={`Edit ${t.name}`}>Edit</button> : undefined}
    />,
  );
}

describe("ResourceTable", () => {
  it("says it is loading, what failed, or that there is nothing yet", () => {
    const { unmount } = table({ isPending: true });
    expect(screen.getByRole("status")).toHaveTextContent("Loading things");
    unmount();
    const second = table({ isPending: false, isError: true, error: new Error("boom") });
    expect(screen.getByRole("alert")).toHaveTextContent("Things could not be loaded");
    second.unmount();
    table({ isPending: false, isError: false, data: [] });
    expect(screen.getByText("No things yet.")).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });

  it("shows one row per record with its actions, and no actions column without them", () => {
    const data = [
      { id: "a", name: "Alpha" },
      { id: "b", name: "Beta" },
    ];
    const { unmount } = table({ isPending: false, isError: false, data });
    expect(screen.getAllByRole("row")).toHaveLength(3);
    expect(screen.getByRole("columnheader", { name: "Actions" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Edit Beta" })).toBeInTheDocument();
    unmount();
    table({ isPending: false, isError: false, data }, false);
    expect(screen.getAllByRole("columnheader")).toHaveLength(1);
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
  });
});
