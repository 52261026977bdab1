// Helpers for component tests: render inside the app's providers with a
// chosen route and workspace, against a fake fetch that answers by route.
import type { ReactElement } from "react";
import { render } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter, Route, Routes } from "react-router";
import { vi } from "vitest";
import { WorkspaceProvider } from "../session";
import type { Context, Role } from "../api";

export function testContext(role: Role = "Admin", platformAdmin = false): Context {
  return {
    user: { id: "usr_me", name: "Mia Tester", email: "mia@example.com", platformAdmin, createdAt: "2026-11-01T10:00:00Z" },
    organizations: [
      {
        id: "org_1",
        name: "Acme",
        role,
        projects: [{ id: "prj_1", orgId: "org_1", name: "Shop", role }],
      },
    ],
  };
}

export interface FakeCall {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

export type FakeAnswer = { status?: number; body?: unknown; headers?: Record<string, string> };
export type FakeRoute = FakeAnswer | ((call: FakeCall) => FakeAnswer);

/**
 * fakeFetch answers calls by "METHOD /path" (the query string is ignored
 * unless the key has one); unknown routes answer 404. Bodies go as JSON,
 * but a string body with a non-JSON Content-Type header goes as it is.
 * Calls are recorded.
 */
export function fakeFetch(routes: Record<string, FakeRoute>) {
  const calls: FakeCall[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://hub.test");
    const method = (init?.method ?? "GET").toUpperCase();
    const headers = (init?.headers ?? {}) as Record<string, string>;
    let body: unknown = undefined;
    if (typeof init?.body === "string") {
      try {
        body = JSON.parse(init.body);
      } catch {
        body = init.body;
      }
    } else if (init?.body != null) {
      body = init.body; // a file's bytes (a Blob)
    }
    const call = { method, path: url.pathname + url.search, body, headers };
    calls.push(call);
    const route = routes[`${method} ${url.pathname}${url.search}`] ?? routes[`${method} ${url.pathname}`];
    const ans: FakeAnswer =
      route === undefined
        ? { status: 404, body: { error: "not found", code: "not_found" } }
        : typeof route === "function"
          ? route(call)
          : route;
    const status = ans.status ?? 200;
    // A string body under another Content-Type than JSON (a snapshot's text/html) goes as it is.
    const raw = typeof ans.body === "string" && !!ans.headers?.["Content-Type"] && !ans.headers["Content-Type"].includes("json");
    return new Response(status === 204 || ans.body === undefined ? null : raw ? (ans.body as string) : JSON.stringify(ans.body), {
      status,
      headers: { "Content-Type": "application/json", ...ans.headers },
    });
  });
  vi.stubGlobal("fetch", fn);
  return { fn, calls };
}

/** renderPage renders ui at `route`, matched by `path`, inside the app's providers. */
export function renderPage(
  ui: ReactElement,
  { route = "/", path = "/", context = testContext() }: { route?: string; path?: string; context?: Context } = {},
) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[route]}>
        <WorkspaceProvider context={context}>
          <Routes>
            <Route path={path} element={ui} />
            <Route path="*" element={<div data-testid="elsewhere" />} />
          </Routes>
        </WorkspaceProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
