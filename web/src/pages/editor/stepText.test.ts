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
    // The steps real suites need (issue 28).
    [{ type: "dialog", action: "accept", expected: "Delete 3 items?", match: "equals" }, 'Accept the dialog "Delete 3 items?"'],
    [{ type: "dialog", action: "accept", expected: "name", text: "${user}" }, 'Accept the dialog that contains "name", answering ${user}'],
    [{ type: "dialog", action: "dismiss" }, "Dismiss the next dialog"],
    [{ type: "switchTab", to: "new" }, "Switch to the new tab"],
    [{ type: "switchTab", to: "opener" }, "Switch back to the tab that opened this one"],
    [{ type: "switchTab", to: "index", index: 1 }, "Switch to the tab at index 1"],
    [{ type: "switchTab", to: "match", title: "Help", match: "equals" }, 'Switch to the tab whose title is "Help"'],
    [
      { type: "switchTab", to: "match", url: "/help", title: "Help" },
      'Switch to the tab whose URL contains "/help" and title contains "Help"',
    ],
    [{ type: "closeTab" }, "Close the tab and go back to the one that opened it"],
    [{ type: "upload", target: el("label", "Attachment"), files: ["fil_1"] }, 'Upload fil_1 to "Attachment"'],
    [{ type: "dragTo", target: el("text", "Card"), to: el("text", "Done") }, 'Drag the text "Card" to the text "Done"'],
    [{ type: "dragTo", target: el("text", "Card") }, 'Drag the text "Card" to a drop target'],
    [{ type: "click", target: el("text", "Row 3"), button: "right" }, 'Right-click the text "Row 3"'],
    [
      { type: "click", target: el("css", "#a"), modifiers: ["Control", "Shift"], position: { x: 5, y: 10 } },
      "Control+Shift+click css #a at 5, 10",
    ],
    [{ type: "dblclick", target: el("css", "#a"), button: "middle" }, "Middle double-click css #a"],
    [{ type: "mouse", action: "down", target: el("css", "#pad"), position: { x: 1, y: 2 } }, "Press the mouse button on css #pad at 1, 2"],
    [{ type: "mouse", action: "move", position: { x: 100, y: 50 } }, "Move the mouse at page point 100, 50"],
    [{ type: "mouse", action: "up" }, "Release the mouse button"],
    [{ type: "goBack" }, "Go back"],
    [{ type: "goForward" }, "Go forward"],
    [{ type: "reload" }, "Reload the page"],
    [{ type: "setViewport", width: 390, height: 844 }, "Set the viewport to 390×844"],
    [{ type: "log", message: "Order ${id} placed" }, 'Log "Order ${id} placed"'],
    [{ type: "assertChecked", target: el("label", "Terms") }, 'Check that the field "Terms" is checked'],
    [
      { type: "assertChecked", target: el("label", "News"), checked: false, soft: true },
      'Check that the field "News" is not checked (soft)',
    ],
    [{ type: "assertEnabled", target: el("css", "#code"), enabled: false }, "Check that css #code is disabled"],
    [{ type: "assertEditable", target: el("css", "#ro"), editable: false }, "Check that css #ro is read-only"],
    [
      { type: "assertAttribute", target: el("css", "a"), name: "href", expected: "/docs", not: true },
      'Check the attribute href of css a does not contain "/docs"',
    ],
    [{ type: "assertCount", target: el("css", "li"), expected: 3 }, "Check that 3 elements match css li"],
    [
      { type: "assertSelected", target: el("label", "Country"), expected: "Belgium" },
      'Check that "Country" has the option "Belgium" selected',
    ],
    [
      { type: "assertSelected", target: el("label", "Country"), expected: "be", by: "value" },
      'Check that "Country" has the value "be" selected',
    ],
    [{ type: "assertVariable", name: "resp.body.id", expected: "42", match: "equals" }, 'Check that resp.body.id is "42"'],
    [
      { type: "assertText", target: el("label", "Title"), expected: "Draft", match: "equals", not: true },
      'Check the text of the field "Title" is not "Draft"',
    ],
    [{ type: "assertTitle", expected: "Shop", soft: true }, 'Check the page title contains "Shop" (soft)'],
    [{ type: "setVariable", name: "n", target: el("css", "li"), from: "count" }, "Set n to the number of css li"],
    [
      { type: "setVariable", name: "h", target: el("css", "a"), from: "attribute", attribute: "href" },
      "Set h to the attribute href of css a",
    ],
    [{ type: "setVariable", name: "t", from: "title" }, "Set t to the page title"],
    [{ type: "setVariable", name: "c", target: el("css", "select"), from: "selectedLabel" }, "Set c to the selected label of css select"],
    [{ type: "waitFor", target: el("css", "#ro"), state: "readonly" }, "Wait until css #ro is read-only"],
    [{ type: "waitFor", target: el("css", "#go"), state: "enabled" }, "Wait until css #go is enabled"],
    [
      { type: "request", method: "POST", url: "/api/items", expectStatus: 201, assign: "created" },
      "Send POST /api/items, expecting 201 into created",
    ],
    [{ type: "request", url: "/api/me" }, "Send GET /api/me"],
    [{}, "Step without a type"],
  ];
  it.each(rows)("%j reads as %s", (step, want) => {
    expect(describeStep(step, registry)).toBe(want);
  });

  it("names an upload's files by name when the project's files are known", () => {
    const step = { type: "upload", target: el("label", "Attachment"), files: ["fil_1", "fil_2"] };
    expect(describeStep(step, registry, undefined, { fil_1: "report.pdf" })).toBe('Upload report.pdf, fil_2 to "Attachment"');
  });

  it("reads a step without the registry, as the run page may", () => {
    expect(describeStep({ type: "goBack" })).toBe("Go back");
    expect(describeStep({ type: "somethingNew" })).toBe("Something new");
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

describe("block lines", () => {
  const cookies = el("role", "button", "Accept cookies");
  const rows: [JsonObject, string][] = [
    [{ type: "if", condition: { kind: "visible", target: cookies } }, 'If the button "Accept cookies" is visible'],
    [{ type: "if", condition: { kind: "hidden", target: el("testId", "spinner") } }, 'If test id "spinner" is hidden'],
    [{ type: "if", condition: { kind: "exists", target: el("css", "#banner") } }, "If css #banner exists"],
    [
      { type: "if", condition: { kind: "text", target: el("css", "h1"), expected: "Cart", match: "equals" } },
      'If the text of css h1 is "Cart"',
    ],
    [
      { type: "if", condition: { kind: "value", target: el("label", "Qty"), expected: "2" } },
      'If the value of the field "Qty" contains "2"',
    ],
    [{ type: "if", condition: { kind: "variable", name: "loggedIn" } }, "If loggedIn is set"],
    [{ type: "if", condition: { kind: "variable", name: "role", expected: "admin", match: "equals" } }, 'If role is "admin"'],
    [{ type: "if", condition: { kind: "script", code: "${count} > 3" } }, "If ${count} > 3"],
    [{ type: "if" }, "If (no condition)"],
    [{ type: "repeat", times: 5 }, "Repeat 5 times"],
    [{ type: "repeat", times: 1 }, "Repeat once"],
    [{ type: "repeat", while: { kind: "script", code: "${count} < 3" } }, "Repeat while ${count} < 3 (at most 1000)"],
    [{ type: "repeat", while: { kind: "script", code: "${count} < 3" }, max: 50 }, "Repeat while ${count} < 3 (at most 50)"],
    [
      { type: "repeat", times: 4, while: { kind: "visible", target: el("text", "More") } },
      'Repeat while the text "More" is visible (at most 4 times)',
    ],
    [{ type: "forEach", items: "${items}" }, "For each item in ${items}"],
    [{ type: "forEach", items: "${rows}", as: "row" }, "For each row in ${rows}"],
    [{ type: "forEach", items: ["a", "${b}"] }, 'For each item in "a", ${b}'],
  ];
  it.each(rows)("reads %j", (step, line) => {
    expect(describeStep(step, registry)).toBe(line);
  });
});
