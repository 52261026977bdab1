import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";
import { fakeFetch, renderPage } from "../../../test/render";
import { FakeEventSource, installFakeEventSource } from "../../../test/eventSource";
import type { EditorDocument } from "../../../api/editorApi";
import { chooseEnvironment } from "../../runs/RunOptionsFields";
import { EditorPage } from "../EditorPage";
import { baseDoc, testJSON, testRoutes } from "../editorFixtures";
import { framePoint, LiveView, viewKey } from "./LiveView";

installFakeEventSource();
beforeEach(() => localStorage.clear());

const env = (id: string, name: string) => ({ id, projectId: "prj_1", name, protected: false });

function renderEditor(envs: ReturnType<typeof env>[], doc: EditorDocument = baseDoc(), extra = {}) {
  const fetched = fakeFetch({
    ...testRoutes(testJSON({}, doc)),
    "GET /api/environments": { body: { environments: envs } },
    // A step after the first is picked on the live session's page (the steps before it replayed).
    "POST /api/sessions": { status: 201, body: { id: "ses_1", status: "ready", testId: "tc_1", steps: {}, url: "" } },
    ...extra,
  });
  renderPage(<EditorPage />, { route: "/tests/tc_1", path: "/tests/:id" });
  return fetched;
}

describe("the editor's environment choice", () => {
  it("defaults to the last-used environment while it exists, else the only one, else none", () => {
    const two = [{ id: "env_1" }, { id: "env_2" }];
    expect(chooseEnvironment("env_2", two)).toBe("env_2");
    expect(chooseEnvironment(null, [{ id: "env_1" }])).toBe("env_1");
    expect(chooseEnvironment("env_gone", [{ id: "env_1" }])).toBe("env_1");
    expect(chooseEnvironment("env_gone", two)).toBe("");
    expect(chooseEnvironment(null, two)).toBe("");
    expect(chooseEnvironment("", [{ id: "env_1" }])).toBe(""); // none, chosen on purpose
    expect(chooseEnvironment(null, [])).toBe("");
  });

  it("starts at the last-used environment and remembers a change per project", async () => {
    localStorage.setItem("ta.lastEnvironment.prj_1", "env_2");
    renderEditor([env("env_1", "Staging"), env("env_2", "Local")]);
    const select = await screen.findByLabelText("Environment");
    await waitFor(() => expect(select).toHaveValue("env_2"));
    await userEvent.selectOptions(select, "env_1");
    expect(localStorage.getItem("ta.lastEnvironment.prj_1")).toBe("env_1");
  });

  it("says to choose one when the test uses ${baseUrl} and none is chosen (defect 3)", async () => {
    const { calls } = renderEditor([env("env_1", "Staging"), env("env_2", "Local")]);
    await userEvent.click(await screen.findByRole("button", { name: /^Step 2:/ }));
    const pick = screen.getByRole("button", { name: "Pick element" });
    expect(pick).toBeDisabled();
    expect(screen.getByText("Choose an environment (in the editor's toolbar): this test uses ${baseUrl}.")).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText("Environment"), "env_2");
    expect(pick).toBeEnabled();
    await userEvent.click(pick);
    await waitFor(() => expect(calls.find((c) => c.path === "/api/pick/start")).toBeDefined());
    expect(calls.find((c) => c.path === "/api/sessions")?.body).toEqual({ testId: "tc_1", environmentId: "env_2" });
    expect(calls.find((c) => c.path === "/api/pick/start")?.body).toMatchObject({ sessionId: "ses_1", stepId: "s2" });
  });
});

