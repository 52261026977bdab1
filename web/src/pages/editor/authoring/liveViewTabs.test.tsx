import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { FakeEventSource, installFakeEventSource } from "../../../test/eventSource";
import { fakeFetch, renderPage } from "../../../test/render";
import { LiveView } from "./LiveView";
import { pressGesture } from "./liveViewGesture";

installFakeEventSource();

const frame = (seq: number, tabs?: object[]) => ({
  seq,
  data: "AAAA",
  width: 640,
  height: 400,
  pageWidth: 1280,
  pageHeight: 800,
  scrollX: 0,
  scrollY: 0,
  tabs,
});

/** The live view of rec_1 showing a 640×400 frame at 1:1 on the screen. */
function open(tabs?: object[]) {
  const fetched = fakeFetch({ "POST /api/sessions/rec_1/input": { status: 204 } });
  renderPage(<LiveView sessionId="rec_1" label="Recording" />);
  const view = FakeEventSource.all.find((e) => e.url === "/api/sessions/rec_1/view")!;
  view.emit("frame", frame(1, tabs));
  const img = screen.getByRole("img", { name: /live/ });
  img.getBoundingClientRect = () => ({ left: 0, top: 0, width: 640, height: 400, right: 640, bottom: 400, x: 0, y: 0, toJSON: () => ({}) });
  const inputs = () =>
    fetched.calls.filter((c) => c.path === "/api/sessions/rec_1/input" && (c.body as { kind: string }).kind !== "move").map((c) => c.body);
  return { view, img, inputs };
}

describe("a drag on the live view's picture", () => {
  it("is a drag when the press moved more than 5 frame pixels, else nothing (the click follows)", () => {
    expect(pressGesture({ x: 10, y: 10 }, { x: 200, y: 120 })).toEqual({ kind: "drag", x: 10, y: 10, toX: 200, toY: 120 });
    expect(pressGesture({ x: 10, y: 10 }, { x: 14, y: 13 })).toBeNull();
    expect(pressGesture({ x: 10, y: 10 }, { x: 10, y: 16 })).toEqual({ kind: "drag", x: 10, y: 10, toX: 10, toY: 16 });
  });

  it("sends a press moved and released elsewhere as one drag, not a click", async () => {
    const { img, inputs } = open();
    fireEvent.mouseDown(img, { button: 0, clientX: 100, clientY: 50 });
    fireEvent.mouseMove(img, { buttons: 1, clientX: 200, clientY: 150 });
    fireEvent.mouseUp(img, { button: 0, clientX: 300, clientY: 250 });
    fireEvent.click(img, { button: 0, clientX: 300, clientY: 250, detail: 1 });
    await waitFor(() => expect(inputs()).toEqual([{ kind: "drag", x: 100, y: 50, toX: 300, toY: 250 }]));
    // Released off the picture: the drag ends at its edge.
    fireEvent.mouseDown(img, { button: 0, clientX: 100, clientY: 50 });
    fireEvent.mouseUp(window, { button: 0, clientX: 900, clientY: 250 });
    await waitFor(() => expect(inputs()[1]).toEqual({ kind: "drag", x: 100, y: 50, toX: 640, toY: 250 }));
  });

  it("keeps a short press a click", async () => {
    const { img, inputs } = open();
    fireEvent.mouseDown(img, { button: 0, clientX: 100, clientY: 50 });
    fireEvent.mouseUp(img, { button: 0, clientX: 103, clientY: 52 });
    fireEvent.click(img, { button: 0, clientX: 103, clientY: 52, detail: 1 });
    await waitFor(() => expect(inputs()).toEqual([{ kind: "click", x: 103, y: 52, clicks: 1 }]));
  });
});

describe("the live view's tab strip", () => {
  const two = [
    { title: "Board", url: "http://site.test/board.html", current: false },
    { title: "Help", url: "http://site.test/help.html", current: true },
  ];

  it("is not shown for one tab", () => {
    open([{ title: "Board", url: "http://site.test/board.html", current: true }]);
    expect(screen.queryByRole("tablist")).not.toBeInTheDocument();
  });

  it("lists the tabs with the shown one selected; a click shows a tab, its × closes it", async () => {
    const { view, inputs } = open(two);
    const strip = screen.getByRole("tablist", { name: "Tabs of the page" });
    const tabs = within(strip).getAllByRole("tab");
    expect(tabs.map((t) => t.textContent)).toEqual(["Board", "Help"]);
    expect(tabs[1]).toHaveAttribute("aria-selected", "true");
    expect(tabs[0]).toHaveAttribute("aria-selected", "false");
    // The first tab is the session's page: no ×.
    expect(within(strip).queryByRole("button", { name: "Close tab Board" })).not.toBeInTheDocument();
    await userEvent.click(tabs[0]);
    await waitFor(() => expect(inputs()).toEqual([{ kind: "tab", index: 0 }]));
    await userEvent.click(within(strip).getByRole("button", { name: "Close tab Help" }));
    await waitFor(() => expect(inputs()[1]).toEqual({ kind: "closeTab", index: 1 }));
    // The next frames say what the agent did.
    view.emit("frame", frame(2, [{ ...two[0], current: true }]));
    expect(screen.queryByRole("tablist")).not.toBeInTheDocument();
  });

  it("says why when the tab is gone", async () => {
    const fetched = fakeFetch({
      "POST /api/sessions/rec_1/input": {
        status: 409,
        body: { error: "the tab is not there: there is no tab 2 here any more", code: "tab_gone" },
      },
    });
    renderPage(<LiveView sessionId="rec_1" label="Recording" />);
    FakeEventSource.all.find((e) => e.url === "/api/sessions/rec_1/view")!.emit("frame", frame(1, two));
    await userEvent.click(screen.getByRole("button", { name: "Close tab Help" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("there is no tab 2 here any more");
    expect(fetched.calls.some((c) => c.path === "/api/sessions/rec_1/input")).toBe(true);
  });
});
