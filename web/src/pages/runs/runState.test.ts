import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../api/runs";
import type { RunBox } from "../../api/runs";
import {
  boxOnImage,
  FILM,
  filmView,
  initialRunView,
  mergeSteps,
  runStatusOf,
  runViewFromEvents,
  runViewReducer,
  stepElapsed,
  usedWords,
  zoomOn,
  consoleLines,
} from "./runState";

let seq = 0;
function ev(kind: RunEvent["kind"], fields: Partial<RunEvent> = {}): RunEvent {
  seq += 1;
  return { runId: "run_1", seq, time: `2026-11-02T10:00:${String(seq).padStart(2, "0")}Z`, kind, ...fields };
}

function script(): RunEvent[] {
  seq = 0;
  return [
    ev("run.started", { version: 3, total: 2 }),
    ev("step.started", { index: 0, id: "s1", type: "navigate" }),
    ev("artifact", { name: "step-001-s1.png", contentType: "image/png", step: 0, size: 10 }),
    ev("step.finished", { index: 0, id: "s1", type: "navigate", status: "passed", durationMs: 120, screenshot: "step-001-s1.png" }),
    ev("step.started", { index: 1, id: "s2", type: "click" }),
    ev("step.retry", { index: 1, id: "s2", type: "click", attempt: 2, error: "element not visible" }),
    ev("step.retry", { index: 1, id: "s2", type: "click", attempt: 3, error: "element not visible" }),
    ev("log", { level: "warn", message: "step s2: healed by the fallback locator", step: 1 }),
    ev("step.finished", {
      index: 1,
      id: "s2",
      type: "click",
      status: "passed",
      durationMs: 2300,
      healedBy: { kind: "css", value: "#go" },
    }),
    ev("run.finished", { status: "passed", passed: 2, total: 2, durationMs: 2500 }),
  ];
}

describe("runViewReducer", () => {
  it("follows a step from started to passed", () => {
    const events = script();
    let v = runViewReducer(initialRunView, events[0]);
    expect(v.attempt).toBe(1);
    expect(v.total).toBe(2);
    expect(runStatusOf(v, "queued")).toBe("running");
    v = runViewReducer(v, events[1]);
    expect(v.steps).toEqual([expect.objectContaining({ index: 0, id: "s1", type: "navigate", status: "running", durationMs: null })]);
    v = runViewReducer(v, events[2]);
    v = runViewReducer(v, events[3]);
    expect(v.steps[0]).toEqual(expect.objectContaining({ status: "passed", durationMs: 120 }));
  });

  it("counts retries, records the healing locator, attaches screenshots and ends with run.finished", () => {
    const v = runViewFromEvents(script());
    expect(v.steps).toHaveLength(2);
    expect(v.steps[0].screenshots).toEqual(["step-001-s1.png"]);
    expect(v.steps[1].retries).toBe(2);
    expect(v.steps[1].retryError).toBe("element not visible");
    expect(v.steps[1].healedBy).toEqual({ kind: "css", value: "#go" });
    expect(v.logs).toEqual([expect.objectContaining({ level: "warn", step: 1 })]);
    expect(v.finished).toEqual({ status: "passed", passed: 2, total: 2, durationMs: 2500, error: "" });
    expect(runStatusOf(v, "running")).toBe("passed");
  });

  it("shows a screenshot thumbnail as soon as its artifact event arrives", () => {
    const events = script();
    const v = runViewFromEvents(events.slice(0, 3));
    expect(v.steps[0].status).toBe("running");
    expect(v.steps[0].screenshots).toEqual(["step-001-s1.png"]);
    expect(v.artifacts).toEqual([{ name: "step-001-s1.png", contentType: "image/png", step: 0, size: 10 }]);
  });

  it("ignores an event whose seq it has seen (a resumed stream repeats)", () => {
    const events = script();
    const once = runViewFromEvents(events);
    const twice = runViewFromEvents([...events, ...events]);
    expect(twice).toEqual(once);
    expect(runViewReducer(once, events[4])).toBe(once);
    expect(twice.logs).toHaveLength(1);
  });

  it("tolerates events out of order", () => {
    const events = script();
    const shuffled = [events[0], events[3], events[1], events[2], events[9], events[5], events[4], events[8], events[7], events[6]];
    expect(runViewFromEvents(shuffled)).toEqual(runViewFromEvents(events));
  });

  it("keeps a step reported only by step.finished (skipped after a failure)", () => {
    seq = 0;
    const v = runViewFromEvents([
      ev("run.started", { total: 2 }),
      ev("step.started", { index: 0, id: "s1", type: "click" }),
      ev("artifact", { name: "step-001-s1-failure.png", contentType: "image/png", step: 0 }),
      ev("step.finished", { index: 0, id: "s1", type: "click", status: "failed", durationMs: 5000, error: "no element matches" }),
      ev("step.finished", { index: 1, id: "s2", type: "fill", status: "skipped" }),
      ev("run.finished", { status: "failed", passed: 0, total: 2, durationMs: 5100, error: "step 1 failed" }),
    ]);
    expect(v.steps.map((s) => [s.index, s.status])).toEqual([
      [0, "failed"],
      [1, "skipped"],
    ]);
    expect(v.steps[0].error).toBe("no element matches");
    expect(v.steps[0].screenshots).toEqual(["step-001-s1-failure.png"]);
    expect(v.finished?.error).toBe("step 1 failed");
  });

  it("starts over when the run starts again on another agent, keeping the log", () => {
    seq = 0;
    const v = runViewFromEvents([
      ev("run.started", { total: 1 }),
      ev("step.started", { index: 0, id: "s1", type: "click" }),
      ev("log", { level: "warn", message: "the agent was lost; the run is queued again" }),
      ev("run.started", { total: 1 }),
    ]);
    expect(v.attempt).toBe(2);
    expect(v.steps).toEqual([]);
    expect(v.logs).toHaveLength(1);
  });
});

