import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import { makeTest } from "../tests/fixtures";
import { QuarantinedBadge, QuarantinedRunBanner } from "./QuarantinedRun";

afterEach(() => vi.unstubAllGlobals());

describe("QuarantinedRunBanner", () => {
  it("says the test was quarantined when the run ended, with the quarantine's reason", async () => {
    fakeFetch({
      "GET /api/tests/tc_1": {
        body: makeTest({ quarantine: { at: "2026-11-02T10:00:00Z", by: null, byName: null, reason: "sandbox down" } }),
      },
    });
    renderPage(<QuarantinedRunBanner run={{ testId: "tc_1", quarantined: true }} />);
    expect(
      await screen.findByText("This test was quarantined when this run ended: sandbox down. Its failure does not fail its batch."),
    ).toBeInTheDocument();
  });

  it("says nothing of a run that was not quarantined, and asks the hub nothing", () => {
    const { calls } = fakeFetch({});
    renderPage(<QuarantinedRunBanner run={{ testId: "tc_1", quarantined: false }} />);
    expect(screen.queryByRole("note")).toBeNull();
    expect(calls).toEqual([]);
  });

  it("marks quarantined runs in tables", () => {
    renderPage(
      <>
        <QuarantinedBadge quarantined />
        <QuarantinedBadge quarantined={false} />
      </>,
    );
    expect(screen.getAllByText("Quarantined")).toHaveLength(1);
  });
});
