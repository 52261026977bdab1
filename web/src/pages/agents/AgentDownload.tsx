// The desktop agent's download for the visitor's computer: the hub's
// installer matching the detected system as one link (a plain link, so the
// browser sends the session cookie and saves the file), its checksum, how
// to install it, and every other system's download. The package carries
// this hub's address, so the installed agent pairs with it unasked.
import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { agentDownloadHref, agentDownloadsKey, listAgentDownloads, type AgentDownload as Download, type AgentKind } from "../../api/admin";
import { ErrorBox, Loading } from "../../components/ui";
import "./agents.css";
import { CertificateNote } from "./SigningCertificate";
import {
  archName,
  detectPlatform,
  formatSize,
  kindNames,
  pickDownload,
  refinePlatform,
  systemName,
  type NavigatorInfo,
  type Platform,
} from "./platform";

/** usePlatform is the visitor's system: what the browser states at once, refined by its client hints. */
export function usePlatform(): Platform {
  const nav = navigator as unknown as NavigatorInfo;
  const [platform, setPlatform] = useState(() => detectPlatform(nav));
  useEffect(() => {
    let live = true;
    void refinePlatform(nav, detectPlatform(nav)).then((p) => {
      if (live) setPlatform((old) => (old.os === p.os && old.arch === p.arch ? old : p));
    });
    return () => {
      live = false;
    };
  }, []); // once per mount
  return platform;
}

function useDownloads(quiet = false) {
  return useQuery({ queryKey: agentDownloadsKey, queryFn: listAgentDownloads, staleTime: 60_000, ...(quiet ? { retry: false } : {}) });
}

const suffixes: Record<AgentKind, string> = { deb: ".deb", "tar.gz": ".tar.gz", exe: ".exe", msi: ".msi", zip: ".zip" };

/** AgentDownload offers the agent for this computer, how to install it, and the other systems' downloads. */
export function AgentDownload() {
  const platform = usePlatform();
  const downloads = useDownloads();
  if (downloads.isPending) return <Loading label="Looking for the agent's installers" />;
  if (downloads.isError) return <ErrorBox error={downloads.error} title="The agent's downloads could not be listed" />;
  const { downloads: list, signingCertificate: cert } = downloads.data;
  if (list.length === 0) {
    return (
      <div className="agent-download">
        <p className="notice">
          This hub has no agent installers yet. Its operator builds them with <code>make installers</code> (see the README). Developers on
          the hub's own machine can start a headless agent with <code>make agent</code>.
        </p>
      </div>
    );
  }
  const { primary, archGuessed, others } = pickDownload(list, platform);
  return (
    <div className="agent-download">
      {primary ? (
        <div className="download-primary">
          <a className="button primary" href={agentDownloadHref(primary)} download={primary.file}>
            Download the agent for {systemName(primary.os, primary.arch)} ({suffixes[primary.kind]})
          </a>
          <FileFacts d={primary} />
          {archGuessed && (
            <p className="hint">
              Your browser does not tell which processor this computer has: this is the {archName(primary.os, primary.arch)} build. If yours
              differs, pick another under Other systems.
            </p>
          )}
          <InstallSteps d={primary} />
          {cert && (primary.kind === "exe" || primary.kind === "msi") && (
            <p className="hint">
              Windows names the installer's publisher as unknown until you trust this hub's signing certificate (below).
            </p>
          )}
        </div>
      ) : (
        <p className="notice">{noMatch(platform)}</p>
      )}
      {others.length > 0 && (
        <section className="other-systems" aria-labelledby="other-systems-title">
          <h3 id="other-systems-title">Other systems</h3>
          <ul>
            {others.map((d) => (
              <li key={d.file}>
                <a href={agentDownloadHref(d)} download={d.file}>
                  {systemName(d.os, d.arch)} ({suffixes[d.kind]})
                </a>{" "}
                <span className="muted">
                  {kindNames[d.kind]} · <Size bytes={d.size} />
                </span>
                <details>
                  <summary>How to install, checksum</summary>
                  <FileFacts d={d} />
                  <InstallSteps d={d} />
                </details>
              </li>
            ))}
          </ul>
        </section>
      )}
      {cert && <CertificateNote cert={cert} os={platform.os} />}
    </div>
  );
}

