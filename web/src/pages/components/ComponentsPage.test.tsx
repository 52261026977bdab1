import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext } from "../../test/render";
import { ComponentsPage } from "./ComponentsPage";
import { NewComponentPage, PublishVersionPage } from "./ComponentEditorPage";
import { header, registry, summaries } from "./componentFixtures";

afterEach(() => vi.unstubAllGlobals());

describe("ComponentsPage", () => {
  it("lists the project's components with their latest version, description, usages and update time", async () => {
    const { calls } = fakeFetch({ "GET /api/components": { body: { components: summaries } } });
    renderPage(<ComponentsPage />, { route: "/components", path: "/components", context: testContext("Test Developer") });
    const link = await screen.findByRole("link", { name: "Header" });
    expect(link).toHaveAttribute("href", "/components/cmp_header");
    const rows = screen.getAllByRole("row");
    expect(rows[0]).toHaveTextContent(/Name\s*Latest version\s*Description\s*Used by\s*Updated/);
    expect(within(rows[1]).getByText("v2")).toBeInTheDocument();
    expect(within(rows[1]).getByText("Checks the shop's header")).toBeInTheDocument();
    expect(within(rows[1]).getByText("2 tests")).toBeInTheDocument();
    expect(within(rows[1]).getByRole("time")).toHaveAttribute("datetime", "2026-11-20T10:00:00Z");
    expect(within(rows[2]).getByText("no test")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "New component" })).toHaveAttribute("href", "/components/new");
    expect(calls[0].headers["x-project-id"]).toBe("prj_1");
  });

  it("offers a Tester no New component", async () => {
    fakeFetch({ "GET /api/components": { body: { components: summaries } } });
    renderPage(<ComponentsPage />, { route: "/components", path: "/components", context: testContext("Tester") });
    await screen.findByRole("link", { name: "Header" });
    expect(screen.queryByRole("link", { name: "New component" })).not.toBeInTheDocument();
    expect(screen.getByText(/your role in this project is Tester/)).toBeInTheDocument();
  });

  it("says what to do when there are none, and shows a failed load", async () => {
    fakeFetch({ "GET /api/components": { body: { components: [] } } });
    const { unmount } = renderPage(<ComponentsPage />, { route: "/components", path: "/components", context: testContext("Admin") });
    expect(await screen.findByText(/No components yet\. Create one here, or select steps of a test/)).toBeInTheDocument();
    unmount();
    fakeFetch({ "GET /api/components": { status: 500, body: { error: "the database is down", code: "internal" } } });
    renderPage(<ComponentsPage />, { route: "/components", path: "/components", context: testContext("Admin") });
    expect(await screen.findByRole("alert")).toHaveTextContent("Components could not be loaded: the database is down");
  });
});

describe("NewComponentPage", () => {
  it("creates a component from scratch with inputs and steps written as JSON", async () => {
    const { calls } = fakeFetch({
      "GET /api/registry": { body: registry },
      "POST /api/components": { status: 201, body: { component: { ...header(), id: "cmp_new" }, test: null } },
    });
    const user = userEvent.setup();
    renderPage(<NewComponentPage />, { route: "/components/new", path: "/components/new", context: testContext("Test Developer") });
    await user.type(await screen.findByLabelText("Name"), "Header");
    await user.type(screen.getByLabelText("Description"), "Checks the header");
    await user.click(screen.getByRole("button", { name: "Add input" }));
    await user.type(screen.getByLabelText("Input 1 name"), "title");
    await user.click(screen.getByRole("tab", { name: "JSON" }));
    const json = screen.getByLabelText("Steps JSON");
    await user.clear(json);
    await user.click(json);
    await user.paste('[{"id": "h1", "type": "assertTitle", "expected": "${title}"}]');
    await user.click(screen.getByRole("button", { name: "Create component" }));
    await waitFor(() => expect(screen.getByTestId("elsewhere")).toBeInTheDocument());
    const post = calls.find((c) => c.method === "POST");
    expect(post?.headers["x-project-id"]).toBe("prj_1");
    expect(post?.body).toEqual({
      name: "Header",
      description: "Checks the header",
      inputs: [{ name: "title" }],
      steps: [{ id: "h1", type: "assertTitle", expected: "${title}" }],
    });
  });

  it("keeps JSON that does not parse, and shows the hub's issues beside the fields", async () => {
    const { calls } = fakeFetch({
      "GET /api/registry": { body: registry },
      "POST /api/components": {
        status: 422,
        body: {
          error: "the component is not valid",
          code: "invalid",
          issues: [
            { path: "name", code: "required", message: "a component needs a name" },
            { path: "steps", code: "required", message: "a component needs at least one step" },
          ],
        },
      },
    });
    const user = userEvent.setup();
    renderPage(<NewComponentPage />, { route: "/components/new", path: "/components/new", context: testContext("Test Developer") });
    await user.click(await screen.findByRole("tab", { name: "JSON" }));
    const json = screen.getByLabelText("Steps JSON");
    await user.clear(json);
    await user.type(json, "[[oops"); // [[ types one [
    await user.click(screen.getByRole("button", { name: "Create component" }));
    expect(screen.getByText(/Not valid JSON/)).toBeInTheDocument();
    expect(screen.getByLabelText("Steps JSON")).toHaveValue("[oops");
    expect(calls.some((c) => c.method === "POST")).toBe(false);
    await user.clear(screen.getByLabelText("Steps JSON"));
    await user.type(screen.getByLabelText("Steps JSON"), "[[]");
    await user.click(screen.getByRole("button", { name: "Create component" }));
    expect(await screen.findByText("a component needs a name")).toBeInTheDocument();
    expect(screen.getByText("a component needs at least one step")).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("The component was not created: the component is not valid");
  });
});

describe("PublishVersionPage", () => {
  it("starts from the latest version and publishes the next one with a note", async () => {
    const { calls } = fakeFetch({
      "GET /api/registry": { body: registry },
      "GET /api/components/cmp_header": { body: header() },
      "POST /api/components/cmp_header/versions": { status: 201, body: { ...header().versions[1], version: 3 } },
    });
    const user = userEvent.setup();
    renderPage(<PublishVersionPage />, {
      route: "/components/cmp_header/publish",
      path: "/components/:id/publish",
      context: testContext("Test Developer"),
    });
    expect(await screen.findByRole("heading", { name: "Publish version v3 of Header" })).toBeInTheDocument();
    expect(screen.getByLabelText("Input 1 name")).toHaveValue("title");
    expect(screen.getByLabelText("Input 1 default")).toHaveValue("Shop");
    expect(screen.getAllByRole("button", { name: /^Step \d+:/ })).toHaveLength(3);
    await user.click(screen.getByRole("button", { name: /^Step 2:/ }));
    const expected = screen.getByLabelText("Expected");
    await user.clear(expected);
    await user.type(expected, "Zwei");
    await user.type(screen.getByLabelText("Note"), "German now");
    await user.click(screen.getByRole("button", { name: "Publish v3" }));
    await waitFor(() => expect(screen.getByTestId("elsewhere")).toBeInTheDocument());
    const post = calls.find((c) => c.method === "POST");
    expect(post?.headers["x-project-id"]).toBeUndefined();
    expect(post?.body).toEqual({
      steps: [
        { id: "h1", type: "assertTitle", expected: "One" },
        { id: "h2", type: "assertTitle", expected: "Zwei" },
        { id: "h4", type: "assertTitle", expected: "Four" },
      ],
      inputs: [{ name: "title", default: "Shop", description: "the page title" }],
      note: "German now",
    });
  });
});
