import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage } from "../../test/render";
import { AgentBanner } from "./AgentBanner";
import { AgentsPage, WRONG_CODE_MESSAGE } from "./AgentsPage";
import { EXPIRED_MESSAGE, GONE_MESSAGE, PairPage } from "./PairPage";

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

function linuxBrowser() {
  vi.spyOn(navigator, "userAgent", "get").mockReturnValue("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0");
}

const builds = [
  {
    os: "linux",
    arch: "amd64",
    kind: "deb",
    file: "ta-agent_0.1.0_linux_amd64.deb",
    version: "0.1.0",
    size: 12_345_678,
    sha256: "ab".repeat(32),
  },
  {
    os: "windows",
    arch: "amd64",
    kind: "exe",
    file: "ta-agent_0.1.0_windows_amd64-setup.exe",
    version: "0.1.0",
    size: 9_000_000,
    sha256: "cd".repeat(32),
  },
];

const laptop = {
  id: "agt_laptop000000000000",
  name: "mia-laptop",
  os: "linux",
  connected: true,
  busy: 1,
  headless: false,
  display: true,
  state: "busy",
  labels: [] as string[],
  browserVersion: "Chrome/131.0.6778.85",
  lastSeen: "2026-11-02T10:00:00Z",
  createdAt: "2026-11-01T10:00:00Z",
};

describe("AgentBanner", () => {
  it("shows when an agent is needed, with a link to pairing", async () => {
    fakeFetch({ "GET /api/agent": { body: { agents: [], needed: true } } });
    renderPage(<AgentBanner />, { route: "/tests", path: "/tests" });
    const banner = await screen.findByRole("status");
    expect(banner).toHaveClass("banner");
    expect(banner).toHaveTextContent("Runs need a paired agent: a computer running the desktop agent executes them.");
    expect(within(banner).getByRole("link", { name: "Pair a computer" })).toHaveAttribute("href", "/agents");
  });

  it("offers the agent's download for this computer", async () => {
    linuxBrowser();
    fakeFetch({ "GET /api/agent": { body: { agents: [], needed: true } }, "GET /api/agent/download": { body: { downloads: builds } } });
    renderPage(<AgentBanner />, { route: "/tests", path: "/tests" });
    const link = await screen.findByRole("link", { name: "Download the agent for Linux x86-64" });
    expect(link).toHaveAttribute("href", "/api/agent/download?os=linux&arch=amd64&kind=deb");
    expect(link).toHaveAttribute("download", "ta-agent_0.1.0_linux_amd64.deb");
    const banner = screen.getByRole("status");
    expect(banner).toHaveTextContent("(.deb, 12.3 MB)");
    expect(within(banner).getByRole("link", { name: "Pair a computer" })).toHaveAttribute("href", "/agents");
    expect(document.body.textContent).not.toMatch(/go run/);
  });

  it("stays hidden when an agent is connected", async () => {
    const { fn } = fakeFetch({ "GET /api/agent": { body: { agents: [laptop], needed: false } } });
    const { container } = renderPage(<AgentBanner />, { route: "/", path: "/" });
    await waitFor(() => expect(fn).toHaveBeenCalled());
    // Inside act: the answer arriving meanwhile updates the banner.
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(container).toBeEmptyDOMElement();
  });

  it("stays hidden on the agents and pairing pages", async () => {
    const { fn } = fakeFetch({ "GET /api/agent": { body: { agents: [], needed: true } } });
    const a = renderPage(<AgentBanner />, { route: "/agents", path: "/agents" });
    expect(a.container).toBeEmptyDOMElement();
    a.unmount();
    const b = renderPage(<AgentBanner />, { route: "/pair/K7Q-4MP", path: "/pair/:code" });
    // Inside act: the answer arriving meanwhile updates the banner.
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(b.container).toBeEmptyDOMElement();
    expect(fn).not.toHaveBeenCalled();
  });

  it("says nothing when the poll fails", async () => {
    const { fn } = fakeFetch({ "GET /api/agent": { status: 500, body: { error: "boom", code: "internal" } } });
    const { container } = renderPage(<AgentBanner />, { route: "/", path: "/" });
    await waitFor(() => expect(fn).toHaveBeenCalled());
    // Inside act: the answer arriving meanwhile updates the banner.
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(container).toBeEmptyDOMElement();
  });
});

