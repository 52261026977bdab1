// The development certificate the Windows installer is signed with, beside
// the downloads: what it is, its thumbprint to compare with what Windows
// shows, and how to trust it (or why not) on each system. Windows shows
// the installer's publisher as unknown until the certificate is trusted.
import { agentCertificateHref, type AgentOS, type SigningCertificate } from "../../api/admin";

const systems: { os: AgentOS; title: string }[] = [
  { os: "windows", title: "Windows" },
  { os: "macos", title: "macOS" },
  { os: "linux", title: "Linux" },
];

/** CertificateNote offers the certificate and says how to trust it, the visitor's system opened first. */
export function CertificateNote({ cert, os }: { cert: SigningCertificate; os: AgentOS | null }) {
  const ordered = [...systems].sort((a, b) => Number(b.os === os) - Number(a.os === os));
  return (
    <section className="signing-certificate" aria-labelledby="signing-certificate-title">
      <h3 id="signing-certificate-title">Signing certificate</h3>
      <p>
        The Windows installer is signed with this hub's <strong>development certificate</strong>, which no computer trusts by itself:
        Windows names its publisher as unknown. Trust it only on computers that run tests, after checking its thumbprint, and remove it when
        they stop.
      </p>
      <p>
        <a href={agentCertificateHref} download={cert.file}>
          Download the certificate ({cert.file})
        </a>{" "}
        <span className="muted">
          {cert.subject} · valid until {cert.notAfter.slice(0, 10)}
        </span>
      </p>
      <dl className="fingerprints">
        <dt>Thumbprint (SHA-1, as Windows shows it)</dt>
        <dd>
          <code>{cert.sha1}</code>
        </dd>
        <dt>SHA-256</dt>
        <dd>
          <code>{cert.sha256}</code>
        </dd>
      </dl>
      {ordered.map(({ os: o, title }) => (
        <details key={o} open={o === os}>
          <summary>How to trust it on {title}</summary>
          <TrustSteps os={o} cert={cert} />
        </details>
      ))}
    </section>
  );
}

function TrustSteps({ os, cert }: { os: AgentOS; cert: SigningCertificate }) {
  const verify = `osslsigncode verify -CAfile ${cert.file} -in ta-agent_…_windows_amd64-setup.exe`;
  switch (os) {
    case "windows":
      return (
        <ol className="install-steps">
          <li>
            In PowerShell, in the folder you downloaded it to (for your account only; no administrator rights needed):
            <pre>
              {`Import-Certificate -FilePath .\\${cert.file} -CertStoreLocation Cert:\\CurrentUser\\Root\n`}
              {`Import-Certificate -FilePath .\\${cert.file} -CertStoreLocation Cert:\\CurrentUser\\TrustedPublisher`}
            </pre>
          </li>
          <li>
            Windows asks whether to install a root certificate and shows its thumbprint: check that it is <code>{cert.sha1}</code>, then
            choose Yes.
          </li>
          <li>
            The installer's <em>Properties → Digital Signatures</em> now says the signature is OK. SmartScreen may still warn about a new
            download (it goes by reputation): <em>More info → Run anyway</em>.
          </li>
          <li>
            To remove it later:
            <pre>{`Remove-Item Cert:\\CurrentUser\\Root\\${cert.sha1}, Cert:\\CurrentUser\\TrustedPublisher\\${cert.sha1}`}</pre>
          </li>
        </ol>
      );
    case "macos":
      return (
        <ol className="install-steps">
          <li>
            Nothing to trust: the certificate signs only the Windows installer, and the macOS app is not signed (that takes a Mac and an
            Apple Developer ID). Check the zip against its SHA-256 above, then open the app with Control-click → <em>Open</em> the first
            time.
          </li>
          <li>
            To check a Windows installer's signature from a Mac (<code>brew install osslsigncode</code>):
            <pre>{verify}</pre>
          </li>
        </ol>
      );
    case "linux":
      return (
        <ol className="install-steps">
          <li>
            Nothing to trust: the certificate signs only the Windows installer. Check a package against its SHA-256 above (
            <code>sha256sum</code>).
          </li>
          <li>
            To check a Windows installer's signature:
            <pre>{verify}</pre>
            Do not add the certificate to the system's store (<code>update-ca-certificates</code>): that would trust it for web sites.
          </li>
        </ol>
      );
  }
}
