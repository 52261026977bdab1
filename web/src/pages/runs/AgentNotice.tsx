// What the Run dialog says about the caller's agents before a run starts:
// none connected (the run waits in the queue: start or pair one), or a
// headed run where no connected agent has a display (it waits until one
// connects). The run still starts; this only sets expectations.
import { Link } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { keys, listAgents, type AgentList } from "../../api/admin";

/** agentNotice returns what to say, or null when the run will go as asked. */
export function agentNotice(list: AgentList, headed: boolean): "none" | "no-display" | null {
  const connected = list.agents.filter((a) => a.connected);
  if (connected.length === 0) return "none";
  if (headed && !connected.some((a) => a.display)) return "no-display";
  return null;
}

export function AgentNotice({ headed }: { headed: boolean }) {
  const agents = useQuery({ queryKey: keys.agents, queryFn: listAgents, staleTime: 5_000 });
  if (!agents.data) return null;
  const notice = agentNotice(agents.data, headed);
  if (notice === "none") {
    return (
      <p className="notice notice-warn" aria-live="polite">
        No agent of yours is connected, so this run waits in the queue until one is. Start the desktop agent on your computer
        {agents.data.agents.length === 0 ? " and pair it" : ""}: <Link to="/agents">how to start and pair an agent</Link>.
      </p>
    );
  }
  if (notice === "no-display") {
    return (
      <p className="notice notice-warn" aria-live="polite">
        None of your connected agents has a display, so this headed run waits in the queue until one does: start the agent on a computer
        with a desktop, or run it headless.
      </p>
    );
  }
  return null;
}

/**
 * AgentNeeded answers the hub's agent_needed: recording, picking and
 * trying scripts happen in a browser on the caller's own computer, so they
 * cannot wait in a queue as runs do.
 */
export function AgentNeeded({ what }: { what: string }) {
  return (
    <p className="notice notice-warn" role="alert">
      No agent of yours is connected, and {what} needs one: it opens the browser on your computer. Start the desktop agent (and pair it the
      first time), then try again: <Link to="/agents">how to start and pair an agent</Link>.
    </p>
  );
}
