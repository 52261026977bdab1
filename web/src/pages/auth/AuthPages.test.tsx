import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { render } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch } from "../../test/render";
import { LoginPage, RegisterPage, ResetPage, safeNext } from "./AuthPages";

function renderAuth(ui: React.ReactElement, route: string, path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route path={path} element={ui} />
          <Route path="*" element={<div data-testid="landed" />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("safeNext", () => {
  it("keeps paths on this site and refuses others", () => {
    expect(safeNext("/pair/K7Q-4MP")).toBe("/pair/K7Q-4MP");
    expect(safeNext("//evil.example")).toBe("/");
    expect(safeNext("https://evil.example")).toBe("/");
    expect(safeNext(null)).toBe("/");
  });
});

describe("LoginPage", () => {
  it("signs in and returns to the page that asked", async () => {
    const { calls } = fakeFetch({
      "GET /api/auth/session": { body: null },
      "POST /api/auth/login": { body: { id: "usr_1", name: "A", email: "a@x.io", platformAdmin: false, createdAt: "" } },
    });
    renderAuth(<LoginPage />, "/login?next=%2Fpair%2FABC-123", "/login");
    await userEvent.type(await screen.findByLabelText("Email"), "a@x.io");
    await userEvent.type(screen.getByLabelText("Password"), "secret-secret");
    await userEvent.click(screen.getByRole("button", { name: "Sign in" }));
    await screen.findByTestId("landed");
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ email: "a@x.io", password: "secret-secret" });
  });

  it("shows the hub's answer to a wrong password and to too many attempts", async () => {
    let n = 0;
    fakeFetch({
      "GET /api/auth/session": { body: null },
      "POST /api/auth/login": () =>
        ++n === 1
          ? { status: 401, body: { error: "email or password is incorrect", code: "invalid_credentials" } }
          : { status: 429, body: { error: "too many sign-in attempts.", code: "too_many_attempts" }, headers: { "Retry-After": "600" } },
    });
    renderAuth(<LoginPage />, "/login", "/login");
    await userEvent.type(await screen.findByLabelText("Email"), "a@x.io");
    await userEvent.type(screen.getByLabelText("Password"), "nope-nope-nope");
    await userEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("email or password is incorrect");
    await userEvent.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent("Try again in 10 minute(s)"));
  });
});

describe("RegisterPage", () => {
  it("shows each issue beside its field", async () => {
    fakeFetch({
      "POST /api/auth/register": {
        status: 422,
        body: {
          error: "invalid input",
          code: "invalid",
          issues: [{ path: "password", message: "password must be at least 10 characters", code: "too_short" }],
        },
      },
    });
    renderAuth(<RegisterPage />, "/register", "/register");
    await userEvent.type(screen.getByLabelText("Name"), "Ann");
    await userEvent.type(screen.getByLabelText("Email"), "ann@x.io");
    const pw = screen.getByLabelText("Password");
    pw.removeAttribute("minlength");
    await userEvent.type(pw, "short");
    await userEvent.click(screen.getByRole("button", { name: "Create account" }));
    expect(await screen.findByText("password must be at least 10 characters")).toBeInTheDocument();
  });
});

describe("ResetPage", () => {
  it("reads the token from the address and refuses differing passwords", async () => {
    const { calls } = fakeFetch({ "POST /api/auth/reset": { status: 204 } });
    renderAuth(<ResetPage />, "/reset?token=tok123", "/reset");
    await userEvent.type(screen.getByLabelText("New password"), "a-long-password");
    await userEvent.type(screen.getByLabelText("Repeat the new password"), "another-password");
    await userEvent.click(screen.getByRole("button", { name: "Set password" }));
    expect(screen.getByText("The two passwords differ.")).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await userEvent.clear(screen.getByLabelText("Repeat the new password"));
    await userEvent.type(screen.getByLabelText("Repeat the new password"), "a-long-password");
    await userEvent.click(screen.getByRole("button", { name: "Set password" }));
    await screen.findByTestId("landed");
    expect(calls[0].body).toEqual({ token: "tok123", password: "a-long-password" });
  });
});
