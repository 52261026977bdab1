import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AgentDownload as Download, SigningCertificate } from "../../api/admin";
import { fakeFetch, renderPage } from "../../test/render";
import { AgentDownload, AgentDownloadLink } from "./AgentDownload";

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const UA = {
  linux: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
  linuxArm: "Mozilla/5.0 (X11; Linux aarch64; rv:128.0) Gecko/20100101 Firefox/128.0",
  windows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  mac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  phone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
};

/** browserSays makes the test browser (jsdom) state another User-Agent. */
function browserSays(ua: string) {
  vi.spyOn(navigator, "userAgent", "get").mockReturnValue(ua);
  vi.spyOn(navigator, "platform", "get").mockReturnValue("");
}

const sum = "3f0a9c1e".repeat(8);
function download(os: Download["os"], arch: Download["arch"], kind: Download["kind"], size = 12_345_678): Download {
  const suffix = { deb: ".deb", "tar.gz": ".tar.gz", exe: "-setup.exe", msi: ".msi", zip: ".zip" }[kind];
  return { os, arch, kind, file: `ta-agent_0.1.0_${os}_${arch}${suffix}`, version: "0.1.0", size, sha256: sum };
}

const linuxBuilds = [
  download("linux", "amd64", "deb"),
  download("linux", "amd64", "tar.gz", 11_000_000),
  download("linux", "arm64", "deb", 11_500_000),
  download("linux", "arm64", "tar.gz", 10_900_000),
];

function serve(downloads: Download[], signingCertificate: SigningCertificate | null = null) {
  return fakeFetch({ "GET /api/agent/download": { body: { downloads, signingCertificate } } });
}

const thumbprint = "A1B2C3D4E5F60718293A4B5C6D7E8F9012345678";
const devCert: SigningCertificate = {
  file: "ta-agent-dev-signing.crt",
  subject: "Test Automation Agent (development)",
  notAfter: "2028-11-27T06:10:00Z",
  sha1: thumbprint,
  sha256: "C0FFEE".repeat(10) + "C0FE",
};

