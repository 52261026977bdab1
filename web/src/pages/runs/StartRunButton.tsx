// The "Run" button of a test: a dialog to choose the environment, a headed
// browser and how many screenshots, then POST /api/runs and on to the live
// run page.
import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { useMutation, useQuery } from "@tanstack/react-query";
import { ErrorBox, IssueList, Modal, FormActions } from "../../components/ui";
import type { Test } from "../../api";
import { environmentChoicesKey, listEnvironmentChoices, startRun } from "../../api/runs";
import { useWorkspace } from "../../session";
import { PROTECTED_RULE, protectedRefusal } from "../environments/protection";
import { AgentNotice } from "./AgentNotice";
import "./runs.css";
import { RunOptionsFields } from "./RunOptionsFields";

const LAST_ENV = "ta.lastEnvironment.";

export function rememberedEnvironment(projectId: string): string {
  try {
    return localStorage.getItem(LAST_ENV + projectId) ?? "";
  } catch {
    return "";
  }
}

export function rememberEnvironment(projectId: string, id: string): void {
  try {
    localStorage.setItem(LAST_ENV + projectId, id);
  } catch {
    /* private mode: remembering is a convenience */
  }
}

export function StartRunButton({
  test,
  className = "primary",
  beforeOpen,
}: {
  test: Test;
  className?: string;
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
      {open && <StartRunDialog test={test} onClose={() => setOpen(false)} />}
    </>
  );
}

function StartRunDialog({ test, onClose }: { test: Test; onClose: () => void }) {
  const navigate = useNavigate();
  const envs = useQuery({
    queryKey: environmentChoicesKey(test.projectId),
    queryFn: () => listEnvironmentChoices(test.projectId),
    staleTime: 60_000,
  });
  const [environmentId, setEnvironmentId] = useState(() => rememberedEnvironment(test.projectId));
  const [headed, setHeaded] = useState(false);
  const [screenshots, setScreenshots] = useState(true);
  // A remembered environment that was deleted since counts as none.
  const envId = envs.data && !envs.data.some((e) => e.id === environmentId) ? "" : environmentId;
  const ws = useWorkspace();
  const chosen = envs.data?.find((e) => e.id === envId);
  const role = ws.project?.id === test.projectId ? ws.role : null;
  const refusal = chosen?.protected ? protectedRefusal(chosen.name, test, role) : null;

  const start = useMutation({
    mutationFn: () => startRun({ testId: test.id, ...(envId ? { environmentId: envId } : {}), headed, screenshots }, test.projectId),
    onSuccess: (res) => {
      rememberEnvironment(test.projectId, envId);
      navigate(`/runs/${res.runId}`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    start.mutate();
  };

  return (
    <Modal title={`Run ${test.name}`} onClose={onClose}>
      <form className="form start-run" onSubmit={submit}>
        <div className="field">
          <label>
            Environment
            <select value={envId} onChange={(e) => setEnvironmentId(e.target.value)} disabled={envs.isPending}>
              <option value="">No environment</option>
              {(envs.data ?? []).map((e) => (
                <option key={e.id} value={e.id}>
                  {e.protected ? `${e.name} (protected)` : e.name}
                </option>
              ))}
            </select>
          </label>
          <span className="hint">
            {envs.isPending
              ? "Loading the environments…"
              : "Its variables (baseUrl and others) and secrets fill the test's ${…} references."}
          </span>
        </div>
        {envs.isError && <ErrorBox error={envs.error} title="The environments could not be loaded" />}
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
        <RunOptionsFields headed={headed} onHeaded={setHeaded} screenshots={screenshots} onScreenshots={setScreenshots} />
        <p className="hint">Version {test.version} runs on one of your connected agents; without one, it waits in the queue.</p>
        <AgentNotice headed={headed} />
        <ErrorBox error={start.error} title="The run was not started" />
        <IssueList error={start.error} />
        <FormActions onCancel={onClose} label="Start run" busyLabel="Starting…" busy={start.isPending} />
      </form>
    </Modal>
  );
}
