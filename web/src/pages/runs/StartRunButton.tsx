// The "Run" button of a test: a dialog to choose the environment, a headed
// browser, how many screenshots and a device, then POST /api/runs and on to the live
// run page.
import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { useMutation } from "@tanstack/react-query";
import { ErrorBox, IssueList, Modal, FormActions } from "../../components/ui";
import type { Test } from "../../api";
import { startRun } from "../../api/runs";
import { useWorkspace } from "../../session";
import { PROTECTED_RULE, protectedRefusal } from "../environments/protection";
import { AgentNotice } from "./AgentNotice";
import "./runs.css";
import { EnvironmentField, RunOptionsFields, rememberEnvironment, retriesChoice, traceChoice, useRunOptions } from "./RunOptionsFields";
import { DataRunFields, useDataRunChoice } from "./DataRunFields";
import { AgentChoiceField, useAgentChoice } from "./AgentChoiceField";

/** usesBaseUrl reports whether a test's document refers to ${baseUrl}, which only an environment fills. */
export function usesBaseUrl(test: Test, document?: unknown): boolean {
  const doc = document ?? test.document;
  return doc !== undefined && JSON.stringify(doc).includes("${baseUrl}");
}

export function StartRunButton({
  test,
  className = "primary",
  beforeOpen,
  document,
}: {
  test: Test;
  className?: string;
  /** The document the run will use when the test object carries none (the editor's). */
  document?: unknown;
  /** Called before the dialog opens (the editor saves unsaved changes); false keeps it closed. */
  beforeOpen?: () => Promise<boolean>;
}) {
  const [open, setOpen] = useState(false);
  if (!test.can.run) return null;
  const onRun = async () => {
    if (!beforeOpen || (await beforeOpen())) setOpen(true);
  };
  return (
    <>
      <button type="button" className={className} onClick={onRun}>
        Run
      </button>
      {open && <StartRunDialog test={test} document={document} onClose={() => setOpen(false)} />}
    </>
  );
}

function StartRunDialog({ test, document, onClose }: { test: Test; document?: unknown; onClose: () => void }) {
  const navigate = useNavigate();
  const options = useRunOptions(test.projectId);
  const { envId, chosen, headed, screenshots, device, trace, retries } = options;
  const ws = useWorkspace();
  const role = ws.project?.id === test.projectId ? ws.role : null;
  const refusal = chosen?.protected ? protectedRefusal(chosen.name, test, role) : null;
  const data = useDataRunChoice(test);
  const agent = useAgentChoice();

  const start = useMutation({
    mutationFn: () =>
      startRun(
        {
          testId: test.id,
          ...(envId ? { environmentId: envId } : {}),
          headed,
          screenshots,
          ...traceChoice(trace),
          ...retriesChoice(retries),
          ...(device ? { device } : {}),
          ...data.extra,
          ...agent.extra,
        },
        test.projectId,
      ),
    onSuccess: (res) => {
      rememberEnvironment(test.projectId, envId);
      navigate(`/runs/${res.runId}`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!data.blocked) start.mutate();
  };

  return (
    <Modal title={`Run ${test.name}`} onClose={onClose}>
      <form className="form start-run" onSubmit={submit}>
        <EnvironmentField options={options} />
        {!envId && usesBaseUrl(test, document) && (
          <p className="notice notice-warn" role="status">
            This test uses <code>{"${baseUrl}"}</code>, which only an environment fills: choose one, or its steps fail to open their pages.
          </p>
        )}
        {refusal ? (
          <p className="notice notice-warn" role="status">
            {refusal}
          </p>
        ) : (
          chosen?.protected && (
            <p className="hint">
              {chosen.name} is protected. {PROTECTED_RULE}
            </p>
          )
        )}
        <RunOptionsFields options={options} />
        <AgentChoiceField choice={agent} headed={headed} />
        <DataRunFields choice={data} />
        <p className="hint">Version {test.version} runs on one of your connected agents; without one, it waits in the queue.</p>
        <AgentNotice headed={headed} />
        <ErrorBox error={start.error} title="The run was not started" />
        <IssueList error={start.error} />
        <FormActions onCancel={onClose} label="Start run" busyLabel="Starting…" busy={start.isPending} />
      </form>
    </Modal>
  );
}