describe("AgentDownload", () => {
  it("says the hub has no installers yet and how its operator builds them", async () => {
    browserSays(UA.linux);
    serve([]);
    renderPage(<AgentDownload />);
    expect(await screen.findByText(/This hub has no agent installers yet/)).toBeInTheDocument();
    expect(screen.getByText("make installers")).toBeInTheDocument();
    expect(screen.getByText("make agent")).toBeInTheDocument();
    expect(screen.queryByRole("link")).not.toBeInTheDocument();
  });

  it("offers the Linux x86-64 package with its facts, steps and the other systems", async () => {
    browserSays(UA.linux);
    serve([...linuxBuilds, download("windows", "amd64", "exe", 900)]);
    renderPage(<AgentDownload />);
    const link = await screen.findByRole("link", { name: "Download the agent for Linux x86-64 (.deb)" });
    expect(link).toHaveAttribute("href", "/api/agent/download?os=linux&arch=amd64&kind=deb");
    expect(link).toHaveAttribute("download", "ta-agent_0.1.0_linux_amd64.deb");
    const primary = link.closest(".download-primary") as HTMLElement;
    expect(within(primary).getByText("ta-agent_0.1.0_linux_amd64.deb")).toBeInTheDocument();
    expect(primary).toHaveTextContent("version 0.1.0");
    expect(within(primary).getByText("12.3 MB")).toHaveAttribute("title", "12345678 bytes");
    expect(within(primary).getByText(sum)).toBeInTheDocument();
    expect(within(primary).getByText("sudo apt install ./ta-agent_0.1.0_linux_amd64.deb")).toBeInTheDocument();
    expect(primary).toHaveTextContent("Start Test Automation Agent from the applications menu (it also starts at login)");
    expect(primary).toHaveTextContent("Open pairing page…");

    const others = screen.getByRole("region", { name: "Other systems" });
    const links = within(others)
      .getAllByRole("link")
      .map((a) => [a.textContent, a.getAttribute("href")]);
    expect(links).toEqual([
      ["Linux x86-64 (.tar.gz)", "/api/agent/download?os=linux&arch=amd64&kind=tar.gz"],
      ["Linux ARM 64-bit (.deb)", "/api/agent/download?os=linux&arch=arm64&kind=deb"],
      ["Linux ARM 64-bit (.tar.gz)", "/api/agent/download?os=linux&arch=arm64&kind=tar.gz"],
      ["Windows x86-64 (.exe)", "/api/agent/download?os=windows&arch=amd64&kind=exe"],
    ]);
    const tarItem = within(others).getByRole("link", { name: "Linux x86-64 (.tar.gz)" }).closest("li") as HTMLElement;
    expect(tarItem).toHaveTextContent("archive · 11.0 MB");
    expect(within(others).getByRole("link", { name: "Windows x86-64 (.exe)" }).closest("li")).toHaveTextContent("installer · 900 bytes");
    expect(within(others).getByText("tar xzf ta-agent_0.1.0_linux_amd64.tar.gz && ./ta-agent/ta-agent")).toBeInTheDocument();
  });

  it("offers the ARM build to an aarch64 Linux", async () => {
    browserSays(UA.linuxArm);
    serve(linuxBuilds);
    renderPage(<AgentDownload />);
    expect(await screen.findByRole("link", { name: "Download the agent for Linux ARM 64-bit (.deb)" })).toHaveAttribute(
      "href",
      "/api/agent/download?os=linux&arch=arm64&kind=deb",
    );
  });

  it("says when the visitor's system has no build, and still lists the others", async () => {
    browserSays(UA.windows);
    serve(linuxBuilds);
    renderPage(<AgentDownload />);
    expect(await screen.findByText(/This hub has no agent for your system \(Windows x86-64\)/)).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: /Download the agent/ })).not.toBeInTheDocument();
    expect(within(screen.getByRole("region", { name: "Other systems" })).getAllByRole("link")).toHaveLength(4);
  });

  it("sends a phone's visitor to the computer that runs the tests", async () => {
    browserSays(UA.phone);
    serve(linuxBuilds);
    renderPage(<AgentDownload />);
    expect(await screen.findByText(/download it on the computer that should run your tests/)).toBeInTheDocument();
    expect(within(screen.getByRole("region", { name: "Other systems" })).getAllByRole("link")).toHaveLength(4);
  });

  it("offers a Mac the Apple silicon app and says the processor was guessed", async () => {
    browserSays(UA.mac);
    serve([download("macos", "amd64", "zip"), download("macos", "arm64", "zip")]);
    renderPage(<AgentDownload />);
    const link = await screen.findByRole("link", { name: "Download the agent for macOS (Apple silicon) (.zip)" });
    expect(link).toHaveAttribute("href", "/api/agent/download?os=macos&arch=arm64&kind=zip");
    expect(
      screen.getByText(/Your browser does not tell which processor this computer has: this is the Apple silicon build/),
    ).toBeInTheDocument();
    expect(link.closest(".download-primary")).toHaveTextContent("Unzip it and open the app");
    expect(
      within(screen.getByRole("region", { name: "Other systems" })).getByRole("link", { name: "macOS (Intel) (.zip)" }),
    ).toBeInTheDocument();
  });

  it("tells Windows users to run the installer", async () => {
    browserSays(UA.windows);
    serve([download("windows", "amd64", "exe")]);
    renderPage(<AgentDownload />);
    await screen.findByRole("link", { name: "Download the agent for Windows x86-64 (.exe)" });
    expect(screen.getByText(/Run it and follow the installer/)).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Other systems" })).not.toBeInTheDocument();
  });

  it("offers the signing certificate beside a Windows installer and says how to trust it there first", async () => {
    browserSays(UA.windows);
    serve([download("windows", "amd64", "exe"), ...linuxBuilds], devCert);
    renderPage(<AgentDownload />);
    const link = await screen.findByRole("link", { name: "Download the agent for Windows x86-64 (.exe)" });
    expect(link.closest(".download-primary")).toHaveTextContent(
      "Windows names the installer's publisher as unknown until you trust this hub's signing certificate (below).",
    );
    const note = screen.getByRole("region", { name: "Signing certificate" });
    const cert = within(note).getByRole("link", { name: "Download the certificate (ta-agent-dev-signing.crt)" });
    expect(cert).toHaveAttribute("href", "/api/agent/download/certificate");
    expect(cert).toHaveAttribute("download", "ta-agent-dev-signing.crt");
    expect(note).toHaveTextContent("Test Automation Agent (development) · valid until 2028-11-27");
    expect(within(note).getAllByText(thumbprint)[0]).toBeInTheDocument();
    const details = [...note.querySelectorAll("details")];
    expect(details.map((d) => [d.querySelector("summary")?.textContent, d.open])).toEqual([
      ["How to trust it on Windows", true],
      ["How to trust it on macOS", false],
      ["How to trust it on Linux", false],
    ]);
    expect(details[0]).toHaveTextContent(
      "Import-Certificate -FilePath .\\ta-agent-dev-signing.crt -CertStoreLocation Cert:\\CurrentUser\\Root",
    );
    expect(details[0]).toHaveTextContent("Cert:\\CurrentUser\\TrustedPublisher");
    expect(details[0]).toHaveTextContent(`check that it is ${thumbprint}`);
    expect(details[0]).toHaveTextContent(`Remove-Item Cert:\\CurrentUser\\Root\\${thumbprint}`);
  });

  it("tells a Linux visitor there is nothing to trust there, and not to trust it for web sites", async () => {
    browserSays(UA.linux);
    serve([...linuxBuilds, download("windows", "amd64", "exe")], devCert);
    renderPage(<AgentDownload />);
    const note = await screen.findByRole("region", { name: "Signing certificate" });
    const first = note.querySelector("details") as HTMLDetailsElement;
    expect(first.open).toBe(true);
    expect(first).toHaveTextContent("How to trust it on Linux");
    expect(first).toHaveTextContent("Nothing to trust: the certificate signs only the Windows installer.");
    expect(first).toHaveTextContent("osslsigncode verify -CAfile ta-agent-dev-signing.crt -in");
    expect(first).toHaveTextContent("Do not add the certificate to the system's store (update-ca-certificates)");
    expect(screen.queryByText(/publisher as unknown until you trust/)).not.toBeInTheDocument();
  });

  it("says nothing of a certificate when the hub has none (a real one signs the installer)", async () => {
    browserSays(UA.windows);
    serve([download("windows", "amd64", "exe")]);
    renderPage(<AgentDownload />);
    await screen.findByRole("link", { name: "Download the agent for Windows x86-64 (.exe)" });
    expect(screen.queryByRole("region", { name: "Signing certificate" })).not.toBeInTheDocument();
    expect(screen.queryByText(/signing certificate/)).not.toBeInTheDocument();
  });

  it("copies the checksum", async () => {
    browserSays(UA.linux);
    serve(linuxBuilds.slice(0, 1));
    const user = userEvent.setup();
    renderPage(<AgentDownload />);
    await user.click(await screen.findByRole("button", { name: "Copy the SHA-256 of ta-agent_0.1.0_linux_amd64.deb" }));
    expect(await navigator.clipboard.readText()).toBe(sum);
    expect(screen.getByRole("button", { name: /Copy the SHA-256/ })).toHaveTextContent("Copied");
  });

  it("shows the hub's error", async () => {
    browserSays(UA.linux);
    fakeFetch({ "GET /api/agent/download": { status: 500, body: { error: "the downloads folder is unreadable", code: "internal" } } });
    renderPage(<AgentDownload />);
    expect(await screen.findByRole("alert")).toHaveTextContent("The agent's downloads could not be listed");
  });
});

describe("AgentDownloadLink", () => {
  it("is one link to this computer's download", async () => {
    browserSays(UA.linux);
    serve(linuxBuilds);
    renderPage(<AgentDownloadLink />);
    const link = await screen.findByRole("link", { name: "Download the agent for Linux x86-64" });
    expect(link).toHaveAttribute("href", "/api/agent/download?os=linux&arch=amd64&kind=deb");
    expect(screen.getAllByRole("link")).toHaveLength(1);
    expect(screen.getByText("12.3 MB")).toBeInTheDocument();
  });

  it("is nothing without a build for this computer", async () => {
    browserSays(UA.windows);
    const { fn } = serve(linuxBuilds);
    const { container } = renderPage(<AgentDownloadLink />);
    await vi.waitFor(() => expect(fn).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 20));
    expect(container).toBeEmptyDOMElement();
  });
});
