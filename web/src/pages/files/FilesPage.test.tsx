import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext } from "../../test/render";
import type { ProjectFile } from "../../api/files";
import { formatSize } from "../../api/files";
import { FilesPage } from "./FilesPage";

afterEach(() => vi.unstubAllGlobals());

const mine: ProjectFile = {
  id: "fil_report0000000000",
  projectId: "prj_1",
  name: "report.pdf",
  size: 3 * 1024 * 1024,
  sha256: "ab",
  contentType: "application/pdf",
  createdBy: { id: "usr_me", name: "Mia Tester" },
  createdAt: "2026-11-01T10:00:00Z",
};
const theirs: ProjectFile = { ...mine, id: "fil_photo00000000000", name: "photo.png", size: 512, createdBy: { id: "usr_bo", name: "Bo" } };

const rowOf = async (name: string) => (await screen.findByText(name)).closest("tr")!;

describe("FilesPage", () => {
  it("lists files with size, uploader and a download link", async () => {
    fakeFetch({ "GET /api/files": { body: { files: [mine, theirs] } } });
    renderPage(<FilesPage />, { route: "/files", path: "/files", context: testContext("Tester") });
    const row = await rowOf("report.pdf");
    expect(row).toHaveTextContent("3.0 MB");
    expect(row).toHaveTextContent("Mia Tester");
    expect(row).toHaveTextContent("fil_report0000000000");
    expect(within(row).getByRole("link", { name: "report.pdf" })).toHaveAttribute("href", "/api/files/fil_report0000000000/content");
    // A Tester deletes their own file only.
    expect(within(row).getByRole("button", { name: "Delete report.pdf" })).toBeInTheDocument();
    expect(within(await rowOf("photo.png")).queryByRole("button", { name: /Delete/ })).toBeNull();
  });

  it("lets Test Managers delete anyone's file, after confirming", async () => {
    const { calls } = fakeFetch({
      "GET /api/files": { body: { files: [theirs] } },
      "DELETE /api/files/fil_photo00000000000": { status: 204 },
    });
    const user = userEvent.setup();
    renderPage(<FilesPage />, { route: "/files", path: "/files", context: testContext("Test Manager") });
    await user.click(within(await rowOf("photo.png")).getByRole("button", { name: "Delete photo.png" }));
    expect(screen.getByRole("dialog")).toHaveTextContent("Upload steps that choose it fail");
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await user.click(screen.getByRole("button", { name: "Delete file" }));
    await waitFor(() => expect(calls.some((c) => c.method === "DELETE" && c.path === "/api/files/fil_photo00000000000")).toBe(true));
  });

  it("uploads chosen files as raw bytes named in the query", async () => {
    const { calls } = fakeFetch({
      "GET /api/files": { body: { files: [] } },
      "POST /api/files": { status: 201, body: mine },
    });
    const user = userEvent.setup();
    renderPage(<FilesPage />, { route: "/files", path: "/files", context: testContext("Tester") });
    await screen.findByText(/No files yet/);
    const file = new File(["hello"], "notes v2.txt", { type: "text/plain" });
    await user.upload(screen.getByTestId("upload-files"), file);
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    const post = calls.find((c) => c.method === "POST")!;
    expect(post.path).toBe("/api/files?name=notes+v2.txt");
    expect(post.headers["Content-Type"]).toBe("application/octet-stream");
    expect(post.headers["x-project-id"]).toBe("prj_1");
    expect(post.body).toBe(file);
  });

  it("uploads dropped files and says which were refused and why", async () => {
    const { calls } = fakeFetch({
      "GET /api/files": { body: { files: [] } },
      "POST /api/files": (c) =>
        c.path.includes("bad")
          ? { status: 422, body: { error: "the file's name is not valid", code: "invalid", issues: [] } }
          : { status: 201, body: mine },
    });
    renderPage(<FilesPage />, { route: "/files", path: "/files", context: testContext("Tester") });
    await screen.findByText(/No files yet/);
    const big = new File(["x"], "huge.iso");
    Object.defineProperty(big, "size", { value: 26 * 1024 * 1024 });
    const files = [new File(["a"], "a.csv"), new File(["b"], "bad.txt"), big];
    fireEvent.drop(screen.getByTestId("files-drop"), { dataTransfer: { files } });
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("2 files were not uploaded");
    expect(alert).toHaveTextContent("bad.txt: the file's name is not valid");
    expect(alert).toHaveTextContent("huge.iso: it is 26 MB; a file is at most 25 MiB");
    // The too-big file never left the browser.
    expect(calls.filter((c) => c.method === "POST").map((c) => c.path)).toEqual(["/api/files?name=a.csv", "/api/files?name=bad.txt"]);
  });

  it("copies a file's id", async () => {
    fakeFetch({ "GET /api/files": { body: { files: [mine] } } });
    const user = userEvent.setup(); // gives the page a clipboard
    renderPage(<FilesPage />, { route: "/files", path: "/files", context: testContext("Tester") });
    await user.click(within(await rowOf("report.pdf")).getByRole("button", { name: "Copy the id of report.pdf" }));
    expect(await screen.findByRole("button", { name: "Copy the id of report.pdf" })).toHaveTextContent("Copied");
    expect(await navigator.clipboard.readText()).toBe("fil_report0000000000");
  });

  it("formats sizes", () => {
    expect(formatSize(0)).toBe("0 B");
    expect(formatSize(1536)).toBe("1.5 KB");
    expect(formatSize(25 * 1024 * 1024)).toBe("25 MB");
  });
});
