import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderPage } from "../../test/render";
import { FlakiestTests } from "./FlakiestTests";

describe("FlakiestTests", () => {
  it("lists the flakiest tests, linked, with their rates and badges", () => {
    renderPage(
      <FlakiestTests
        figures={[
          { testId: "tc_a", name: "Search", flaky: true, flakyRate: 0.3, passRate: 0.6, quarantined: true },
          { testId: "tc_b", name: "Cart", flaky: false, flakyRate: 0.05, passRate: 0.95, quarantined: false },
        ]}
      />,
    );
    const table = screen.getByRole("table", { name: "Flakiest tests" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.textContent)).toEqual(["Search FlakyQuarantined30%60%", "Cart 5%95%"]);
    expect(within(rows[0]).getByRole("link", { name: "Search" })).toHaveAttribute("href", "/tests/tc_a");
  });

  it("says when no test is flaky", () => {
    renderPage(<FlakiestTests figures={[]} />);
    expect(screen.getByText(/No test is flaky/)).toBeInTheDocument();
  });
});
