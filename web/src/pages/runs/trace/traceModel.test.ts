// The trace panel's rules without rendering: the step selected on open,
// what counts as an error and a failed request, the rows the lists show,
// the document a snapshot is shown as, and the rows a window renders.
import { describe, expect, it } from "vitest";
import { initialSelection, isFailedRequest, listRows, snapshotDoc, sourcePlace, stepMarks, SNAPSHOT_CSP } from "./traceModel";
import { windowOf } from "./Windowed";
import { con, req, ts } from "./traceFixtures";

describe("traceModel", () => {
  it("selects the first failed step on open, else the first step", () => {
    expect(initialSelection([ts(0, "a", "click", "passed"), ts(1, "b", "click", "failed"), ts(2, "c", "click", "failed")])).toBe(1);
    expect(initialSelection([ts(0, "a", "click", "passed"), ts(1, "b", "click", "skipped")])).toBe(0);
    expect(initialSelection([])).toBe(-1);
  });

  it("counts a request failed when it got no answer or an HTTP error status", () => {
    expect(isFailedRequest(req(0, "/a", 500))).toBe(true);
    expect(isFailedRequest(req(0, "/a", 404))).toBe(true);
    expect(isFailedRequest(req(0, "/a", undefined, { failure: "refused" }))).toBe(true);
    expect(isFailedRequest(req(0, "/a", 399))).toBe(false);
    expect(isFailedRequest(req(0, "/a", 304))).toBe(false);
    expect(isFailedRequest(req(0, "/a", undefined))).toBe(false); // the step ended first: not a failure
    const marks = stepMarks([
      ts(0, "a", "click", "failed", {
        console: [con(0, "error", "x"), con(1, "warning", "y"), con(2, "error", "z")],
        network: [req(0, "/a", 500), req(0, "/b", 200)],
      }),
    ]);
    expect(marks).toEqual([{ errors: 2, failedRequests: 1 }]);
  });

  it("lists the selected step's entries and its neighbours' greyed, every step's with all, filtered", () => {
    const steps = [0, 1, 2, 3].map((i) => ts(i, `s${i}`, "click", "passed", { console: [con(i, i === 2 ? "error" : "log", `line ${i}`)] }));
    const around = listRows(steps, 2, (s) => s.console, false, null);
    expect(around.map((r) => [r.entry.text, r.near])).toEqual([
      ["line 1", true],
      ["line 2", false],
      ["line 3", true],
    ]);
    expect(listRows(steps, 0, (s) => s.console, false, null).map((r) => r.step)).toEqual([0, 1]);
    expect(listRows(steps, 2, (s) => s.console, true, null)).toHaveLength(4);
    expect(
      listRows(
        steps,
        2,
        (s) => s.console,
        true,
        (c) => c.level === "error",
      ).map((r) => r.entry.text),
    ).toEqual(["line 2"]);
  });

  it("puts the policy before anything of a snapshot, after its doctype, and the highlight at the end", () => {
    const meta = `<meta http-equiv="Content-Security-Policy" content="${SNAPSHOT_CSP}">`;
    const doc = snapshotDoc('<!doctype html>\n<html><head><img src="https://x.test/a.png"></head></html>');
    expect(doc.startsWith(`<!doctype html>${meta}\n<html>`)).toBe(true);
    expect(doc.endsWith("</style>")).toBe(true);
    expect(doc.lastIndexOf("<style data-ta-trace>")).toBeGreaterThan(doc.indexOf("</html>"));
    // Without a doctype, the policy is the very first thing.
    expect(snapshotDoc("<p>hi</p>").startsWith(`${meta}<p>hi</p>`)).toBe(true);
    expect(SNAPSHOT_CSP).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:");
  });

  it("keeps the page's address of a snapshot's <base> without letting it set the frame's base", () => {
    const doc = snapshotDoc('<html><head><base href="https://shop.test/cart?x=1"><BASE target="_top" HREF="/a"></head></html>');
    expect(doc).not.toMatch(/<base[^>]*\shref=/i);
    expect(doc).toContain('<base data-ta-href="https://shop.test/cart?x=1">');
    expect(doc).toContain('<base target="_top" data-ta-href="/a">');
  });

  it("names a console line's source by its script's file, line and column", () => {
    expect(sourcePlace(con(0, "error", "x", { url: "https://shop.test/js/cart.js?v=2", line: 12, column: 5 }))).toBe("cart.js:12:5");
    expect(sourcePlace(con(0, "error", "x", { url: "https://shop.test/", line: 3 }))).toBe("shop.test:3");
    expect(sourcePlace(con(0, "error", "x"))).toBe("");
  });

  it("renders a window of rows around the view, clamped to the list", () => {
    expect(windowOf(2000, 26, 312, 0)).toEqual({ first: 0, last: 18 });
    expect(windowOf(2000, 26, 312, 26 * 1000)).toEqual({ first: 994, last: 1018 });
    // Past the end (a filter shortened the list): the last rows.
    expect(windowOf(20, 26, 312, 26 * 1000)).toEqual({ first: 2, last: 20 });
    expect(windowOf(0, 26, 312, 0)).toEqual({ first: 0, last: 0 });
  });
});
