import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext } from "../../test/render";
import { DataSetPage } from "./DataSetPage";
import { TestDataPage } from "./TestDataPage";

afterEach(() => vi.unstubAllGlobals());

const users = {
  id: "tds_users00000000000000",
  projectId: "prj_1",
  name: "Users",
  columns: ["email", "password"],
  rows: [{ email: "old@example.com", password: "old" }],
  protected: false,
  createdAt: "2026-11-01T10:00:00Z",
  updatedAt: "2026-11-01T10:00:00Z",
};

const route = (id: string) => ({ route: `/test-data/${id}`, path: "/test-data/:id", context: testContext("Test Developer") });

describe("DataSetPage", () => {
  it("builds a set in the grid, shows the hub's issues where they belong and saves the table", async () => {
    let n = 0;
    const { calls } = fakeFetch({
      "POST /api/test-data": (call) =>
        ++n === 1
          ? {
              status: 422,
              body: {
                error: "the test data set is not valid",
                code: "invalid",
                issues: [{ path: "rows[1].email", code: "format", message: "a value may not contain a NUL character" }],
              },
            }
          : { status: 201, body: { ...users, id: "tds_new0000000000000000", ...(call.body as object) } },
    });
    const user = userEvent.setup();
    renderPage(<DataSetPage />, route("new"));
    expect(screen.getByRole("heading", { name: "New data set" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
    await user.type(screen.getByLabelText("Name"), "Sign-ins");
    await user.click(screen.getByRole("button", { name: "Add column" }));
    const col1 = screen.getByLabelText("Column 1 name");
    await user.clear(col1);
    await user.type(col1, "email");
    await user.click(screen.getByRole("button", { name: "Add column" }));
    await user.clear(screen.getByLabelText("Column 2 name"));
    await user.type(screen.getByLabelText("Column 2 name"), "2nd");
    expect(screen.getByText(/letters, digits and _ only/)).toBeInTheDocument();
    await user.clear(screen.getByLabelText("Column 2 name"));
    await user.type(screen.getByLabelText("Column 2 name"), "password");
    expect(screen.queryByText(/letters, digits and _ only/)).not.toBeInTheDocument();
    for (let i = 0; i < 3; i++) await user.click(screen.getByRole("button", { name: "Add row" }));
    await user.type(screen.getByLabelText("Row 1 email"), "ann@example.com");
    await user.type(screen.getByLabelText("Row 1 password"), "pw-ann");
    await user.type(screen.getByLabelText("Row 2 email"), "bob@example.com");
    await user.click(screen.getByRole("button", { name: "Remove row 3" }));
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("a value may not contain a NUL character")).toHaveClass("field-error");
    expect(within(screen.getByTestId("grid-row-2")).getByText("a value may not contain a NUL character")).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("the test data set is not valid");

    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.getByRole("heading", { name: "Sign-ins" })).toBeInTheDocument());
    const posts = calls.filter((c) => c.method === "POST");
    expect(posts[1].body).toEqual({
      name: "Sign-ins",
      protected: false,
      columns: ["email", "password"],
      rows: [
        { email: "ann@example.com", password: "pw-ann" },
        { email: "bob@example.com", password: "" },
      ],
    });
    expect(posts[1].headers["x-project-id"]).toBe("prj_1");
    expect(screen.queryByText("Unsaved changes")).not.toBeInTheDocument();
  }, 20_000);

  it("puts a CSV file in the grid for review, then saves it over the set", async () => {
    const { calls } = fakeFetch({
      "GET /api/test-data/tds_users00000000000000": { body: users },
      "POST /api/test-data": (call) => ({ body: { ...users, ...(call.body as object) } }),
    });
    const user = userEvent.setup();
    renderPage(<DataSetPage />, route(users.id));
    expect(await screen.findByLabelText("Row 1 email")).toHaveValue("old@example.com");
    expect(screen.getByRole("link", { name: "Export CSV" })).toHaveAttribute("href", `/api/test-data/${users.id}?format=csv`);
    const file = new File(['email,password,name\r\nann@example.com,"p,w",Ann\r\nbob@example.com,pw2\r\n'], "people.csv", {
      type: "text/csv",
    });
    await user.upload(screen.getByTestId("import-csv"), file);
    const confirm = await screen.findByRole("dialog", { name: "Replace the grid with people.csv?" });
    await user.click(within(confirm).getByRole("button", { name: "Replace" }));
    expect(screen.getByText(/Imported 2 rows and 3 columns from people.csv/)).toBeInTheDocument();
    expect(screen.getByText(/line 3 has 2 fields, the header line has 3/)).toBeInTheDocument();
    expect(screen.getByLabelText("Row 1 password")).toHaveValue("p,w");
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({
      id: users.id,
      name: "Users",
      protected: false,
      columns: ["email", "password", "name"],
      rows: [
        { email: "ann@example.com", password: "p,w", name: "Ann" },
        { email: "bob@example.com", password: "pw2", name: "" },
      ],
    });
  });

  it("says why a set too large was refused and keeps the edits", async () => {
    fakeFetch({
      "GET /api/test-data/tds_users00000000000000": { body: users },
      "POST /api/test-data": {
        status: 413,
        body: { error: "request body is larger than 5 MiB: a data set or pool holds at most 5 MiB", code: "too_large" },
      },
    });
    const user = userEvent.setup();
    renderPage(<DataSetPage />, route(users.id));
    await user.type(await screen.findByLabelText("Row 1 email"), "x");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The data set was not saved: request body is larger than 5 MiB");
    expect(screen.getByLabelText("Row 1 email")).toHaveValue("old@example.comx");
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
  });

  it("is read-only for a Tester", async () => {
    fakeFetch({ "GET /api/test-data/tds_users00000000000000": { body: users } });
    renderPage(<DataSetPage />, { ...route(users.id), context: testContext("Tester") });
    expect(await screen.findByText("old@example.com")).toBeInTheDocument();
    expect(screen.queryByRole("textbox")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Save" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Delete" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Export CSV" })).toBeInTheDocument();
  });
});

describe("TestDataPage", () => {
  it("imports a CSV file as a new set (text/csv) and shows the hub's issues", async () => {
    let n = 0;
    const { calls } = fakeFetch({
      "GET /api/test-data": { body: { dataSets: [{ ...users, rowCount: 1 }] } },
      "POST /api/test-data": () =>
        ++n === 1
          ? {
              status: 422,
              body: {
                error: "the test data set is not valid",
                code: "invalid",
                issues: [{ path: "rows[0]", code: "ragged", message: "line 2 has 1 fields, the header line has 2" }],
              },
            }
          : { status: 201, body: { ...users, id: "tds_imported000000000000" } },
    });
    const user = userEvent.setup();
    renderPage(<TestDataPage />, { route: "/test-data", path: "/test-data", context: testContext("Test Developer") });
    const row = (await screen.findByRole("link", { name: "Users" })).closest("tr")!;
    expect(within(row).getByText("email, password")).toBeInTheDocument();
    await user.upload(screen.getByTestId("import-csv-new"), new File(["a,b\n1\n"], "Logins.csv", { type: "text/csv" }));
    expect(await screen.findByText(/Logins.csv was not imported/)).toBeInTheDocument();
    expect(screen.getByText("line 2 has 1 fields, the header line has 2")).toBeInTheDocument();
    const post = calls.find((c) => c.method === "POST");
    expect(post?.path).toBe("/api/test-data?name=Logins");
    expect(post?.headers["Content-Type"]).toBe("text/csv");
    expect(post?.body).toBe("a,b\n1\n");
    await user.upload(screen.getByTestId("import-csv-new"), new File(["a,b\n1,2\n"], "Logins.csv", { type: "text/csv" }));
    expect(await screen.findByTestId("elsewhere")).toBeInTheDocument();
  });

  it("deletes a set after asking", async () => {
    const { calls } = fakeFetch({
      "GET /api/test-data": { body: { dataSets: [{ ...users, rowCount: 1 }] } },
      "DELETE /api/test-data/tds_users00000000000000": { status: 204 },
    });
    const user = userEvent.setup();
    renderPage(<TestDataPage />, { route: "/test-data", path: "/test-data", context: testContext("Test Developer") });
    await user.click(await screen.findByRole("button", { name: "Delete Users" }));
    const dialog = screen.getByRole("dialog", { name: "Delete data set Users?" });
    await user.click(within(dialog).getByRole("button", { name: "Delete data set" }));
    await waitFor(() => expect(calls.some((c) => c.method === "DELETE")).toBe(true));
  });
});
