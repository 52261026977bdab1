import { fireEvent, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
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

  it("keeps Suites, Components, Test data and Data pools under Library, which opens and closes", async () => {
    await renderLayout();
    const nav = screen.getByRole("navigation", { name: "Main" });
    const library = screen.getByRole("button", { name: "Library" });
    expect(library).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("link", { name: "Components" })).not.toBeInTheDocument();
    await userEvent.click(library);
    expect(library).toHaveAttribute("aria-expanded", "true");
    for (const [name, href] of [
      ["Suites", "/suites"],
      ["Components", "/components"],
      ["Test data", "/test-data"],
      ["Data pools", "/data-pools"],
    ]) {
      expect(screen.getByRole("link", { name })).toHaveAttribute("href", href);
    }
    expect(nav).toContainElement(screen.getByRole("link", { name: "Suites" }));
    fireEvent.keyDown(document, { key: "Escape" });
    expect(screen.queryByRole("link", { name: "Suites" })).not.toBeInTheDocument();
    await userEvent.click(library);
    fireEvent.mouseDown(document.body);
    expect(screen.queryByRole("link", { name: "Suites" })).not.toBeInTheDocument();
  });

  it("keeps Environments, Applications and (for Test Managers) Webhooks under Setup", async () => {
    await renderLayout(testContext("Test Manager"));
    await userEvent.click(screen.getByRole("button", { name: "Setup" }));
    for (const [name, href] of [
      ["Environments", "/environments"],
      ["Applications", "/applications"],
      ["Webhooks", "/webhooks"],
    ]) {
      expect(screen.getByRole("link", { name })).toHaveAttribute("href", href);
    }
  });

  it("does not offer Webhooks to a Test Developer", async () => {
    await renderLayout(testContext("Test Developer"));
    await userEvent.click(screen.getByRole("button", { name: "Setup" }));
    expect(screen.getByRole("link", { name: "Environments" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Webhooks" })).not.toBeInTheDocument();
  });
});
