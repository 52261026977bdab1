// The "agent needed" banner above every signed-in page: runs execute on a
// paired computer, so while the caller has no connected agent it says so and
// offers the agent's download for this computer and links to pairing. The
// polls' failures stay silent; the pages show their own.
import { Link, useLocation } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { keys, listAgents } from "../../api/admin";
import { AgentDownloadLink } from "./AgentDownload";

export const BANNER_POLL_MS = 15_000;

/** The agents and pairing pages explain agents themselves. */
export function bannerHiddenOn(pathname: string): boolean {
  return pathname === "/agents" || pathname.startsWith("/agents/") || pathname.startsWith("/pair/");
}

export function AgentBanner() {
  const { pathname } = useLocation();
  const hidden = bannerHiddenOn(pathname);
  const agents = useQuery({
    queryKey: keys.agents,
    queryFn: listAgents,
    enabled: !hidden,
    refetchInterval: BANNER_POLL_MS,
    retry: false,
  });
  if (hidden || !agents.data?.needed) return null;
  return (
    <div className="banner" role="status">
      Runs need a paired agent: a computer running the desktop agent executes them. <AgentDownloadLink />{" "}
      <Link to="/agents">Pair a computer</Link>
    </div>
  );
}