function noMatch(p: Platform): string {
  if (!p.os) {
    return "The agent runs on Windows, macOS and Linux, and your browser does not say it runs on one of them: download it on the computer that should run your tests, from the list below.";
  }
  const arch = p.arch === "other" ? " on this processor" : p.arch ? ` ${archName(p.os, p.arch)}` : "";
  return `This hub has no agent for your system (${systemName(p.os, null)}${arch}). Pick another below, or ask the hub's operator to build it.`;
}

function Size({ bytes }: { bytes: number }) {
  return <span title={`${bytes} bytes`}>{formatSize(bytes)}</span>;
}

/** FileFacts names the file, its version and size, and its SHA-256 to check it against. */
function FileFacts({ d }: { d: Download }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(d.sha256);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="download-facts">
      <p>
        <code>{d.file}</code> · version {d.version} · <Size bytes={d.size} />
      </p>
      <p className="sha256">
        SHA-256 <code>{d.sha256}</code>{" "}
        <button type="button" className="small" aria-label={`Copy the SHA-256 of ${d.file}`} onClick={copy}>
          {copied ? "Copied" : "Copy"}
        </button>
        {copied === false && <span className="muted"> the browser refused: select it to copy</span>}
      </p>
    </div>
  );
}

/** InstallSteps tells how to install and start one kind of download until it asks for approval. */
export function InstallSteps({ d }: { d: Download }) {
  const approve = (
    <li>
      It opens this hub's approval page in your browser with its pairing code (or choose <em>Open pairing page…</em> in its tray menu):
      approve it.
    </li>
  );
  switch (d.kind) {
    case "deb":
      return (
        <ol className="install-steps">
          <li>
            In the folder you downloaded it to, install it:
            <pre>sudo apt install ./{d.file}</pre>
          </li>
          <li>
            Start <strong>Test Automation Agent</strong> from the applications menu (it also starts at login).
          </li>
          {approve}
        </ol>
      );
    case "tar.gz":
      return (
        <ol className="install-steps">
          <li>
            In the folder you downloaded it to, unpack and start it:
            <pre>tar xzf {d.file} && ./ta-agent/ta-agent</pre>
          </li>
          {approve}
        </ol>
      );
    case "exe":
    case "msi":
      return (
        <ol className="install-steps">
          <li>
            Run it and follow the installer; on its <em>Your hub</em> page enter <code>{window.location.origin}</code>, and it starts the
            agent. Or install it without questions from a command prompt in the download folder:
            <pre>
              {d.file} /S /HUB={window.location.origin}
            </pre>
          </li>
          {approve}
        </ol>
      );
    case "zip":
      return (
        <ol className="install-steps">
          <li>Unzip it and open the app (the first time, macOS may ask you to confirm opening an app downloaded from the internet).</li>
          {approve}
        </ol>
      );
  }
}

/**
 * AgentDownloadLink is the compact offer (the banner's): one link to the
 * download for this computer, or nothing when the hub has none; failures
 * stay silent.
 */
export function AgentDownloadLink() {
  const platform = usePlatform();
  const downloads = useDownloads(true);
  const d = downloads.data ? pickDownload(downloads.data.downloads, platform).primary : null;
  if (!d) return null;
  return (
    <span className="download-link">
      <a href={agentDownloadHref(d)} download={d.file}>
        Download the agent for {systemName(d.os, d.arch)}
      </a>{" "}
      <span className="muted">
        ({suffixes[d.kind]}, <Size bytes={d.size} />)
      </span>
    </span>
  );
}
