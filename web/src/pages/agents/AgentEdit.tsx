// Renaming an agent and giving it labels (PUT /api/agent/:id): runs can
// then ask for agents with some labels ("linux", "office-vpn"), and the
// Run dialog names agents as their owner knows them.
import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { updateAgent, type Agent } from "../../api/admin";
import { ErrorBox, FormActions, IssueList, Modal } from "../../components/ui";
import { parseLabels } from "../runs/AgentChoiceField";

export function EditAgent({ agent, onClose }: { agent: Agent; onClose: () => void }) {
  const qc = useQueryClient();
  const [name, setName] = useState(agent.name);
  const [labels, setLabels] = useState(agent.labels.join(", "));
  const save = useMutation({
    mutationFn: () => updateAgent(agent.id, { name, labels: parseLabels(labels) }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ["agent"] });
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <Modal title={`Edit ${agent.name}`} onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={80} required autoFocus />
        </label>
        <label>
          Labels
          <input value={labels} onChange={(e) => setLabels(e.target.value)} placeholder="linux, office-vpn" spellCheck={false} />
        </label>
        <p className="hint">
          Lower-case letters, digits, dots, dashes and underscores, separated by commas or spaces (at most 20). A run can ask for agents
          having some labels; it then goes only to one of them.
        </p>
        <ErrorBox error={save.error} title="The agent was not changed" />
        <IssueList error={save.error} />
        <FormActions onCancel={onClose} label="Save" busyLabel="Saving…" busy={save.isPending} />
      </form>
    </Modal>
  );
}
