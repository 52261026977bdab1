// Project files through the web application: a new user opens Files from
// the Library menu, uploads two files (one by the button, one dropped on
// the page), sees their sizes and uploader, downloads one, and deletes one
// after confirming.
import { expect, shot, test } from "./fixtures";

const fay = { name: "Fay Files", email: "fay@files.e2e.test", password: "fay-password-1234" };

test("files are uploaded, listed, downloaded and deleted", async ({ page }) => {
  const reg = await page.request.post("/api/auth/register", { data: fay });
  expect(reg.status()).toBe(201);
  const org = (await (await page.request.post("/api/orgs", { data: { name: "Files Co" } })).json()) as { id: string };
  await page.request.post(`/api/orgs/${org.id}/projects`, { data: { name: "Shop" } });

  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("button", { name: "Library" }).click();
  await nav.getByRole("link", { name: "Files" }).click();
  await expect(page.getByText("No files yet.")).toBeVisible();

  await page
    .getByTestId("upload-files")
    .setInputFiles({ name: "Q3 report.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 report") });
  const row = page.getByRole("row", { name: /Q3 report\.pdf/ });
  await expect(row).toContainText("15 B");
  await expect(row).toContainText("Fay Files");
  await expect(row).toContainText(/fil_[a-z0-9]+/);

  // Dropped on the page.
  const drop = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(["name,email\nann,ann@example.com\n"], "users.csv", { type: "text/csv" }));
    return dt;
  });
  await page.getByTestId("files-drop").dispatchEvent("drop", { dataTransfer: drop });
  await expect(page.getByRole("row", { name: /users\.csv/ })).toContainText("31 B");
  await shot(page, "20-files");

  const download = page.waitForEvent("download");
  await row.getByRole("link", { name: "Q3 report.pdf" }).click();
  expect((await download).suggestedFilename()).toBe("Q3 report.pdf");

  await page.getByRole("button", { name: "Delete users.csv" }).click();
  await expect(page.getByRole("dialog")).toContainText("Upload steps that choose it fail");
  await page.getByRole("button", { name: "Delete file" }).click();
  await expect(page.getByRole("row", { name: /users\.csv/ })).toHaveCount(0);
  await expect(row).toBeVisible();
});
