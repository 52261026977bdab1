import { describe, expect, it } from "vitest";
import type { AgentDownload } from "../../api/admin";
import { archFromHints, detectPlatform, formatSize, pickDownload, refinePlatform, systemName, type NavigatorInfo } from "./platform";

// Real User-Agent strings (Chrome's are the reduced ones it sends today).
const UA = {
  windowsChrome: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  windowsFirefox: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
  macSafari: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  macChrome: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  linuxFirefox: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
  linuxArmFirefox: "Mozilla/5.0 (X11; Linux aarch64; rv:128.0) Gecko/20100101 Firefox/128.0",
  linuxChrome: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  ubuntuFirefox: "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  raspberry32: "Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
  android: "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  iphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  chromebook: "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  curl: "curl/8.5.0",
};

describe("detectPlatform", () => {
  it.each([
    ["Windows Chrome", { userAgent: UA.windowsChrome, platform: "Win32" }, { os: "windows", arch: "amd64" }],
    ["Windows Firefox", { userAgent: UA.windowsFirefox, platform: "Win32" }, { os: "windows", arch: "amd64" }],
    ["macOS Safari (Intel or Apple silicon: not told)", { userAgent: UA.macSafari, platform: "MacIntel" }, { os: "macos", arch: null }],
    ["macOS Chrome", { userAgent: UA.macChrome, platform: "MacIntel" }, { os: "macos", arch: null }],
    ["Linux x86_64 Firefox", { userAgent: UA.linuxFirefox, platform: "Linux x86_64" }, { os: "linux", arch: "amd64" }],
    ["Ubuntu Firefox", { userAgent: UA.ubuntuFirefox, platform: "Linux x86_64" }, { os: "linux", arch: "amd64" }],
    ["Linux aarch64 Firefox", { userAgent: UA.linuxArmFirefox, platform: "Linux aarch64" }, { os: "linux", arch: "arm64" }],
    ["Linux x86_64 Chrome", { userAgent: UA.linuxChrome, platform: "Linux x86_64" }, { os: "linux", arch: "amd64" }],
    ["32-bit ARM Linux", { userAgent: UA.raspberry32, platform: "Linux armv7l" }, { os: "linux", arch: "other" }],
    ["Android", { userAgent: UA.android, platform: "Linux armv81" }, { os: null, arch: null }],
    ["iPhone", { userAgent: UA.iphone, platform: "iPhone" }, { os: null, arch: null }],
    ["Chromebook", { userAgent: UA.chromebook, platform: "Linux x86_64" }, { os: null, arch: null }],
    ["unknown", { userAgent: UA.curl, platform: "" }, { os: null, arch: null }],
    ["nothing at all", { userAgent: "" }, { os: null, arch: null }],
  ] as [string, NavigatorInfo, object][])("%s", (_, nav, want) => {
    expect(detectPlatform(nav)).toEqual(want);
  });

  it("prefers the client hints' platform and knows a phone by them", () => {
    expect(detectPlatform({ userAgent: UA.linuxChrome, userAgentData: { platform: "Windows", mobile: false } })).toEqual({
      os: "windows",
      arch: "amd64",
    });
    expect(detectPlatform({ userAgent: UA.macChrome, userAgentData: { platform: "macOS", mobile: false } })).toEqual({
      os: "macos",
      arch: null,
    });
    expect(detectPlatform({ userAgent: UA.linuxChrome, userAgentData: { platform: "Linux", mobile: true } }).os).toBeNull();
    expect(detectPlatform({ userAgent: UA.chromebook, userAgentData: { platform: "Chrome OS" } }).os).toBeNull();
    // An empty hint falls back to the string.
    expect(detectPlatform({ userAgent: UA.linuxArmFirefox, userAgentData: { platform: "" } })).toEqual({ os: "linux", arch: "arm64" });
  });
});

describe("archFromHints", () => {
  it.each([
    [{ architecture: "arm", bitness: "64" }, "arm64"],
    [{ architecture: "x86", bitness: "64" }, "amd64"],
    [{ architecture: "x86", bitness: "32" }, "other"],
    [{ architecture: "arm", bitness: "32" }, "other"],
    [{ architecture: "arm", bitness: "" }, "arm64"],
    [{ architecture: "riscv", bitness: "64" }, "other"],
    [{ architecture: "", bitness: "" }, null],
    [{}, null],
  ])("%o → %s", (hints, want) => {
    expect(archFromHints(hints)).toBe(want);
  });
});

