import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext } from "../../test/render";
import type { Role } from "../../api";
import { ComponentPage } from "./ComponentPage";
import { header, impact, registry } from "./componentFixtures";

afterEach(() => vi.unstubAllGlobals());

function renderDetail(view = "", role: Role = "Test Developer") {
  return renderPage(<ComponentPage />, {
    route: `/components/cmp_header${view ? `?view=${view}` : ""}`,
    path: "/components/:id",
    context: testContext(role),
  });
}

const base = {
  "GET /api/components/cmp_header": { body: header() },
  "GET /api/registry": { body: registry },
};

describe("ComponentPage", () => {
  it("lists the versions with author, time and note, and shows one version's inputs and steps", async () => {
    const { calls } = fakeFetch({ ...base, "GET /api/components/cmp_header/versions/1": { body: header().versions[0] } });
    const user = userEvent.setup();
    renderDetail();
    expect(await screen.findByRole("heading", { name: "Header" })).toBeInTheDocument();
    expect(screen.getByText("Checks the shop's header")).toBeInTheDocument();
    const rows = within(screen.getByRole("table")).getAllByRole("row");
    expect(rows[1]).toHaveTextContent(/v2\s*latest\s*Dan Developer.*French titles/);
    expect(rows[2]).toHaveTextContent(/v1\s*Mia Tester/);
    await user.click(screen.getByRole("button", { name: "View v1" }));
    const viewer = await screen.findByRole("region", { name: "Version v1" });
    expect(await within(viewer).findByText(/Check the page title .*"Three"/)).toBeInTheDocument();
    expect(within(viewer).getByText("No inputs.")).toBeInTheDocument();
    expect(calls.some((c) => c.path === "/api/components/cmp_header/versions/1")).toBe(true);
    expect(screen.getByRole("link", { name: "Publish new version" })).toHaveAttribute("href", "/components/cmp_header/publish");
  });

  it("lists the tests that call it and at which version", async () => {
    fakeFetch(base);
    const user = userEvent.setup();
    renderDetail();
    await user.click(await screen.findByRole("tab", { name: "Usages (2)" }));
    const rows = within(screen.getByRole("table")).getAllByRole("row");
    expect(rows[1]).toHaveTextContent(/Draft caller\s*v1 current\s*v1 1 behind\s*Draft/);
    expect(within(rows[2]).getByRole("link", { name: "Ready caller" })).toHaveAttribute("href", "/tests/tc_ready");
  });

  it("shows the hub's component_in_use refusal when deleting", async () => {
    fakeFetch({
      ...base,
      "DELETE /api/components/cmp_header": {
        status: 409,
        body: {
          error: "component Header is still called by 2 test(s): change their current versions first",
          code: "component_in_use",
        },
      },
    });
    const user = userEvent.setup();
    renderDetail();
    await user.click(await screen.findByRole("button", { name: "Delete" }));
    const dialog = screen.getByRole("dialog", { name: "Delete component Header?" });
    await user.click(within(dialog).getByRole("button", { name: "Delete component" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "component Header is still called by 2 test(s): change their current versions first",
    );
  });

  it("renames it", async () => {
    let name = "Header";
    const { calls } = fakeFetch({
      ...base,
      "GET /api/components/cmp_header": () => ({ body: { ...header(), name } }),
      "PUT /api/components/cmp_header": () => {
        name = "Top bar";
        return { body: { ...header(), name } };
      },
    });
    const user = userEvent.setup();
    renderDetail();
    await user.click(await screen.findByRole("button", { name: "Rename" }));
    const dialog = screen.getByRole("dialog");
    await user.clear(within(dialog).getByLabelText("Name"));
    await user.type(within(dialog).getByLabelText("Name"), "Top bar");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await screen.findByRole("heading", { name: "Top bar" })).toBeInTheDocument();
    expect(calls.find((c) => c.method === "PUT")?.body).toEqual({ name: "Top bar", description: "Checks the shop's header" });
  });

  it("offers a Tester no changes", async () => {
    fakeFetch({ ...base, "GET /api/components/cmp_header/impact": { body: impact() } });
    renderDetail("impact", "Tester");
    await screen.findByText("Draft caller");
    expect(screen.queryByRole("button", { name: /Delete|Rename|Upgrade/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Publish new version" })).not.toBeInTheDocument();
    expect(screen.queryByRole("checkbox")).not.toBeInTheDocument();
  });
});

describe("the impact view", () => {
  it("renders each caller's status, pinned version and step diff with its marks", async () => {
    fakeFetch({ ...base, "GET /api/components/cmp_header/impact": { body: impact() } });
    renderDetail("impact");
    const draft = await screen.findByTestId("caller-tc_draft");
    expect(draft).toHaveTextContent(/Draft caller\s*v1\s*Draft\s*calls v1 → v2/);
    expect(draft).toHaveTextContent("Upgrading adds version v2 to the test.");
    const diff = within(draft).getByRole("list", { name: "Changes for Draft caller" });
    const rows = within(diff).getAllByRole("listitem");
    expect(rows.map((r) => r.getAttribute("data-op"))).toEqual(["same", "change", "remove", "add"]);
    expect(rows.map((r) => r.className)).toEqual(["cmp-diff-same", "cmp-diff-change", "cmp-diff-remove", "cmp-diff-add"]);
    expect(rows[0]).toHaveTextContent(/unchanged:\s*Check the page title .*"One" \(h1\)/);
    // A change shows the old step with - and the new one with +.
    const [oldLine, newLine] = rows[1].querySelectorAll(".cmp-diff-line");
    expect(oldLine).toHaveTextContent(/^-.*"Two" \(h2\)/);
    expect(oldLine.querySelector("del")).not.toBeNull();
    expect(newLine).toHaveTextContent(/^\+.*"Deux" \(h2\)/);
    expect(newLine.querySelector("ins")).not.toBeNull();
    expect(rows[2]).toHaveTextContent(/removed:\s*-.*"Three" \(h3\)/);
    expect(rows[3]).toHaveTextContent(/added:\s*\+.*"Four" \(h4\)/);
    expect(within(draft).getByText("3 of 4 rows change.")).toBeInTheDocument();

    const ready = screen.getByTestId("caller-tc_ready");
    expect(ready).toHaveTextContent("It may not be upgraded: the test is Ready: only a Test Manager or Admin may upgrade it.");
    expect(within(ready).getByRole("checkbox", { name: "Select Ready caller" })).toBeDisabled();
    const done = screen.getByTestId("caller-tc_done");
    expect(done).toHaveTextContent("It already calls the latest version: upgrading changes nothing.");
    expect(within(done).getByRole("checkbox")).toBeDisabled();
    expect(within(done).queryByRole("list")).not.toBeInTheDocument();
  });

  it("upgrades the selected callers and shows each test's result", async () => {
    let upgraded = false;
    const { calls } = fakeFetch({
      ...base,
      "GET /api/components/cmp_header/impact": () => {
        const i = impact();
        if (upgraded) i.callers[0] = { ...i.callers[0], testVersion: 2, pinnedVersion: 2, addsVersion: false };
        return { body: i };
      },
      "POST /api/components/cmp_header/upgrade": () => {
        upgraded = true;
        return {
          body: {
            results: [
              { testId: "tc_draft", status: "upgraded", version: 2 },
              { testId: "tc_ready", status: "refused", error: "the test is Ready: only a Test Manager or Admin may upgrade it" },
              { testId: "tc_gone", status: "not_found", error: "no such test" },
              { testId: "tc_done", status: "unchanged" },
            ],
          },
        };
      },
    });
    const user = userEvent.setup();
    renderDetail("impact");
    const upgrade = await screen.findByRole("button", { name: "Upgrade selected (0)" });
    expect(upgrade).toBeDisabled();
    await user.click(screen.getByRole("checkbox", { name: "Select Draft caller" }));
    await user.click(screen.getByRole("button", { name: "Upgrade selected (1)" }));
    const results = await screen.findByRole("region", { name: "1 of 4 upgraded to v2" });
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ testIds: ["tc_draft"] });
    expect(within(results).getByTestId("result-tc_draft")).toHaveTextContent("Upgraded: Draft caller is now at version v2");
    expect(within(results).getByRole("link", { name: "version v2" })).toHaveAttribute("href", "/tests/tc_draft/versions");
    expect(within(results).getByTestId("result-tc_ready")).toHaveTextContent(
      "Refused: tc_ready — the test is Ready: only a Test Manager or Admin may upgrade it",
    );
    expect(within(results).getByTestId("result-tc_gone")).toHaveTextContent("Not found: tc_gone — no such test");
    expect(within(results).getByTestId("result-tc_done")).toHaveTextContent("Unchanged: tc_done already called the latest version");
    // The impact is worked out again: the upgraded caller now calls the latest version.
    await waitFor(() => expect(screen.getByTestId("caller-tc_draft")).toHaveTextContent("It already calls the latest version"));
    expect(screen.getByRole("button", { name: "Upgrade selected (0)" })).toBeDisabled();
  });

  it("selects every caller that can be upgraded, and shows a failed upgrade", async () => {
    const { calls } = fakeFetch({
      ...base,
      "GET /api/components/cmp_header/impact": { body: impact() },
      "POST /api/components/cmp_header/upgrade": { status: 403, body: { error: "you may not edit shared tests", code: "forbidden" } },
    });
    const user = userEvent.setup();
    renderDetail("impact");
    await user.click(await screen.findByRole("button", { name: "Select all that can be upgraded" }));
    await user.click(screen.getByRole("button", { name: "Upgrade selected (1)" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The upgrade failed: Not allowed: you may not edit shared tests");
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ testIds: ["tc_draft"] });
  });
});
