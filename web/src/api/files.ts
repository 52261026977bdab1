// Project files (hub/api/files.go): what upload steps put into a page's
// file input, referred to by id (fil_...). Every member lists and
// downloads them; Testers and up upload (25 MiB each); the uploader, Test
// Managers and Admins delete. A deleted file's upload steps fail saying so.
import { useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import type { Schema } from "./types";
import { del, get, inProject, query, recordCall, request } from "./client";

/** hub/api/files.go projectFileJSON. */
export type ProjectFile = Schema<"ProjectFile">;

/** The hub's limit on one file (MaxFileSize). */
export const MAX_FILE_SIZE = 25 * 1024 * 1024;

export const fileKeys = {
  list: (projectId: string) => ["files", projectId, "list"] as const,
};

/**
 * useFileNames names the project's files by id, for the lines of upload
 * steps ("Upload report.pdf to ..."); undefined until loaded or when not
 * wanted (no upload step), and then the lines show the ids.
 */
export function useFileNames(projectId: string, wanted: boolean): Record<string, string> | undefined {
  const list = useQuery({
    queryKey: fileKeys.list(projectId),
    queryFn: () => listFiles(projectId),
    enabled: wanted && projectId !== "",
  });
  return useMemo(() => (list.data ? Object.fromEntries(list.data.map((f) => [f.id, f.name])) : undefined), [list.data]);
}

const filePath = (id: string) => `/api/files/${encodeURIComponent(id)}`;

export const listFiles = async (projectId: string) => (await get<{ files: ProjectFile[] }>("/api/files", inProject(projectId))).files;

/**
 * uploadFile sends the file's bytes as they are. The type is always
 * application/octet-stream (the hub then takes it from the name's
 * extension): a text/plain body is refused as a possible cross-site form.
 */
export async function uploadFile(projectId: string, file: File): Promise<ProjectFile> {
  const res = await request<ProjectFile>(
    "POST",
    `/api/files${query({ name: file.name })}`,
    undefined,
    inProject(projectId, { rawBody: file, contentType: "application/octet-stream" }),
  );
  return res.data;
}

export const deleteFile = (id: string) => del(filePath(id), recordCall);

/** The download of a file's bytes (served as an attachment). */
export const fileContentUrl = (id: string) => `${filePath(id)}/content`;

/** formatSize shows a byte count as people read it: 512 B, 3.4 KB, 12 MB. */
export function formatSize(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}
