import { describe, expect, it } from "vitest";
import { divergeWords, outcomeWords, pixelWords } from "./compareModel";

describe("the comparison's words", () => {
  it("says how much of the screenshot differs, never 0% for a change nor 100% for a partial one", () => {
    const p = (different: number) => pixelWords({ width: 100, height: 100, different, total: 10_000 });
    expect(p(0)).toBe("No pixel differs");
    expect(p(3)).toBe("Less than 0.1% of the pixels differ");
    expect(p(250)).toBe("2.5% of the pixels differ");
    expect(p(9_999)).toBe("99.9% of the pixels differ");
    expect(p(10_000)).toBe("100% of the pixels differ");
  });

  it("says a request's outcome: its status, no answer, or its failure in words", () => {
    expect(outcomeWords(500)).toBe("500");
    expect(outcomeWords(0)).toBe("no answer");
    expect(outcomeWords(0, "dns")).toBe("failed: the host name did not resolve");
    expect(outcomeWords(0, "cors")).toBe("blocked by CORS");
    expect(outcomeWords(0, "net::ERR_CERT_INVALID")).toBe("failed: net::ERR_CERT_INVALID");
  });

  it("says any other status difference with both statuses", () => {
    // Compared with a run that failed (?with=): this run passed the step it failed.
    expect(divergeWords({ reason: "status", status: "passed", baselineStatus: "failed" }, "the run compared with")).toBe(
      "Passed here; failed in the run compared with",
    );
  });
});