describe("mergeSteps", () => {
  it("shows the stored result when no event was received", () => {
    const steps = mergeSteps(initialRunView, [
      { index: 1, id: "s2", type: "click", status: "failed", durationMs: 30, error: "boom", screenshot: "f.png", attempts: 3 },
      { index: 0, id: "s1", type: "navigate", status: "passed", durationMs: 10 },
    ]);
    expect(steps.map((s) => s.index)).toEqual([0, 1]);
    expect(steps[1]).toEqual(expect.objectContaining({ status: "failed", error: "boom", screenshots: ["f.png"], retries: 2 }));
  });

  it("prefers what the events tell and fills in the rest", () => {
    seq = 0;
    const v = runViewFromEvents([ev("run.started", { total: 2 }), ev("step.started", { index: 0, id: "s1", type: "navigate" })]);
    const steps = mergeSteps(v, [{ index: 0, id: "s1", type: "navigate", status: "passed", durationMs: 10, screenshot: "a.png" }]);
    expect(steps[0]).toEqual(expect.objectContaining({ status: "passed", durationMs: 10, screenshots: ["a.png"] }));
  });
});

describe("explaining a step", () => {
  const box: RunBox = { x: 100, y: 50, width: 200, height: 40, viewportWidth: 1000, viewportHeight: 500, dpr: 2 };

  it("keeps the box, the used values and the step's own screenshot from step.finished, and the headed flag of run.started", () => {
    seq = 0;
    const v = runViewFromEvents([
      ev("run.started", { version: 1, total: 1, headed: false }),
      ev("step.started", { index: 0, id: "s1", type: "fill" }),
      ev("artifact", { name: "step-001-s1-failure.png", contentType: "image/png", step: 0, size: 10 }),
      ev("step.finished", {
        index: 0,
        id: "s1",
        type: "fill",
        status: "failed",
        durationMs: 10,
        screenshot: "step-001-s1-failure.png",
        box,
        used: { value: "***" },
      }),
    ]);
    expect(v.headed).toBe(false);
    expect(v.steps[0]).toEqual(expect.objectContaining({ shot: "step-001-s1-failure.png", box, used: { value: "***" }, retries: 0 }));
    // An agent that does not say leaves it unknown.
    seq = 0;
    expect(runViewFromEvents([ev("run.started", { version: 1, total: 1 })]).headed).toBeNull();
  });

  it("shows retried only from step.retry events, which the agent sends for real retries alone", () => {
    seq = 0;
    const v = runViewFromEvents([
      ev("run.started", { version: 1, total: 1 }),
      ev("step.started", { index: 0, id: "s1", type: "assertText" }),
      ev("step.finished", { index: 0, id: "s1", type: "assertText", status: "passed", durationMs: 4000 }),
    ]);
    expect(v.steps[0].retries).toBe(0);
    expect(mergeSteps(v, [{ index: 0, id: "s1", type: "assertText", status: "passed", durationMs: 4000, attempts: 1 }])[0].retries).toBe(0);
  });

  it("ticks a running step's time from its step.started, and keeps a finished step's duration", () => {
    seq = 0;
    const v = runViewFromEvents([ev("run.started", { total: 1 }), ev("step.started", { index: 0, id: "s1", type: "click" })]);
    const started = Date.parse(v.steps[0].startedAt ?? "");
    expect(stepElapsed(v.steps[0], started + 1500)).toBe(1500);
    expect(stepElapsed(v.steps[0], started + 4200)).toBe(4200);
    expect(stepElapsed(v.steps[0], started - 1000)).toBe(0);
    expect(stepElapsed({ ...v.steps[0], status: "passed", durationMs: 700 }, started + 9999)).toBe(700);
  });

  it("maps the box onto the screenshot in percent, whatever size it is shown at", () => {
    expect(boxOnImage(box, 2000, 1000)).toEqual({ left: 10, top: 10, width: 20, height: 8 });
    // A pixel of rounding is fine.
    expect(boxOnImage(box, 2001, 999)).toEqual({ left: 10, top: 10, width: 20, height: 8 });
    // A full-page or element capture is not the viewport: no box.
    expect(boxOnImage(box, 2000, 3000)).toBeNull();
    expect(boxOnImage(null, 2000, 1000)).toBeNull();
    // Cut to the viewport; wholly outside or empty: none.
    expect(boxOnImage({ ...box, x: -100, width: 300 }, 2000, 1000)).toEqual({ left: 0, top: 10, width: 20, height: 8 });
    expect(boxOnImage({ ...box, y: 600 }, 2000, 1000)).toBeNull();
    expect(boxOnImage({ ...box, width: 0 }, 2000, 1000)).toBeNull();
    // No ratio reported counts as 1.
    expect(boxOnImage({ ...box, dpr: 0 }, 1000, 500)).toEqual({ left: 10, top: 10, width: 20, height: 8 });
  });

  it("zooms on the element with a margin, within the window and at most 4 times", () => {
    // 232 x 72 with a 16 px margin; 640 / 232 = 2.758 is the limit, 2.75 keeps it whole.
    const z = zoomOn(box, 640, 360);
    expect(z).toEqual({ width: 638, height: 198, scale: 2.75, x: -231, y: -93.5 });
    // A wide element is shown whole, its right edge too: smaller than twice.
    const wide = { ...box, x: 0, width: 900 };
    const w = zoomOn(wide, 640, 360);
    expect(w).not.toBeNull();
    if (!w) return;
    expect(w.scale).toBeLessThan(2);
    expect((wide.x + wide.width) * w.scale + w.x).toBeLessThanOrEqual(w.width);
    expect((wide.y + wide.height) * w.scale + w.y).toBeLessThanOrEqual(w.height);
    expect(w.x).toBe(0);
    // A small element is enlarged 4 times at most.
    expect(zoomOn({ ...box, width: 10, height: 10 }, 640, 360)?.scale).toBe(4);
    // Near the edge the margin stops at the viewport.
    expect(zoomOn({ ...box, x: 0, y: 0 }, 640, 360)).toEqual(expect.objectContaining({ x: 0, y: 0 }));
    expect(zoomOn({ ...box, height: 0 }, 640, 360)).toBeNull();
  });

  it("words the used values by step type", () => {
    expect(usedWords("fill", { value: "ann@example.com" })).toEqual([{ label: "typed", value: "ann@example.com" }]);
    expect(usedWords("assertText", { expected: "Welcome" })).toEqual([{ label: "expected", value: "Welcome" }]);
    expect(usedWords("navigate", { url: "https://a.test/" })).toEqual([{ label: "opened", value: "https://a.test/" }]);
    expect(usedWords("press", { key: "Enter" })).toEqual([{ label: "pressed", value: "Enter" }]);
    expect(usedWords("fill", null)).toEqual([]);
    // What a script returned and setVariable captured; the console apart.
    expect(usedWords("script", { result: "3", console: "[log] rows 3" })).toEqual([{ label: "value", value: "3" }]);
    expect(consoleLines({ result: "3", console: "[log] rows 3\n[warn] ***" })).toEqual(["[log] rows 3", "[warn] ***"]);
    expect(usedWords("setVariable", { name: "label", result: "Quantity" })).toEqual([
      { label: "name", value: "label" },
      { label: "captured", value: "Quantity" },
    ]);
    expect(usedWords("setVariable", { name: "n", value: "3", result: "3" })).toEqual([
      { label: "set to", value: "3" },
      { label: "name", value: "n" },
    ]);
  });
});

