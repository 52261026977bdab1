import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useQuery } from "@tanstack/react-query";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { renderPage } from "../test/render";
import { ConfirmAction } from "./ConfirmAction";

let runs = 0;

/** Shows how often the "things" query ran, and asks before an action. */
function Harness({ action, onDone, explain }: { action: () => Promise<unknown>; onDone: () => void; explain?: (e: unknown) => unknown }) {
  const things = useQuery({ queryKey: ["things"], queryFn: async () => ++runs });
  return (
    <>
      <p>fetched {things.data}</p>
      <ConfirmAction
        title="Delete thing?"
        confirmLabel="Delete thing"
        action={action}
        refresh={[["things"]]}
        onDone={onDone}
        onCancel={() => {}}
        explain={explain}
      >
        <p>Thing is deleted.</p>
      </ConfirmAction>
    </>
  );
}

beforeEach(() => {
  runs = 0;
});

describe("ConfirmAction", () => {
  it("runs the action on confirm, refreshes the queries it changed, then is done", async () => {
    const action = vi.fn(async () => undefined);
    const onDone = vi.fn();
    const user = userEvent.setup();
    renderPage(<Harness action={action} onDone={onDone} />);
    expect(await screen.findByText("fetched 1")).toBeInTheDocument();
    expect(action).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Delete thing" }));
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(action).toHaveBeenCalledTimes(1);
    expect(screen.getByText("fetched 2")).toBeInTheDocument(); // refreshed before done
  });

  it("shows a failure in the dialog, through explain, and is not done", async () => {
    const onDone = vi.fn();
    const user = userEvent.setup();
    renderPage(
      <Harness
        action={async () => {
          throw new Error("refused");
        }}
        onDone={onDone}
        explain={(e) => (e ? new Error(`explained: ${(e as Error).message}`) : e)}
      />,
    );
    await user.click(await screen.findByRole("button", { name: "Delete thing" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("explained: refused");
    expect(onDone).not.toHaveBeenCalled();
    expect(screen.getByText("fetched 1")).toBeInTheDocument();
  });
});
