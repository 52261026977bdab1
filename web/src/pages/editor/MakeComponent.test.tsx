import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext, type FakeCall } from "../../test/render";
import type { Registry } from "../../api";
import type { EditorDocument } from "../../api/editorApi";
import { EditorPage } from "./EditorPage";
import { baseDoc, registry, testJSON } from "./editorFixtures";

afterEach(() => vi.unstubAllGlobals());

const withCall: Registry = {
  ...registry,
  stepTypes: [
    ...registry.stepTypes,
    {
      type: "callComponent",
      description: "Run the steps of a reusable component.",
      params: [
        { name: "component", type: "string", required: true, description: "the component's id, cmp_..." },
        { name: "version", type: "number", required: false, description: "the component version to run; the latest when absent", min: 1 },
        { name: "inputs", type: "map", required: false, description: "values for the component's variables, by name" },
        { name: "description", type: "string", required: false, description: "what the step is for" },
      ],
    },
  ],
};

function fourSteps(): EditorDocument {
  return {
    ...baseDoc(),
    steps: [
      { id: "s1", type: "navigate", url: "${baseUrl}/login" },
      { id: "s2", type: "fill", target: { locators: [{ kind: "label", value: "Email" }] }, value: "${user}" },
      { id: "s3", type: "fill", target: { locators: [{ kind: "label", value: "Password" }] }, value: "secret" },
      { id: "s4", type: "click", target: { locators: [{ kind: "role", value: "button", name: "Sign in" }] } },
    ],
  };
}

const afterMake: EditorDocument = {
  ...baseDoc(),
  steps: [
    { id: "s1", type: "navigate", url: "${baseUrl}/login" },
    { id: "s2", type: "callComponent", component: "cmp_login", version: 1 },
  ],
};

const created = {
  component: {
    id: "cmp_login",
    projectId: "prj_1",
    name: "Sign in form",
    description: "",
    latestVersion: 1,
    inputs: [],
    createdBy: { id: "usr_me", name: "Mia Tester" },
    createdAt: "2026-11-20T10:00:00Z",
    updatedAt: "2026-11-20T10:00:00Z",
    versions: [],
    usages: [],
  },
  test: { id: "tc_1", version: 4 },
};

/** A test that answers its document before the component is made, then after. */
function routes(made: () => boolean, before = fourSteps()) {
  return {
    "GET /api/tests/tc_1": () =>
      made()
        ? { body: testJSON({ version: 4 }, afterMake), headers: { ETag: '"v4-r1"' } }
        : { body: testJSON({}, before), headers: { ETag: '"v3-r1"' } },
    "GET /api/registry": { body: withCall },
  };
}

function renderEditor(role: Parameters<typeof testContext>[0] = "Test Developer") {
  return renderPage(<EditorPage />, { route: "/tests/tc_1", path: "/tests/:id", context: testContext(role) });
}

async function selectSteps(...ns: number[]) {
  for (const n of ns) await userEvent.click(await screen.findByRole("checkbox", { name: `Select step ${n}` }));
}

function post(calls: FakeCall[]) {
  return calls.find((c) => c.method === "POST" && c.path === "/api/components");
}

