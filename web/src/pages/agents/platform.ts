// Which agent download fits the visitor's computer: the operating system and
// processor read from the browser (User-Agent Client Hints when the browser
// has them, else the User-Agent string), and the pick among the hub's
// downloads. Pure functions, so each browser's answer is tested on its own.
import type { AgentArch, AgentDownload, AgentKind, AgentOS } from "../../api/admin";

/** The parts of window.navigator the detection reads. */
export interface NavigatorInfo {
  userAgent: string;
  platform?: string;
  userAgentData?: UAData | null;
}

/** navigator.userAgentData (Chromium browsers, secure contexts only). */
export interface UAData {
  platform?: string;
  mobile?: boolean;
  getHighEntropyValues?: (hints: string[]) => Promise<{ architecture?: string; bitness?: string }>;
}

/**
 * Platform is what the browser tells: os null when it is no desktop system
 * the agent runs on (a phone, a Chromebook) or unknown; arch null when the
 * browser does not tell (every Mac browser says "Intel"), "other" for a
 * processor no agent is built for (32-bit).
 */
export interface Platform {
  os: AgentOS | null;
  arch: AgentArch | "other" | null;
}

const uaPlatforms: Record<string, AgentOS | null> = {
  windows: "windows",
  macos: "macos",
  linux: "linux",
  android: null,
  "chrome os": null,
  chromeos: null,
  ios: null,
};

function osFromUA(ua: string, platform: string): AgentOS | null {
  if (/iPhone|iPad|iPod|Android|CrOS/i.test(ua)) return null;
  if (/Windows/i.test(ua) || /^Win/i.test(platform)) return "windows";
  if (/Macintosh|Mac OS X/i.test(ua) || /^Mac/i.test(platform)) return "macos";
  if (/Linux|X11/i.test(ua) || /^Linux/i.test(platform)) return "linux";
  return null;
}

function archFromUA(s: string): Platform["arch"] {
  if (/\b(aarch64|arm64)\b/i.test(s)) return "arm64";
  if (/\barmv[5-8]l?\b|\barm\b/i.test(s)) return "other";
  if (/x86_64|x86-64|\bamd64\b|\bWin64\b|\bWOW64\b|\bx64\b/i.test(s)) return "amd64";
  if (/\bi[3-6]86\b/i.test(s)) return "other";
  return null;
}

/** detectPlatform reads the OS and processor the browser states without asking it anything. */
export function detectPlatform(nav: NavigatorInfo): Platform {
  const ua = nav.userAgent ?? "";
  const platform = nav.platform ?? "";
  const data = nav.userAgentData;
  let os: AgentOS | null;
  const hinted = data?.platform?.trim().toLowerCase();
  if (data?.mobile) os = null;
  else if (hinted && hinted in uaPlatforms) os = uaPlatforms[hinted];
  else os = osFromUA(ua, platform);
  if (os === null) return { os: null, arch: null };
  // Mac browsers say "Intel Mac OS X" on Apple silicon too: only the hints tell.
  const arch = os === "macos" ? null : archFromUA(`${ua} ${platform}`);
  return { os, arch };
}

/** archFromHints reads the high-entropy client hints architecture ("x86", "arm") and bitness ("64"). */
export function archFromHints(h: { architecture?: string; bitness?: string }): Platform["arch"] {
  const a = (h.architecture ?? "").toLowerCase();
  const bits = h.bitness ?? "";
  if (!a) return null;
  if (bits && bits !== "64") return "other";
  if (a === "arm") return "arm64";
  if (a === "x86") return "amd64";
  return "other";
}

/**
 * refinePlatform asks a Chromium browser for its processor (the User-Agent
 * string of Chrome says x86_64 on every Linux, Intel on every Mac); any
 * failure keeps what the string said.
 */
export async function refinePlatform(nav: NavigatorInfo, p: Platform): Promise<Platform> {
  const ask = nav.userAgentData?.getHighEntropyValues;
  if (!p.os || !ask) return p;
  try {
    const arch = archFromHints(await ask.call(nav.userAgentData, ["architecture", "bitness"]));
    return arch ? { ...p, arch } : p;
  } catch {
    return p;
  }
}

export interface Pick {
  /** The download for the visitor's computer, the preferred kind; null when the hub has none. */
  primary: AgentDownload | null;
  /** The processor was not detected: primary is the likelier one (Apple silicon on a Mac, x86-64 elsewhere). */
  archGuessed: boolean;
  /** Every other download, in the hub's order. */
  others: AgentDownload[];
}

/** pickDownload chooses among the hub's downloads (sorted with the preferred kind first per OS and architecture). */
export function pickDownload(list: AgentDownload[], p: Platform): Pick {
  let primary: AgentDownload | null = null;
  let archGuessed = false;
  if (p.os && p.arch !== "other") {
    const mine = list.filter((d) => d.os === p.os);
    if (p.arch) {
      primary = mine.find((d) => d.arch === p.arch) ?? null;
    } else {
      const likely: AgentArch = p.os === "macos" ? "arm64" : "amd64";
      primary = mine.find((d) => d.arch === likely) ?? mine[0] ?? null;
      archGuessed = primary !== null;
    }
  }
  return { primary, archGuessed, others: list.filter((d) => d !== primary) };
}

/** formatSize writes a byte count as people read it: "812 bytes", "4.2 kB", "12.3 MB". */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "";
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  const units = ["kB", "MB", "GB", "TB"];
  let v = bytes / 1000;
  let i = 0;
  while (v >= 999.95 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v < 100 ? v.toFixed(1) : v.toFixed(0)} ${units[i]}`;
}

export const osNames: Record<AgentOS, string> = { linux: "Linux", windows: "Windows", macos: "macOS" };

/** archName names a processor the way the system's users know it. */
export function archName(os: AgentOS, arch: AgentArch): string {
  if (os === "macos") return arch === "arm64" ? "Apple silicon" : "Intel";
  return arch === "arm64" ? "ARM 64-bit" : "x86-64";
}

export const kindNames: Record<AgentKind, string> = {
  deb: "Debian/Ubuntu package",
  "tar.gz": "archive",
  exe: "installer",
  msi: "Windows Installer package",
  zip: "app",
};

/** systemName: "Linux x86-64", "macOS (Apple silicon)"; null arch reads "Linux". */
export function systemName(os: AgentOS, arch: AgentArch | null): string {
  if (!arch) return osNames[os];
  return os === "macos" ? `macOS (${archName(os, arch)})` : `${osNames[os]} ${archName(os, arch)}`;
}
