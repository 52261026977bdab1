// The run dialog for many tests (a selection, the list's matches, a suite):
// the same choices as a single run's (environment, headed, screenshots, device),
// then POST /api/runs with testIds or suite and on to the batch page. The
// hub refuses the whole batch when one test cannot run, listing each.
import type { FormEvent } from "react";
import { useNavigate } from "react-router";
import { useMutation } from "@tanstack/react-query";
import { ErrorBox, IssueList, Modal, FormActions } from "../../components/ui";
import { startBatch, type BatchSelection } from "../../api/batches";
import { PROTECTED_RULE } from "../environments/protection";
import "./runs.css";
import { EnvironmentField, RunOptionsFields, rememberEnvironment, retriesChoice, traceChoice, useRunOptions } from "./RunOptionsFields";
import { AgentChoiceField, useAgentChoice } from "./AgentChoiceField";

export function BatchRunDialog({
  title,
  summary,
  selection,
  projectId,
  onClose,
}: {
  title: string;
  /** What will run, in words ("3 tests of suite Checkout"). */
  summary: string;
  /** The tests, or a promise of them (the list's matches are fetched on start). */
  selection: BatchSelection | (() => Promise<BatchSelection>);
  projectId: string;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const options = useRunOptions(projectId);
  const { envId, chosen, headed, screenshots, device, trace, retries } = options;
  const agent = useAgentChoice();

  const start = useMutation({
    mutationFn: async () => {
      const sel = typeof selection === "function" ? await selection() : selection;
      return startBatch(
        sel,
        {
          ...(envId ? { environmentId: envId } : {}),
          headed,
          screenshots,
          ...traceChoice(trace),
          ...retriesChoice(retries),
          ...(device ? { device } : {}),
          ...agent.extra,
        },
        projectId,
      );
    },
    onSuccess: (res) => {
      rememberEnvironment(projectId, envId);
      navigate(`/batches/${res.batchId}`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    start.mutate();
  };

  return (
    <Modal title={title} onClose={onClose}>
      <form className="form start-run" onSubmit={submit}>
        <p>{summary}</p>
        <EnvironmentField options={options} many />
        {chosen?.protected && (
          <p className="hint">
            {chosen.name} is protected. {PROTECTED_RULE}
          </p>
        )}
        <RunOptionsFields options={options} many />
        <AgentChoiceField choice={agent} headed={headed} />
        <p className="hint">
          Each test runs its current version, spread over your connected agents and their parallel slots; without an agent, the runs wait in
          the queue. If one test cannot run, nothing starts and each problem is listed.
        </p>
        <ErrorBox error={start.error} title="The runs were not started" />
        <IssueList error={start.error} />
        <FormActions onCancel={onClose} label="Start runs" busyLabel="Starting…" busy={start.isPending} />
      </form>
    </Modal>
  );
}