describe("Make component in the editor", () => {
  it("makes a component from three contiguous steps and reloads the test with the call in their place", async () => {
    let made = false;
    const { calls } = fakeFetch({
      ...routes(() => made),
      "POST /api/components": () => {
        made = true;
        return { status: 201, body: created };
      },
      "GET /api/components": () => ({
        body: {
          components: made ? [{ ...created.component, usages: 1, inputs: [{ name: "user", default: "amy", description: "" }] }] : [],
        },
      }),
    });
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await selectSteps(2, 3, 4);
    await userEvent.click(screen.getByRole("button", { name: "Make component" }));
    const dialog = screen.getByRole("dialog", { name: "Make component" });
    expect(dialog).toHaveTextContent("The 3 selected steps (steps s2–s4) become version 1 of a new component");
    await userEvent.type(within(dialog).getByLabelText("Name"), "Sign in form");
    await userEvent.click(within(dialog).getByRole("button", { name: "Add input" }));
    await userEvent.type(within(dialog).getByLabelText("Input 1 name"), "user");
    await userEvent.click(within(dialog).getByLabelText("Input 1 required"));
    await userEvent.type(within(dialog).getByLabelText("Input 1 default"), "amy");
    await userEvent.click(within(dialog).getByRole("button", { name: "Make component" }));

    expect(await screen.findByText(/The steps are now component Sign in form v1; this test calls it in version v4/)).toBeInTheDocument();
    expect(post(calls)?.body).toEqual({
      name: "Sign in form",
      inputs: [{ name: "user", default: "amy" }],
      testId: "tc_1",
      stepIds: ["s2", "s3", "s4"],
    });
    expect(post(calls)?.headers["x-project-id"]).toBe("prj_1");
    // No save was needed: nothing was edited.
    expect(calls.some((c) => c.method === "PUT")).toBe(false);
    // The reloaded test has one call step instead of the three.
    // The call's line names the component.
    expect(await screen.findByRole("button", { name: "Step 2: Run component Sign in form v1" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Step 3:/ })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Open component Sign in form" })).toHaveAttribute("href", "/components/cmp_login");
  });

  it("saves unsaved edits first, then makes the component from the saved test", async () => {
    let made = false;
    const edited = fourSteps();
    edited.name = "Sign in (edited)";
    const { calls } = fakeFetch({
      ...routes(() => made),
      "PUT /api/tests/tc_1": (c) => ({ body: testJSON({}, c.body as EditorDocument), headers: { ETag: '"v3-r2"' } }),
      "POST /api/components": () => {
        made = true;
        return { status: 201, body: created };
      },
    });
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    const name = screen.getByLabelText("Name");
    await userEvent.clear(name);
    await userEvent.type(name, "Sign in (edited)");
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
    await selectSteps(2, 3);
    await userEvent.click(screen.getByRole("button", { name: "Make component" }));
    const dialog = screen.getByRole("dialog", { name: "Make component" });
    expect(dialog).toHaveTextContent("This test has unsaved changes. They are saved first");
    await userEvent.type(within(dialog).getByLabelText("Name"), "Sign in form");
    await userEvent.click(within(dialog).getByRole("button", { name: "Save and make component" }));
    await screen.findByText(/The steps are now component Sign in form/);
    const put = calls.findIndex((c) => c.method === "PUT");
    const made_ = calls.findIndex((c) => c.method === "POST" && c.path === "/api/components");
    expect(put).toBeGreaterThanOrEqual(0);
    expect(put).toBeLessThan(made_);
    expect((calls[put].body as EditorDocument).name).toBe("Sign in (edited)");
    expect(calls[put].headers["If-Match"]).toBe('"v3-r1"');
  });

  it("makes nothing when the save fails, and keeps the edits", async () => {
    const { calls } = fakeFetch({
      ...routes(() => false),
      "PUT /api/tests/tc_1": {
        status: 422,
        body: {
          error: "the document is not valid",
          code: "invalid",
          issues: [{ path: "steps[2].value", code: "required", message: "a fill needs a value" }],
        },
      },
    });
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    const name = screen.getByLabelText("Name");
    await userEvent.type(name, " 2");
    await selectSteps(2, 3);
    await userEvent.click(screen.getByRole("button", { name: "Make component" }));
    const dialog = screen.getByRole("dialog", { name: "Make component" });
    await userEvent.type(within(dialog).getByLabelText("Name"), "Sign in form");
    await userEvent.click(within(dialog).getByRole("button", { name: "Save and make component" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(post(calls)).toBeUndefined();
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
    expect(screen.getByLabelText("Name")).toHaveValue("Sign in 2");
    expect(screen.getByText("a fill needs a value")).toBeInTheDocument();
  });

  it("refuses steps that do not follow each other, and shows the hub's refusal", async () => {
    fakeFetch({
      ...routes(() => false),
      "POST /api/components": { status: 409, body: { error: "a component with this name exists in the project", code: "name_taken" } },
    });
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await selectSteps(1, 3);
    await userEvent.click(screen.getByRole("button", { name: "Make component" }));
    let dialog = screen.getByRole("dialog", { name: "Make component" });
    expect(within(dialog).getByRole("alert")).toHaveTextContent("Select steps that follow each other");
    expect(within(dialog).getByRole("button", { name: "Make component" })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));

    await selectSteps(3, 2); // unselect 3, select 2: steps 1–2
    await userEvent.click(screen.getByRole("button", { name: "Make component" }));
    dialog = screen.getByRole("dialog", { name: "Make component" });
    await userEvent.type(within(dialog).getByLabelText("Name"), "Taken");
    await userEvent.click(within(dialog).getByRole("button", { name: "Make component" }));
    expect(await within(dialog).findByText(/a component with this name exists in the project/)).toBeInTheDocument();
  });

  it("is not offered to a Tester", async () => {
    fakeFetch(routes(() => false));
    renderEditor("Tester");
    await screen.findByRole("heading", { name: "Sign in" });
    await selectSteps(2);
    expect(screen.queryByRole("button", { name: "Make component" })).not.toBeInTheDocument();
  });
});

describe("the callComponent step form", () => {
  const list = [
    {
      id: "cmp_login",
      name: "Sign in form",
      description: "",
      latestVersion: 2,
      inputs: [
        { name: "user", default: "amy", description: "who signs in" },
        { name: "password", default: null, description: "" },
      ],
      usages: 1,
      updatedAt: "2026-11-20T10:00:00Z",
    },
    { id: "cmp_cart", name: "Empty cart", description: "", latestVersion: 1, inputs: [], usages: 0, updatedAt: "2026-11-20T10:00:00Z" },
  ];
  const v = (n: number, inputs: unknown[]) => ({ version: n, author: null, createdAt: "", note: "", inputs, steps: [] });

  it("picks a component by name, its latest version by default, and shows the version's inputs with defaults as placeholders", async () => {
    const { calls } = fakeFetch({
      ...routes(() => false, baseDoc()),
      "GET /api/components": { body: { components: list } },
      "GET /api/components/cmp_login/versions/2": { body: v(2, list[0].inputs) },
      "GET /api/components/cmp_login/versions/1": { body: v(1, [{ name: "user", default: "bob", description: "" }]) },
      "PUT /api/tests/tc_1": (c) => ({ body: testJSON({}, c.body as EditorDocument), headers: { ETag: '"v3-r2"' } }),
    });
    renderEditor();
    await screen.findByRole("heading", { name: "Sign in" });
    await userEvent.selectOptions(screen.getByLabelText("Step type"), "callComponent");
    await userEvent.click(screen.getByRole("button", { name: "Add step" }));
    const step = screen.getByRole("group", { name: "Step 3 callComponent" });
    const pick = within(step).getByLabelText("Component");
    await waitFor(() => expect(within(pick).getByRole("option", { name: "Sign in form (v2)" })).toBeInTheDocument());
    await userEvent.selectOptions(pick, "cmp_login");
    expect(within(step).getByLabelText("Component version")).toHaveValue("");
    expect(within(step).getByRole("option", { name: "Latest (v2)" })).toBeInTheDocument();
    const user = await within(step).findByLabelText("user");
    expect(user).toHaveAttribute("placeholder", "amy");
    expect(user).toHaveAccessibleDescription(/Default: "amy". who signs in/);
    const password = within(step).getByLabelText("password");
    expect(password).toBeRequired();
    expect(password).toHaveAccessibleDescription(/Required/);
    await userEvent.type(password, "pw");
    // An older version declares other inputs.
    await userEvent.selectOptions(within(step).getByLabelText("Component version"), "1");
    expect(await within(step).findByLabelText("user")).toHaveAttribute("placeholder", "bob");
    expect(within(step).getByText(/v1 has no input/)).toBeInTheDocument();
    await userEvent.click(within(step).getByRole("button", { name: "Remove password" }));
    await userEvent.selectOptions(within(step).getByLabelText("Component version"), "");
    await userEvent.type(await within(step).findByLabelText("password"), "pw");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await screen.findByText("Saved.");
    const put = calls.find((c) => c.method === "PUT");
    expect((put?.body as EditorDocument).steps[2]).toEqual({
      id: "s3",
      type: "callComponent",
      component: "cmp_login",
      inputs: { password: "pw" },
    });
  });
});
