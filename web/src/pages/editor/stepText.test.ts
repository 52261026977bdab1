import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../api/editorApi";
import { registry } from "./editorFixtures";
import { describeStep, paramLabel, paramPlaceholder, targetPhrase } from "./stepText";

const el = (kind: string, value: string, name?: string) => ({ locators: [{ kind, value, ...(name ? { name } : {}) }] });

describe("describeStep", () => {
  const rows: [JsonObject, string][] = [
    [{ type: "click", target: el("role", "button", "Sign in") }, 'Click the button "Sign in"'],
    [{ type: "fill", target: el("label", "Email address"), value: "${user}" }, 'Fill "Email address" with ${user}'],
    [{ type: "fill", target: el("role", "textbox", "Email address"), value: "alice" }, 'Fill "Email address" with "alice"'],
    [{ type: "fill", target: el("css", "#email"), value: "" }, "Clear css #email"],
    [{ type: "navigate", url: "${baseUrl}/login" }, "Open ${baseUrl}/login"],
    [
      { type: "assertText", target: el("testId", "greeting"), expected: "Welcome", match: "contains" },
      'Check the text of test id "greeting" contains "Welcome"',
    ],
    [{ type: "assertText", target: el("css", "h1"), expected: "Hi", match: "equals" }, 'Check the text of css h1 is "Hi"'],
    [{ type: "click", target: el("label", "Email") }, 'Click the field "Email"'],
    [{ type: "click", target: el("css", "#x") }, "Click css #x"],
    [{ type: "click", target: el("role", "link") }, "Click the link"],
    [{ type: "click" }, "Click an element"],
    [{ type: "dblclick", target: el("text", "Row 1") }, 'Double-click the text "Row 1"'],
    [{ type: "hover", target: el("alt", "Logo") }, 'Hover over the image "Logo"'],
    [{ type: "press", key: "Enter" }, "Press Enter"],
    [{ type: "press", key: "Tab", target: el("label", "Email") }, 'Press Tab in "Email"'],
    [{ type: "select", target: el("label", "Country"), value: "France" }, 'Select "France" in "Country"'],
    [{ type: "check", target: el("role", "checkbox", "Remember me") }, 'Check the checkbox "Remember me"'],
    [{ type: "uncheck", target: el("testId", "news") }, 'Uncheck test id "news"'],
    [{ type: "assertVisible", target: el("role", "heading", "Home") }, 'Check that the heading "Home" is visible'],
    [{ type: "assertHidden", target: el("css", ".spinner") }, "Check that css .spinner is hidden"],
    [{ type: "assertValue", target: el("label", "Email"), expected: "${user}" }, 'Check the value of the field "Email" contains ${user}'],
    [{ type: "assertUrl", expected: "/home", match: "regex" }, 'Check the URL matches "/home"'],
    [{ type: "assertTitle", expected: "Shop", match: "equals" }, 'Check the page title is "Shop"'],
    [{ type: "wait", ms: 500 }, "Wait 500 ms"],
    [{ type: "waitFor", target: el("css", "#list"), state: "hidden" }, "Wait until css #list is hidden"],
    [{ type: "waitFor", target: el("css", "#list") }, "Wait until css #list is visible"],
    [{ type: "screenshot", name: "home" }, 'Take a screenshot "home"'],
    [{ type: "screenshot", fullPage: true }, "Take a screenshot of the full page"],
    [{ type: "setVariable", name: "token", value: "abc" }, 'Set token to "abc"'],
    [{ type: "setVariable", name: "total", target: el("testId", "total") }, 'Set total to the text of test id "total"'],
    [{ type: "script", code: "return 1;\nmore", assign: "one" }, "Run a script into one: return 1;"],
    [{ type: "callComponent", component: "cmp_abc", version: 2 }, "Run component cmp_abc v2"],
    [{ type: "teleport", url: "x" }, 'Unknown step "teleport": x'],
    [{}, "Step without a type"],
  ];
  it.each(rows)("%j reads as %s", (step, want) => {
    expect(describeStep(step, registry)).toBe(want);
  });

  it("reads every registry type as a sentence, not as its raw type", () => {
    for (const t of registry.stepTypes) {
      const text = describeStep({ id: "s1", type: t.type }, registry);
      expect(text.length).toBeGreaterThan(3);
      expect(text).not.toMatch(/undefined|\[object/);
    }
  });
});

describe("targetPhrase", () => {
  it("phrases each locator kind", () => {
    expect(targetPhrase(el("placeholder", "you@x"))).toBe('the field with placeholder "you@x"');
    expect(targetPhrase(el("title", "Close"))).toBe('the element titled "Close"');
    expect(targetPhrase(el("xpath", "//a"))).toBe("xpath //a");
    expect(targetPhrase(el("role", "textbox", "Email"))).toBe('the field "Email"');
  });
});

describe("labels and placeholders", () => {
  it("uses human labels", () => {
    expect(paramLabel("timeoutMs")).toBe("Timeout (ms)");
    expect(paramLabel("url")).toBe("URL");
    expect(paramLabel("someNewThing")).toBe("Some new thing");
  });
  it("gives examples, never values", () => {
    const url = registry.stepTypes[0].params[0];
    expect(paramPlaceholder(url, "navigate")).toMatch(/^e\.g\. /);
    const timeout = registry.stepTypes[0].params.find((p) => p.name === "timeoutMs")!;
    expect(paramPlaceholder(timeout, "navigate")).toBe("default 10000");
  });
});