describe("refinePlatform", () => {
  it("tells an Apple silicon Mac from its client hints", async () => {
    const nav: NavigatorInfo = {
      userAgent: UA.macChrome,
      userAgentData: { platform: "macOS", getHighEntropyValues: async () => ({ architecture: "arm", bitness: "64" }) },
    };
    expect(await refinePlatform(nav, detectPlatform(nav))).toEqual({ os: "macos", arch: "arm64" });
  });

  it("tells an Intel Mac from its client hints", async () => {
    const nav: NavigatorInfo = {
      userAgent: UA.macChrome,
      userAgentData: { platform: "macOS", getHighEntropyValues: async () => ({ architecture: "x86", bitness: "64" }) },
    };
    expect(await refinePlatform(nav, detectPlatform(nav))).toEqual({ os: "macos", arch: "amd64" });
  });

  it("tells an ARM Linux whose Chrome says x86_64", async () => {
    const nav: NavigatorInfo = {
      userAgent: UA.linuxChrome,
      userAgentData: { platform: "Linux", getHighEntropyValues: async () => ({ architecture: "arm", bitness: "64" }) },
    };
    expect(await refinePlatform(nav, detectPlatform(nav))).toEqual({ os: "linux", arch: "arm64" });
  });

  it("keeps what the string said when the browser refuses or says nothing", async () => {
    const refusing: NavigatorInfo = {
      userAgent: UA.linuxChrome,
      userAgentData: { platform: "Linux", getHighEntropyValues: () => Promise.reject(new Error("NotAllowedError")) },
    };
    expect(await refinePlatform(refusing, detectPlatform(refusing))).toEqual({ os: "linux", arch: "amd64" });
    const silent: NavigatorInfo = {
      userAgent: UA.linuxChrome,
      userAgentData: { platform: "Linux", getHighEntropyValues: async () => ({}) },
    };
    expect(await refinePlatform(silent, detectPlatform(silent))).toEqual({ os: "linux", arch: "amd64" });
    const firefox: NavigatorInfo = { userAgent: UA.linuxFirefox };
    expect(await refinePlatform(firefox, detectPlatform(firefox))).toEqual({ os: "linux", arch: "amd64" });
  });
});

function dl(os: AgentDownload["os"], arch: AgentDownload["arch"], kind: AgentDownload["kind"]): AgentDownload {
  const suffix = { deb: ".deb", "tar.gz": ".tar.gz", exe: "-setup.exe", msi: ".msi", zip: ".zip" }[kind];
  return { os, arch, kind, file: `ta-agent_0.1.0_${os}_${arch}${suffix}`, version: "0.1.0", size: 1000, sha256: "ab".repeat(32) };
}

describe("pickDownload", () => {
  // The hub's order: by OS, architecture, then the preferred kind.
  const all = [
    dl("linux", "amd64", "deb"),
    dl("linux", "amd64", "tar.gz"),
    dl("linux", "arm64", "deb"),
    dl("linux", "arm64", "tar.gz"),
    dl("macos", "amd64", "zip"),
    dl("macos", "arm64", "zip"),
    dl("windows", "amd64", "exe"),
  ];

  it("offers the preferred kind for the OS and processor, and the rest as others", () => {
    const p = pickDownload(all, { os: "linux", arch: "arm64" });
    expect(p.primary).toBe(all[2]);
    expect(p.archGuessed).toBe(false);
    expect(p.others).toHaveLength(all.length - 1);
    expect(p.others).not.toContain(all[2]);
  });

  it("guesses Apple silicon on a Mac that does not tell, and x86-64 elsewhere", () => {
    expect(pickDownload(all, { os: "macos", arch: null })).toMatchObject({ primary: all[5], archGuessed: true });
    expect(pickDownload(all, { os: "linux", arch: null })).toMatchObject({ primary: all[0], archGuessed: true });
    // With only one architecture built, that one.
    const intelOnly = [dl("macos", "amd64", "zip")];
    expect(pickDownload(intelOnly, { os: "macos", arch: null })).toMatchObject({ primary: intelOnly[0], archGuessed: true });
  });

  it("offers nothing for a system without a build", () => {
    expect(pickDownload(all, { os: "windows", arch: "arm64" }).primary).toBeNull();
    expect(pickDownload(all, { os: "linux", arch: "other" }).primary).toBeNull();
    expect(pickDownload(all, { os: null, arch: null })).toEqual({ primary: null, archGuessed: false, others: all });
    expect(pickDownload([], { os: "linux", arch: "amd64" })).toEqual({ primary: null, archGuessed: false, others: [] });
  });
});

describe("formatSize", () => {
  it.each([
    [0, "0 bytes"],
    [1, "1 byte"],
    [999, "999 bytes"],
    [1000, "1.0 kB"],
    [4_200, "4.2 kB"],
    [123_456, "123 kB"],
    [999_960, "1.0 MB"],
    [12_345_678, "12.3 MB"],
    [1_500_000_000, "1.5 GB"],
  ])("%d → %s", (n, want) => {
    expect(formatSize(n)).toBe(want);
  });
});

describe("systemName", () => {
  it("names systems as their users know them", () => {
    expect(systemName("linux", "amd64")).toBe("Linux x86-64");
    expect(systemName("linux", "arm64")).toBe("Linux ARM 64-bit");
    expect(systemName("macos", "arm64")).toBe("macOS (Apple silicon)");
    expect(systemName("macos", "amd64")).toBe("macOS (Intel)");
    expect(systemName("windows", null)).toBe("Windows");
  });
});