describe("Pick", () => {
  it("fills an assertText's expected text from the picked element when it is empty", async () => {
    const doc = { ...baseDoc(), steps: [...baseDoc().steps, { id: "s3", type: "assertText", expected: "" }] };
    const picked = {
      id: "pck_1",
      status: "picked",
      mode: "pick",
      url: "http://site.test/login",
      recordingId: null,
      element: { tag: "p", text: "  Welcome, ann  ", role: "paragraph", name: "", attributes: {}, frame: [] },
      target: { locators: [{ kind: "testId", value: "greeting", score: 1, matches: 1 }], frame: [], fingerprint: { tag: "p" } },
      error: null,
      createdAt: "2026-11-23T10:00:00Z",
    };
    renderEditor([env("env_1", "Staging")], doc, {
      "POST /api/pick/start": { status: 201, body: { ...picked, status: "ready", element: null, target: null } },
      "GET /api/pick/pck_1": { body: picked },
      "POST /api/pick/pck_1/close": { status: 204 },
    });
    await userEvent.click(await screen.findByRole("button", { name: /^Step 3:/ }));
    await waitFor(() => expect(screen.getByLabelText("Environment")).toHaveValue("env_1"));
    await userEvent.click(screen.getByRole("button", { name: "Pick element" }));
    await waitFor(() => expect(screen.getByLabelText("Locator 1 value")).toHaveValue("greeting"), { timeout: 3000 });
    expect(screen.getByLabelText(/^Expected/)).toHaveValue("Welcome, ann");
  });

  it("shows the picker's page live and sends a click in it to the agent", async () => {
    const ready = {
      id: "pck_1",
      status: "ready",
      mode: "pick",
      url: "http://site.test/login",
      recordingId: null,
      element: null,
      target: null,
      error: null,
      createdAt: "2026-11-23T10:00:00Z",
    };
    const { calls } = renderEditor([env("env_1", "Staging")], baseDoc(), {
      "POST /api/pick/start": { status: 201, body: ready },
      "GET /api/pick/pck_1": { body: ready },
      "POST /api/sessions/pck_1/input": { status: 204 },
      "POST /api/pick/pck_1/close": { status: 204 },
    });
    await userEvent.click(await screen.findByRole("button", { name: /^Step 2:/ }));
    await waitFor(() => expect(screen.getByLabelText("Environment")).toHaveValue("env_1"));
    await userEvent.click(screen.getByRole("button", { name: "Pick element" }));
    const panel = await screen.findByRole("region", { name: "Pick element" });
    expect(await within(panel).findByText(/Waiting for the agent's picture.*A headless agent/)).toBeInTheDocument();
    const view = FakeEventSource.all.find((e) => e.url === "/api/sessions/pck_1/view")!;
    view.emit("frame", { seq: 1, data: "AAAA", width: 640, height: 400, pageWidth: 1280, pageHeight: 800, scrollX: 0, scrollY: 0 });
    const img = within(panel).getByRole("img", { name: /live/ });
    // Moves (hover) go too, a few a second; the rest in order.
    const inputs = () =>
      calls.filter((c) => c.path === "/api/sessions/pck_1/input" && (c.body as { kind: string }).kind !== "move").map((c) => c.body);
    await userEvent.click(img);
    await waitFor(() => expect(inputs()[0]).toMatchObject({ kind: "click", clicks: 1 }));
    await userEvent.keyboard("a{Enter}");
    await waitFor(() => expect(inputs().length).toBe(3));
    expect(inputs()).toEqual([
      expect.objectContaining({ kind: "click" }),
      { kind: "text", text: "a" },
      { kind: "key", key: "Enter", modifiers: [] },
    ]);
    view.emit("end", {});
    expect(within(panel).queryByRole("img", { name: /live/ })).not.toBeInTheDocument();
  });
});

describe("the live view's input", () => {
  it("maps a point on the shown picture to the frame's pixels, inside the frame", () => {
    const frame = { seq: 1, data: "", width: 640, height: 400, pageWidth: 1280, pageHeight: 800, scrollX: 0, scrollY: 0 };
    const box = { left: 10, top: 20, width: 320, height: 200 };
    expect(framePoint(frame, box, 170, 120)).toEqual({ x: 320, y: 200 });
    expect(framePoint(frame, box, 0, 999)).toEqual({ x: 0, y: 400 });
  });

  it("sends printable keys as text, named keys and shortcuts by name, and leaves the rest", () => {
    const k = (key: string, mods: Partial<Record<"ctrlKey" | "altKey" | "metaKey" | "shiftKey", boolean>> = {}) =>
      viewKey({ key, ctrlKey: false, altKey: false, metaKey: false, shiftKey: false, ...mods });
    expect(k("é")).toEqual({ kind: "text", text: "é" });
    expect(k("A", { shiftKey: true })).toEqual({ kind: "text", text: "A" });
    expect(k("Tab", { shiftKey: true })).toEqual({ kind: "key", key: "Tab", modifiers: ["Shift"] });
    expect(k("a", { ctrlKey: true })).toEqual({ kind: "key", key: "a", modifiers: ["Control"] });
    expect(k("Shift", { shiftKey: true })).toBeNull();
    expect(k("Dead")).toBeNull();
  });
});

describe("a dialog on the live view's page", () => {
  const frame = (seq: number, dialog?: object) => ({
    seq,
    data: "AAAA",
    width: 640,
    height: 400,
    pageWidth: 1280,
    pageHeight: 800,
    scrollX: 0,
    scrollY: 0,
    dialog,
  });
  const open = () => {
    const fetched = fakeFetch({ "POST /api/sessions/rec_1/input": { status: 204 } });
    renderPage(<LiveView sessionId="rec_1" label="Recording" />);
    const view = FakeEventSource.all.find((e) => e.url === "/api/sessions/rec_1/view")!;
    const answers = () => fetched.calls.filter((c) => c.path === "/api/sessions/rec_1/input").map((c) => c.body);
    return { view, answers };
  };

  it("shows a confirm over the picture and sends OK or Cancel as the answer", async () => {
    const { view, answers } = open();
    view.emit("frame", frame(1));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    view.emit("frame", frame(2, { type: "confirm", message: "Delete 3 items?" }));
    const box = screen.getByRole("alertdialog", { name: "The page asks" });
    expect(box).toHaveAccessibleDescription("Delete 3 items?");
    const ok = within(box).getByRole("button", { name: "OK" });
    expect(ok).toHaveFocus();
    await userEvent.click(within(box).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(answers()).toEqual([{ kind: "dialog", accept: false, text: "" }]));
    // Answered: hidden, though the frame shown still carries it.
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    view.emit("frame", frame(3));
    view.emit("frame", frame(4, { type: "alert", message: "Saved" }));
    const alert = screen.getByRole("alertdialog", { name: "The page says" });
    expect(within(alert).queryByRole("button", { name: "Cancel" })).not.toBeInTheDocument();
    await userEvent.click(within(alert).getByRole("button", { name: "OK" }));
    await waitFor(() => expect(answers()[1]).toEqual({ kind: "dialog", accept: true, text: "" }));
  });

  it("asks a prompt's answer in a box filled with its default, kept across frames", async () => {
    const { view, answers } = open();
    view.emit("frame", frame(1, { type: "prompt", message: "Your name?", defaultPrompt: "nobody" }));
    const answer = within(screen.getByRole("alertdialog")).getByRole("textbox", { name: "Answer" });
    expect(answer).toHaveValue("nobody");
    expect(answer).toHaveFocus();
    await userEvent.clear(answer);
    await userEvent.type(answer, "Ann");
    view.emit("frame", frame(2, { type: "prompt", message: "Your name?", defaultPrompt: "nobody" }));
    expect(screen.getByRole("textbox", { name: "Answer" })).toHaveValue("Ann");
    await userEvent.keyboard("{Enter}");
    await waitFor(() => expect(answers()).toEqual([{ kind: "dialog", accept: true, text: "Ann" }]));
  });
});

describe("a file choice on the live view's page", () => {
  const frame = (seq: number, fileChooser?: object) => ({
    seq,
    data: "AAAA",
    width: 640,
    height: 400,
    pageWidth: 1280,
    pageHeight: 800,
    scrollX: 0,
    scrollY: 0,
    fileChooser,
  });
  const projectFiles = [
    {
      id: "fil_report",
      projectId: "prj_1",
      name: "report.pdf",
      size: 12400,
      sha256: "",
      contentType: "application/pdf",
      createdBy: null,
      createdAt: "",
    },
    {
      id: "fil_photo",
      projectId: "prj_1",
      name: "photo.png",
      size: 300,
      sha256: "",
      contentType: "image/png",
      createdBy: null,
      createdAt: "",
    },
  ];
  const open = () => {
    const fetched = fakeFetch({
      "POST /api/sessions/rec_1/input": { status: 204 },
      "GET /api/files": { body: { files: projectFiles } },
      "POST /api/files": { status: 201, body: { ...projectFiles[0], id: "fil_new", name: "notes.txt", size: 5 } },
    });
    renderPage(<LiveView sessionId="rec_1" label="Recording" />);
    const view = FakeEventSource.all.find((e) => e.url === "/api/sessions/rec_1/view")!;
    const answers = () => fetched.calls.filter((c) => c.path === "/api/sessions/rec_1/input").map((c) => c.body);
    return { view, answers, fetched };
  };

  it("lists the project's files over the picture and sends the one chosen", async () => {
    const { view, answers } = open();
    view.emit("frame", frame(1));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    view.emit("frame", frame(2, { multiple: false }));
    const box = screen.getByRole("dialog", { name: "The page asks for a file" });
    const choose = within(box).getByRole("button", { name: "Choose" });
    expect(choose).toBeDisabled();
    await userEvent.click(await within(box).findByRole("radio", { name: /report\.pdf/ }));
    // A newer frame still asking keeps what was chosen.
    view.emit("frame", frame(3, { multiple: false }));
    expect(screen.getByRole("radio", { name: /report\.pdf/ })).toBeChecked();
    await userEvent.click(screen.getByRole("button", { name: "Choose" }));
    await waitFor(() => expect(answers()).toEqual([{ kind: "files", files: ["fil_report"] }]));
    // Answered: hidden, though the frame shown still carries it.
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("takes several files when the page does, and Cancel sends none", async () => {
    const { view, answers } = open();
    view.emit("frame", frame(1, { multiple: true }));
    const box = screen.getByRole("dialog", { name: "The page asks for files" });
    await userEvent.click(await within(box).findByRole("checkbox", { name: /report\.pdf/ }));
    await userEvent.click(within(box).getByRole("checkbox", { name: /photo\.png/ }));
    await userEvent.click(within(box).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(answers()).toEqual([{ kind: "files", files: [] }]));
    view.emit("frame", frame(2, { multiple: true }));
    await userEvent.click(await screen.findByRole("checkbox", { name: /photo\.png/ }));
    await userEvent.click(screen.getByRole("button", { name: "Choose" }));
    await waitFor(() => expect(answers()[1]).toEqual({ kind: "files", files: ["fil_photo"] }));
  });

  it("uploads a file from this computer to the project's files, then chooses it", async () => {
    const { view, answers, fetched } = open();
    view.emit("frame", frame(1, { multiple: false }));
    const box = screen.getByRole("dialog", { name: "The page asks for a file" });
    await userEvent.upload(within(box).getByLabelText("Upload from this computer…"), new File(["hello"], "notes.txt"));
    await waitFor(() => expect(answers()).toEqual([{ kind: "files", files: ["fil_new"] }]));
    const up = fetched.calls.find((c) => c.method === "POST" && c.path.startsWith("/api/files"))!;
    expect(up.path).toBe("/api/files?name=notes.txt");
    expect(up.headers["x-project-id"]).toBe("prj_1");
  });
});