describe("AgentsPage", () => {
  it("lists paired computers and disconnects one after confirming", async () => {
    const { calls } = fakeFetch({
      "GET /api/agent": {
        body: {
          agents: [laptop, { ...laptop, id: "agt_desk00000000000000", name: "desk", connected: false, busy: 0, state: "offline" }],
          needed: false,
        },
      },
      "DELETE /api/agent/agt_laptop000000000000": { status: 204 },
    });
    const user = userEvent.setup();
    renderPage(<AgentsPage />, { route: "/agents", path: "/agents" });
    const row = (await screen.findByText("mia-laptop")).closest("tr")!;
    expect(within(row).getByText("Connected")).toBeInTheDocument();
    expect(within(row).getByText("Running 1 run")).toBeInTheDocument();
    expect(within(screen.getByText("desk").closest("tr")!).getByText("Offline")).toBeInTheDocument();
    await user.click(within(row).getByRole("button", { name: "Disconnect mia-laptop" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Disconnect" }));
    await waitFor(() => expect(calls.some((c) => c.method === "DELETE")).toBe(true));
  });

  it("warns of a connection refused with a computer's token and rotates the token", async () => {
    let rotated = false;
    const refused = { ...laptop, connectedFrom: "192.0.2.10", refusedAt: "2026-11-02T09:30:00Z", refusedFrom: "203.0.113.7" };
    const { calls } = fakeFetch({
      "GET /api/agent": () => ({
        body: { agents: [rotated ? { ...laptop, refusedAt: null, refusedFrom: null } : refused], needed: false },
      }),
      "POST /api/agent/agt_laptop000000000000/token": () => {
        rotated = true;
        return { status: 204 };
      },
    });
    const user = userEvent.setup();
    renderPage(<AgentsPage />, { route: "/agents", path: "/agents" });
    const alert = (await screen.findByText(/Someone tried to connect/)).closest<HTMLElement>("[role=alert]")!;
    expect(alert).toHaveTextContent("Someone tried to connect with this computer's token at");
    expect(alert).toHaveTextContent("from 203.0.113.7");
    expect(alert).toHaveTextContent("It is connected now from 192.0.2.10.");
    expect(within(alert).getByText(/2026/)).toHaveAttribute("datetime", "2026-11-02T09:30:00Z");
    await user.click(within(alert).getByRole("button", { name: "Rotate the token of mia-laptop" }));
    const dialog = screen.getByRole("dialog");
    expect(dialog).toHaveTextContent("the old token no longer works");
    await user.click(within(dialog).getByRole("button", { name: "Rotate token" }));
    expect(await screen.findByText(/has a new token; the old one no longer works/)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "POST").map((c) => c.path)).toEqual(["/api/agent/agt_laptop000000000000/token"]);
    await waitFor(() => expect(screen.queryByText(/Someone tried to connect/)).not.toBeInTheDocument());
  });

  it("says why a computer that is not connected cannot be rotated", async () => {
    const away = { ...laptop, connected: false, busy: 0, refusedAt: "2026-11-02T09:30:00Z", refusedFrom: "203.0.113.7" };
    fakeFetch({
      "GET /api/agent": { body: { agents: [away], needed: true } },
      "POST /api/agent/agt_laptop000000000000/token": {
        status: 409,
        body: { error: "this computer is not connected, so its token cannot be rotated", code: "agent_not_connected" },
      },
    });
    const user = userEvent.setup();
    renderPage(<AgentsPage />, { route: "/agents", path: "/agents" });
    await user.click(await screen.findByRole("button", { name: "Rotate the token of mia-laptop" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Rotate token" }));
    expect(await within(screen.getByRole("dialog")).findByText(/this computer is not connected/)).toBeInTheDocument();
  });

  it("explains how to pair and opens a typed code", async () => {
    linuxBrowser();
    fakeFetch({ "GET /api/agent": { body: { agents: [], needed: true } }, "GET /api/agent/download": { body: { downloads: builds } } });
    const user = userEvent.setup();
    renderPage(<AgentsPage />, { route: "/agents", path: "/agents" });
    const help = screen.getByRole("region", { name: "How to pair a computer" });
    // Step 1 is the download for this computer.
    const link = await within(help).findByRole("link", { name: "Download the agent for Linux x86-64 (.deb)" });
    expect(link).toHaveAttribute("href", "/api/agent/download?os=linux&arch=amd64&kind=deb");
    expect(link.closest("li")).toBe(within(help).getAllByRole("listitem")[0]);
    expect(within(help).getByRole("region", { name: "Other systems" })).toHaveTextContent("Windows x86-64 (.exe)");
    expect(within(help).getByRole("heading", { name: "Advanced: headless on a server" })).toBeInTheDocument();
    expect(within(help).getByText(`ta-agent --headless --hub ${window.location.origin}`)).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/go run|bin\/agent/);
    await user.type(screen.getByLabelText("Pairing code"), "k7q4mp");
    await user.click(screen.getByRole("button", { name: "Open" }));
    expect(await screen.findByTestId("elsewhere")).toBeInTheDocument();
  });
  it("says the hub has no installers yet, and never to go run the agent", async () => {
    fakeFetch({ "GET /api/agent": { body: { agents: [], needed: true } }, "GET /api/agent/download": { body: { downloads: [] } } });
    renderPage(<AgentsPage />, { route: "/agents", path: "/agents" });
    const help = screen.getByRole("region", { name: "How to pair a computer" });
    expect(await within(help).findByText(/This hub has no agent installers yet/)).toHaveTextContent(
      "Its operator builds them with make installers",
    );
    await screen.findByText("You have no paired computer yet: your runs wait as queued until one connects.");
    expect(document.body.textContent).not.toMatch(/go run|bin\/agent/);
  });
});

describe("PairPage", () => {
  const pairing = {
    code: "K7Q-4MP",
    hostname: "mia-laptop",
    os: "linux",
    requestedAt: "2026-11-02T10:00:00Z",
    expiresAt: "2099-01-01T00:00:00Z",
  };

  it("shows the computer and approves it", async () => {
    const { calls } = fakeFetch({
      "GET /api/agent/pair/K7Q-4MP": { body: pairing },
      "POST /api/agent/pair/K7Q-4MP": { status: 201, body: laptop },
      "GET /api/agent": { body: { agents: [laptop], needed: false } },
    });
    const user = userEvent.setup();
    renderPage(<PairPage />, { route: "/pair/K7Q-4MP", path: "/pair/:code" });
    expect(await screen.findByRole("heading", { name: "Approve this computer?" })).toBeInTheDocument();
    expect(screen.getByText("mia-laptop")).toBeInTheDocument();
    expect(screen.getByText("linux")).toBeInTheDocument();
    expect(screen.getByText("K7Q-4MP")).toBeInTheDocument();
    expect(
      screen.getByText(/It will run the tests you start, with your permissions, and receive the secrets of those runs/),
    ).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Approve" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Paired: mia-laptop is now connected");
    expect(screen.getByRole("link", { name: "See your computers" })).toHaveAttribute("href", "/agents");
    expect(calls.find((c) => c.method === "POST")?.path).toBe("/api/agent/pair/K7Q-4MP");
  });

  it("explains an unknown or expired code", async () => {
    fakeFetch({
      "GET /api/agent/pair/ZZZ-999": { status: 404, body: { error: "no computer is waiting with this code", code: "not_found" } },
    });
    renderPage(<PairPage />, { route: "/pair/ZZZ-999", path: "/pair/:code" });
    expect(await screen.findByRole("alert")).toHaveTextContent(EXPIRED_MESSAGE);
    expect(screen.queryByRole("button", { name: "Approve" })).not.toBeInTheDocument();
  });

  it("says a code this browser approved was approved, when the hub no longer knows it", async () => {
    sessionStorage.setItem("ta.pairedCodes", JSON.stringify({ "K7Q-4MP": "mia-laptop" }));
    fakeFetch({ "GET /api/agent/pair/K7Q-4MP": { status: 404, body: { error: "gone", code: "not_found" } } });
    renderPage(<PairPage />, { route: "/pair/k7q-4mp", path: "/pair/:code" });
    expect(await screen.findByText(/You already approved code/)).toHaveTextContent(
      "You already approved code K7Q-4MP: mia-laptop is paired.",
    );
  });

  it("lists computers waiting near the user without their codes and approves one with the code it shows", async () => {
    let pending = [
      { id: "pnd_desktop000000000000", hostname: "mia-desktop", os: "linux", since: new Date(Date.now() - 3 * 60_000).toISOString() },
    ];
    const { calls } = fakeFetch({
      "GET /api/agent": { body: { agents: [], needed: true } },
      "GET /api/agent/pending": () => ({ body: { pending } }),
      "POST /api/agent/pair/ZZZ-999": { status: 404, body: { error: "no computer is waiting with this code", code: "not_found" } },
      "POST /api/agent/pair/K7Q-4MP": () => {
        pending = [];
        return { status: 201, body: { ...laptop, name: "mia-desktop", busy: 0, headless: false } };
      },
    });
    renderPage(<AgentsPage />, { route: "/agents", path: "/agents" });
    const section = await screen.findByRole("region", { name: "Computers waiting for approval" });
    expect(section).toHaveTextContent("mia-desktop linux · waiting for 3 minutes");
    expect(screen.queryByLabelText("Code shown on mia-desktop")).not.toBeInTheDocument();
    await userEvent.click(within(section).getByRole("button", { name: "Approve mia-desktop" }));
    const field = within(section).getByLabelText("Code shown on mia-desktop");
    expect(within(section).getByRole("button", { name: "Pair" })).toBeDisabled();
    expect(calls.filter((c) => c.method === "POST")).toEqual([]);

    await userEvent.type(field, "zzz999");
    await userEvent.click(within(section).getByRole("button", { name: "Pair" }));
    expect(await within(section).findByRole("alert")).toHaveTextContent(`The computer was not paired: ${WRONG_CODE_MESSAGE}`);

    await userEvent.clear(field);
    await userEvent.type(field, "k7q4mp");
    await userEvent.click(within(section).getByRole("button", { name: "Pair" }));
    expect(await within(section).findByRole("status")).toHaveTextContent("Paired: mia-desktop is now one of your computers.");
    expect(calls.filter((c) => c.method === "POST").map((c) => c.path)).toEqual(["/api/agent/pair/ZZZ-999", "/api/agent/pair/K7Q-4MP"]);
  });

  it("shows no waiting section when no computer waits", async () => {
    const { fn } = fakeFetch({
      "GET /api/agent": { body: { agents: [laptop], needed: false } },
      "GET /api/agent/pending": { body: { pending: [] } },
      "GET /api/agent/download": { body: { downloads: [] } },
    });
    renderPage(<AgentsPage />, { route: "/agents", path: "/agents" });
    await screen.findByText("mia-laptop");
    await waitFor(() => expect(fn).toHaveBeenCalledTimes(3)); // agents, pending, downloads
    expect(screen.queryByText("Computers waiting for approval")).not.toBeInTheDocument();
  });

  it("marks a computer without a display", async () => {
    fakeFetch({ "GET /api/agent": { body: { agents: [{ ...laptop, headless: true, display: false }], needed: false } } });
    renderPage(<AgentsPage />, { route: "/agents", path: "/agents" });
    expect(await screen.findByText("No display")).toHaveAttribute("title", "This computer has no display: headed runs never go to it.");
  });

  it("renames a computer and sets its labels", async () => {
    const { calls } = fakeFetch({
      "GET /api/agent": { body: { agents: [{ ...laptop, labels: ["linux"] }], needed: false } },
      "PUT /api/agent/agt_laptop000000000000": { body: { ...laptop, name: "Office box", labels: ["linux", "vpn"] } },
    });
    const user = userEvent.setup();
    renderPage(<AgentsPage />, { route: "/agents", path: "/agents" });
    expect(within(await screen.findByLabelText("Labels of mia-laptop")).getByText("linux")).toBeInTheDocument();
    expect(screen.getByText("Chrome/131.0.6778.85")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Edit mia-laptop" }));
    const dialog = screen.getByRole("dialog");
    await user.clear(within(dialog).getByLabelText("Name"));
    await user.type(within(dialog).getByLabelText("Name"), "Office box");
    await user.type(within(dialog).getByLabelText("Labels"), ", vpn vpn");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    expect(calls.find((c) => c.method === "PUT")?.body).toEqual({ name: "Office box", labels: ["linux", "vpn"] });
  });

  it("marks a CI command's agent", async () => {
    fakeFetch({ "GET /api/agent": { body: { agents: [{ ...laptop, name: "CI on build-7", ephemeral: true }], needed: false } } });
    renderPage(<AgentsPage />, { route: "/agents", path: "/agents" });
    expect(await screen.findByText("CI")).toHaveAttribute("title", expect.stringContaining("ta-agent ci"));
  });

  it("says a computer that stopped waiting is gone", async () => {
    fakeFetch({
      "GET /api/agent/pair/K7Q-4MP": {
        status: 410,
        body: { error: "this computer is no longer waiting", code: "pairing_gone" },
      },
    });
    renderPage(<PairPage />, { route: "/pair/K7Q-4MP", path: "/pair/:code" });
    expect(await screen.findByRole("alert")).toHaveTextContent(GONE_MESSAGE);
    expect(screen.queryByRole("button", { name: "Approve" })).not.toBeInTheDocument();
  });
});