describe("filmView", () => {
  const box = (x: number, y: number, w: number, h: number) => ({
    x,
    y,
    width: w,
    height: h,
    viewportWidth: 1280,
    viewportHeight: 800,
    dpr: 1,
  });

  it("shows the top left corner at a readable scale when the step has no element", () => {
    const v = filmView(null, 1280, 800);
    expect(v.imgWidth).toBe(1280 * FILM.scale);
    expect([v.imgLeft, v.imgTop, v.box]).toEqual([0, 0, null]);
  });

  it("centres the element, outlined, in the picture", () => {
    const v = filmView(box(900, 500, 100, 40), 1280, 800);
    expect(v.box).not.toBeNull();
    const b = v.box!;
    expect(b.left + b.width / 2).toBeCloseTo(FILM.width / 2, 0);
    expect(b.top + b.height / 2).toBeCloseTo(FILM.height / 2, 0);
    expect(b.width).toBeCloseTo(100 * FILM.scale);
  });

  it("stays inside the page near its edges, and maps a high-density screenshot", () => {
    const v = filmView({ ...box(1250, 780, 20, 10), dpr: 2 }, 2560, 1600);
    // The picture ends where the page ends: nothing past its right or bottom edge.
    expect(v.imgLeft + v.imgWidth).toBeCloseTo(FILM.width, 0);
    expect(v.imgTop + 800 * FILM.scale).toBeCloseTo(FILM.height, 0);
    expect(v.box!.left + v.box!.width).toBeLessThanOrEqual(FILM.width + 0.01);
  });
});
