import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import { EditorPage } from "./EditorPage";
import { scriptFileName } from "./ExportModal";
import { testJSON, testRoutes } from "./editorFixtures";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("Export as Playwright", () => {
  it("downloads the script as <test-name>.spec.ts", async () => {
    const script = "import { test, expect } from '@playwright/test';\n";
    fakeFetch({
      ...testRoutes(testJSON({ name: "Sign in: happy path" })),
      "POST /api/script": { body: { language: "typescript", script } },
    });
    const blobs: Blob[] = [];
    URL.createObjectURL = vi.fn((b: Blob) => {
      blobs.push(b);
      return "blob:script";
    });
    URL.revokeObjectURL = vi.fn();
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.getAttribute("href") ?? "", download: this.download });
    });
    renderPage(<EditorPage />, { route: "/tests/tc_1", path: "/tests/:id" });
    await userEvent.click(await screen.findByRole("button", { name: "Export as Playwright" }));
    const dialog = screen.getByRole("dialog", { name: "Playwright script" });
    const button = within(dialog).getByRole("button", { name: "Download" });
    await waitFor(() => expect(button).toBeEnabled());
    expect(button).toHaveAttribute("title", "Save as Sign in- happy path.spec.ts");
    await userEvent.click(button);
    expect(clicked).toEqual([{ href: "blob:script", download: "Sign in- happy path.spec.ts" }]);
    expect(await blobs[0].text()).toBe(script);
  });

  it("renders the script for a device when one is chosen (issue 28)", async () => {
    const calls = fakeFetch({
      ...testRoutes(testJSON({ name: "On a phone" })),
      "POST /api/script": (call) => {
        const device = (call.body as { device?: string }).device;
        return { body: { language: "typescript", script: device ? `test.use({ ...devices['${device}'] });` : "plain" } };
      },
    });
    renderPage(<EditorPage />, { route: "/tests/tc_1", path: "/tests/:id" });
    await userEvent.click(await screen.findByRole("button", { name: "Export as Playwright" }));
    const dialog = screen.getByRole("dialog", { name: "Playwright script" });
    expect(await within(dialog).findByText("plain")).toBeInTheDocument();
    await userEvent.selectOptions(within(dialog).getByLabelText("Device"), "Pixel 7");
    expect(await within(dialog).findByText("test.use({ ...devices['Pixel 7'] });")).toBeInTheDocument();
    expect(calls.calls.filter((c) => c.path === "/api/script").map((c) => c.body)).toEqual([
      { testId: "tc_1" },
      { testId: "tc_1", device: "Pixel 7" },
    ]);
  });

  it("makes a file name any system accepts", () => {
    expect(scriptFileName("Checkout")).toBe("Checkout.spec.ts");
    expect(scriptFileName('a/b\\c:d*e?"f"<g>|h')).toBe("a-b-c-d-e-f-g-h.spec.ts");
    expect(scriptFileName("  ...  ")).toBe("test.spec.ts");
    expect(scriptFileName("x".repeat(300))).toBe(`${"x".repeat(120)}.spec.ts`);
  });
});
