import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext } from "../test/render";
import { Layout } from "./Layout";

afterEach(() => vi.unstubAllGlobals());

/** renderLayout renders the frame and waits for its agent banner to load. */
async function renderLayout(context = testContext()) {
  fakeFetch({ "GET /api/agent": { body: { agents: [], needed: true } } });
  renderPage(<Layout />, { route: "/", path: "/", context });
  await screen.findByText(/Runs need a paired agent/);
}

describe("Layout", async () => {
  it("links to Administration for a project Admin who is not an organization Admin", async () => {
    const context = testContext("Tester");
    const project = context.organizations[0].projects?.[0];
    if (project) project.role = "Admin";
    await renderLayout(context);
    expect(screen.getByRole("navigation", { name: "Main" })).toHaveTextContent("Admin");
    expect(screen.getByRole("link", { name: "Admin" })).toHaveAttribute("href", "/admin");
  });

  it("does not link to Administration for a member with nothing to administer", async () => {
    await renderLayout(testContext("Tester"));
    expect(screen.queryByRole("link", { name: "Admin" })).not.toBeInTheDocument();
  });

  it("links to Administration for a platform administrator", async () => {
    await renderLayout(testContext("Tester", true));
    expect(screen.getByRole("link", { name: "Admin" })).toBeInTheDocument();
  });
});
