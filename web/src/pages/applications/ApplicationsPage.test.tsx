import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext } from "../../test/render";
import { ApplicationsPage } from "./ApplicationsPage";

afterEach(() => vi.unstubAllGlobals());

const shop = {
  id: "app_shop00000000000000",
  projectId: "prj_1",
  name: "Shop",
  baseUrl: "https://shop.example.com",
  description: "",
  createdAt: "",
  updatedAt: "",
};
const staging = {
  id: "env_staging000000000000",
  projectId: "prj_1",
  name: "Staging",
  variables: {},
  secrets: [],
  applicationId: shop.id,
  createdAt: "",
  updatedAt: "",
};

describe("ApplicationsPage", () => {
  it("creates an application and shows the hub's field issues", async () => {
    let n = 0;
    const { calls } = fakeFetch({
      "GET /api/applications": { body: { applications: [shop] } },
      "GET /api/environments": { body: { environments: [staging] } },
      "POST /api/applications": () =>
        ++n === 1
          ? {
              status: 422,
              body: {
                error: "the application is not valid",
                code: "invalid",
                issues: [
                  {
                    path: "baseUrl",
                    code: "format",
                    message: "baseUrl must not contain a user name or password: keep credentials in secrets",
                  },
                ],
              },
            }
          : { status: 201, body: { ...shop, id: "app_admin0000000000000", name: "Back office" } },
    });
    const user = userEvent.setup();
    renderPage(<ApplicationsPage />, { route: "/applications", path: "/applications", context: testContext("Test Manager") });
    const row = (await screen.findByText("Shop")).closest("tr")!;
    expect(within(row).getByText("Staging")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "New application" }));
    await user.type(screen.getByLabelText("Name"), "Back office");
    await user.type(screen.getByLabelText("Base URL"), "https://me:pw@admin.example.com");
    await user.click(screen.getByRole("button", { name: "Create application" }));
    expect(await screen.findByText(/keep credentials in secrets/)).toHaveClass("field-error");
    const url = screen.getByLabelText("Base URL");
    await user.clear(url);
    await user.type(url, "https://admin.example.com");
    await user.click(screen.getByRole("button", { name: "Create application" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === "POST")[1].body).toEqual({
      name: "Back office",
      baseUrl: "https://admin.example.com",
      description: "",
    });
  });

  it("hides edit controls from a Test Developer", async () => {
    fakeFetch({
      "GET /api/applications": { body: { applications: [shop] } },
      "GET /api/environments": { body: { environments: [] } },
    });
    renderPage(<ApplicationsPage />, { route: "/applications", path: "/applications", context: testContext("Test Developer") });
    await screen.findByText("Shop");
    expect(screen.queryByRole("button", { name: "New application" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Edit Shop" })).not.toBeInTheDocument();
  });
});
