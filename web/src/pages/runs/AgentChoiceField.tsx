// Which of the caller's agents a run goes to: any idle one that can serve
// it (the default; a headed run needs one with a display), one agent, or
// agents having some labels. The hub keeps the choice on the run, so a run
// queued again still goes only there.
import { useId, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { keys, listAgents, type Agent } from "../../api/admin";

export type AgentMode = "any" | "agent" | "labels";

/** parseLabels splits what was typed ("linux, office-vpn") into labels. */
export function parseLabels(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

/** useAgentChoice holds a run dialog's agent choice; extra is what POST /api/runs gets. */
export function useAgentChoice() {
  const agents = useQuery({ queryKey: keys.agents, queryFn: listAgents, staleTime: 5_000 });
  const [mode, setMode] = useState<AgentMode>("any");
  const [agentId, setAgentId] = useState("");
  const [labelText, setLabelText] = useState("");
  const labels = parseLabels(labelText);
  const mine = (agents.data?.agents ?? []).filter((a) => !a.ephemeral);
  const chosen = mode === "agent" ? mine.find((a) => a.id === agentId) : undefined;
  const extra: { agentId?: string; labels?: string[] } =
    mode === "agent" && chosen ? { agentId: chosen.id } : mode === "labels" && labels.length > 0 ? { labels } : {};
  return { agents: mine, mode, setMode, agentId, setAgentId, labelText, setLabelText, labels, chosen, extra };
}

export type AgentChoice = ReturnType<typeof useAgentChoice>;

function describe(a: Agent): string {
  const facts = [a.state === "offline" ? "offline" : a.state, a.display ? "display" : "no display"];
  if (a.labels.length > 0) facts.push(a.labels.join(", "));
  return `${a.name} (${facts.join(" · ")})`;
}

/** AgentChoiceField is the Agent select of the Run and batch dialogs. */
export function AgentChoiceField({ choice, headed }: { choice: AgentChoice; headed: boolean }) {
  const labelsId = useId();
  const value = choice.mode === "agent" ? `agent:${choice.agentId}` : choice.mode;
  const onChange = (v: string) => {
    if (v.startsWith("agent:")) {
      choice.setMode("agent");
      choice.setAgentId(v.slice("agent:".length));
    } else {
      choice.setMode(v as AgentMode);
    }
  };
  const known = [...new Set(choice.agents.flatMap((a) => a.labels))].sort();
  return (
    <div className="field agent-choice">
      <label>
        Agent
        <select value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="any">Any idle agent{headed ? " with a display" : ""}</option>
          {choice.agents.map((a) => (
            <option key={a.id} value={`agent:${a.id}`} disabled={headed && !a.display}>
              {describe(a)}
            </option>
          ))}
          <option value="labels">Agents with labels…</option>
        </select>
      </label>
      {choice.mode === "labels" && (
        <label>
          Labels
          <input
            value={choice.labelText}
            onChange={(e) => choice.setLabelText(e.target.value)}
            placeholder="linux, office-vpn"
            list={labelsId}
            autoComplete="off"
            spellCheck={false}
          />
          <datalist id={labelsId}>
            {known.map((l) => (
              <option key={l} value={l} />
            ))}
          </datalist>
        </label>
      )}
      <span className="hint">
        {choice.mode === "labels"
          ? "The run goes only to an agent having all these labels (give agents labels on the Agents page)."
          : choice.mode === "agent"
            ? "The run goes only to this agent, and waits for it while it is busy or offline."
            : headed
              ? "A headed run goes only to an agent with a display; it waits for one while none is connected."
              : "The run goes to whichever of your agents is free first."}
      </span>
    </div>
  );
}
