import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import { VersionsPage } from "./VersionsPage";
import { CAN_ALL, makeTest, makeVersion } from "./fixtures";
import { registry } from "../editor/editorFixtures";

afterEach(() => vi.unstubAllGlobals());

const VERSIONS = {
  body: {
    versions: [
      makeVersion(3, { current: true, note: "restored from version 1" }),
      makeVersion(2, { status: "Ready", author: null }),
      makeVersion(1),
    ],
  },
};

function renderVersions(route = "/tests/tc_1/versions") {
  return renderPage(<VersionsPage />, { route, path: "/tests/:id/versions" });
}

describe("VersionsPage", () => {
  it("lists every version and restores one after confirmation", async () => {
    let restored = false;
    const { calls } = fakeFetch({
      "GET /api/tests/tc_1": () => ({ body: makeTest({ version: restored ? 4 : 3 }) }),
      "GET /api/tests/tc_1/versions": VERSIONS,
      "POST /api/tests/tc_1/versions/1/restore": () => {
        restored = true;
        return { status: 201, body: makeTest({ version: 4 }) };
      },
    });
    renderVersions();
    expect(await screen.findByRole("heading", { name: "Version history of Sign in" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to the test" })).toHaveAttribute("href", "/tests/tc_1");
    const rows = (await screen.findAllByRole("row")).slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent("v3 current");
    expect(rows[0]).toHaveTextContent("restored from version 1");
    expect(rows[1]).toHaveTextContent("Ready");
    expect(rows[1]).toHaveTextContent("(account removed)");
    // The current version is not offered for restore.
    expect(screen.queryByRole("button", { name: "Restore version 3" })).toBeNull();
    expect(screen.getByRole("button", { name: "Restore version 2" })).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Restore version 1" }));
    const dialog = screen.getByRole("dialog", { name: "Restore version 1?" });
    expect(dialog).toHaveTextContent("A new version 4 is added with the content of version 1 as a Draft; history is kept.");
    await userEvent.click(within(dialog).getByRole("button", { name: "Restore" }));
    expect(await screen.findByText("Restored version 1 as version 4")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "POST").map((c) => c.path)).toEqual(["/api/tests/tc_1/versions/1/restore"]);
    expect(screen.queryByRole("dialog")).toBeNull();
    // The history is read again after the restore.
    await waitFor(() => expect(calls.filter((c) => c.path === "/api/tests/tc_1/versions")).toHaveLength(2));
  });

  it("does not offer Restore without can.restore", async () => {
    fakeFetch({
      "GET /api/tests/tc_1": { body: makeTest({ can: { ...CAN_ALL, restore: false } }) },
      "GET /api/tests/tc_1/versions": VERSIONS,
    });
    renderVersions();
    await screen.findByRole("button", { name: "View version 1" });
    expect(screen.queryByRole("button", { name: /^Restore/ })).toBeNull();
  });

  it("shows a version's steps and JSON", async () => {
    fakeFetch({
      "GET /api/tests/tc_1": { body: makeTest() },
      "GET /api/tests/tc_1/versions": VERSIONS,
      "GET /api/tests/tc_1/versions/2": {
        body: makeVersion(2, {
          status: "Ready",
          document: {
            dsl: 2,
            name: "Sign in",
            steps: [
              { id: "s1", type: "navigate", url: "${baseUrl}/login" },
              { id: "s2", type: "fill", value: "alice", target: { locators: [{ kind: "label", value: "Email" }] } },
              {
                id: "s3",
                type: "click",
                target: {
                  locators: [
                    { kind: "role", value: "button", name: "Sign in" },
                    { kind: "css", value: "#go" },
                  ],
                },
              },
            ],
          },
        }),
      },
    });
    renderVersions();
    await userEvent.click(await screen.findByRole("button", { name: "View version 2" }));
    const panel = await screen.findByRole("region", { name: "Version 2" });
    const steps = await within(panel).findAllByRole("listitem");
    expect(steps).toHaveLength(3);
    expect(steps[0]).toHaveTextContent("navigate");
    expect(steps[0]).toHaveTextContent("${baseUrl}/login");
    expect(steps[1]).toHaveTextContent("label=Email");
    expect(steps[1]).toHaveTextContent("alice");
    expect(steps[2]).toHaveTextContent('role=button name="Sign in" (+1 fallback)');
    expect(within(panel).getByLabelText("Document JSON").textContent).toContain('"type": "navigate"');
  });

  it("shows a version's blocks as nested lists with their lines", async () => {
    const log = (id: string, message: string) => ({ id, type: "log", message });
    const css = (value: string) => ({ locators: [{ kind: "css", value }] });
    fakeFetch({
      "GET /api/tests/tc_1": { body: makeTest() },
      "GET /api/tests/tc_1/versions": VERSIONS,
      "GET /api/tests/tc_1/versions/2": {
        body: makeVersion(2, {
          document: {
            dsl: 2,
            name: "Blocks",
            steps: [
              {
                id: "b1",
                type: "if",
                condition: { kind: "visible", target: css("#accept") },
                steps: [{ id: "c", type: "click", target: css("#accept") }],
                else: [log("n", "no banner")],
              },
              { id: "b2", type: "repeat", times: 5, steps: [log("x", "again")] },
            ],
          },
        }),
      },
    });
    renderVersions();
    await userEvent.click(await screen.findByRole("button", { name: "View version 2" }));
    const panel = await screen.findByRole("region", { name: "Version 2" });
    expect(await within(panel).findByRole("heading", { name: "Steps (5)" })).toBeInTheDocument();
    const then = within(panel).getByRole("list", { name: /^Steps of If/ });
    expect(within(then).getByRole("listitem")).toHaveTextContent("css=#accept");
    expect(within(panel).getByRole("list", { name: /^Else of If/ })).toHaveTextContent("no banner");
    expect(within(panel).getByRole("list", { name: "Steps of Repeat 5 times" })).toHaveTextContent("again");
  });

  it("compares two versions step by step, with every note shown", async () => {
    const nav = (id: string, url: string) => ({ id, type: "navigate", url });
    const v1 = { dsl: 2, name: "Sign in", steps: [nav("s1", "${baseUrl}/login"), nav("s2", "${baseUrl}/old")] };
    const v3 = { dsl: 2, name: "Sign in", steps: [nav("s1", "${baseUrl}/signin"), { id: "s3", type: "wait", ms: 500 }] };
    const { calls } = fakeFetch({
      "GET /api/tests/tc_1": { body: makeTest({ version: 3 }) },
      "GET /api/tests/tc_1/versions": {
        body: {
          versions: [
            makeVersion(3, { current: true, note: "fix the login step" }),
            makeVersion(2),
            makeVersion(1, { status: "Ready", note: "reviewed by Ann" }),
          ],
        },
      },
      "GET /api/tests/tc_1/versions/1": { body: { ...makeVersion(1), document: v1 } },
      "GET /api/tests/tc_1/versions/3": { body: { ...makeVersion(3), document: v3 } },
      "GET /api/registry": { body: registry },
    });
    renderVersions();
    const rows = (await screen.findAllByRole("row")).slice(1);
    expect(rows[0]).toHaveTextContent("fix the login step");
    expect(rows[2]).toHaveTextContent("reviewed by Ann");
    expect(screen.getByLabelText("Older version")).toHaveValue("2");
    expect(screen.getByLabelText("Newer version")).toHaveValue("3");
    await userEvent.selectOptions(screen.getByLabelText("Older version"), "1");
    await userEvent.click(screen.getByRole("button", { name: "Show changes" }));
    const panel = await screen.findByRole("region", { name: "Changes from v1 to v3" });
    const changes = await within(panel).findByRole("list", { name: "Changed steps" });
    const items = within(changes)
      .getAllByRole("listitem")
      .filter((li) => li.parentElement === changes);
    expect(items.map((li) => li.textContent)).toEqual([
      'Changed step 1 → 1 s1: Open ${baseUrl}/signinURL: "${baseUrl}/login" → "${baseUrl}/signin"',
      "Added step 2 s3: Wait 500 ms",
      "Removed was step 2 s2: Open ${baseUrl}/old",
    ]);
    expect(calls.some((c) => c.path === "/api/tests/tc_1/versions/2")).toBe(false);
  });
});
