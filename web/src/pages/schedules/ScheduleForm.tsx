// The create/edit dialog of a schedule: name, cron and time zone (the next
// five times appear as one types, from the hub's preview, in the schedule's
// zone), what it runs (a suite, a tag or chosen tests), the environment and
// the run options a batch takes, and whether it is enabled.
import { useEffect, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ErrorBox, IssueList, Modal, FormActions } from "../../components/ui";
import { ApiError, describeError } from "../../api/client";
import { listSuites, listTests } from "../../api/testsApi";
import {
  browserZone,
  createSchedule,
  formatInZone,
  previewSchedule,
  timeZones,
  updateSchedule,
  type Schedule,
  type ScheduleSave,
} from "../../api/schedules";
import { EnvironmentField, RunOptionsFields, traceChoice, useRunOptions } from "../runs/RunOptionsFields";
import { AgentChoiceField, useAgentChoice } from "../runs/AgentChoiceField";
import "../runs/runs.css";

type Target = "suite" | "tag" | "tests";

/** useDebounced is value once it has stopped changing for ms. */
function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** NextTimes shows the hub's next five times of a cron in a zone, or why there are none. */
export function NextTimes({ projectId, cron, timezone }: { projectId: string; cron: string; timezone: string }) {
  const key = useDebounced(`${cron}\n${timezone}`, 300);
  const [c, tz] = key.split("\n");
  const preview = useQuery({
    queryKey: ["schedules", projectId, "preview", c, tz],
    queryFn: ({ signal }) => previewSchedule(projectId, c, tz, signal),
    enabled: c.trim() !== "",
    retry: false,
    staleTime: 30_000,
  });
  if (c.trim() === "") return <p className="hint">Type a cron to see its next times.</p>;
  if (preview.isError)
    return (
      <p className="error-text" role="alert" data-testid="next-times-error">
        {preview.error instanceof ApiError && preview.error.issues.length > 0
          ? preview.error.issues.map((i) => i.message).join(" ")
          : describeError(preview.error)}
      </p>
    );
  return (
    <div className="field" aria-live="polite">
      <span>Next times</span>
      <ol className="next-times" data-testid="next-times">
        {(preview.data ?? []).map((t) => (
          <li key={t}>{formatInZone(t, tz)}</li>
        ))}
      </ol>
    </div>
  );
}

export function ScheduleForm({ projectId, schedule, onClose }: { projectId: string; schedule: Schedule | null; onClose: () => void }) {
  const qc = useQueryClient();
  const [name, setName] = useState(schedule?.name ?? "");
  const [cron, setCron] = useState(schedule?.cron ?? "0 3 * * 1-5");
  const [timezone, setTimezone] = useState(schedule?.timezone ?? browserZone());
  const [target, setTarget] = useState<Target>(
    schedule?.tag != null ? "tag" : schedule?.suite != null ? "suite" : schedule ? "tests" : "suite",
  );
  const [suite, setSuite] = useState(schedule?.suite ?? "");
  const [tag, setTag] = useState(schedule?.tag ?? "");
  const [testIds, setTestIds] = useState<string[]>(schedule?.testIds ?? []);
  const [enabled, setEnabled] = useState(schedule?.enabled ?? true);
  const options = useRunOptions(projectId);
  const agent = useAgentChoice();
  const { setEnvironmentId, setHeaded, setScreenshots, setDevice, setTrace } = options;
  const { setMode, setAgentId, setLabelText } = agent;
  useEffect(() => {
    if (!schedule) return;
    const o = schedule.options;
    setEnvironmentId(schedule.environmentId ?? "");
    setHeaded(o.headed);
    setScreenshots(o.screenshots);
    setDevice(o.device ?? "");
    setTrace(o.trace);
    if (o.agentId) {
      setMode("agent");
      setAgentId(o.agentId);
    } else if (o.labels?.length) {
      setMode("labels");
      setLabelText(o.labels.join(", "));
    }
  }, [schedule, setEnvironmentId, setHeaded, setScreenshots, setDevice, setTrace, setMode, setAgentId, setLabelText]);

  const suites = useQuery({ queryKey: ["suites", projectId], queryFn: ({ signal }) => listSuites(projectId, signal) });
  const tests = useQuery({
    queryKey: ["schedules", projectId, "tests"],
    queryFn: ({ signal }) => listTests(projectId, { limit: 200 }, signal),
    enabled: target === "tests",
  });
  const zones = timeZones();

  const save = useMutation({
    mutationFn: (body: ScheduleSave) => (schedule ? updateSchedule(schedule.id, body) : createSchedule(projectId, body)),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ["schedules", projectId, "list"] });
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const what = target === "suite" ? { suite } : target === "tag" ? { tag } : { testIds };
    save.mutate({
      name,
      cron,
      timezone,
      ...what,
      ...(options.envId ? { environmentId: options.envId } : {}),
      options: {
        headed: options.headed,
        screenshots: options.screenshots,
        trace: traceChoice(options.trace).trace ?? "failures",
        ...(options.device ? { device: options.device } : {}),
        ...agent.extra,
      },
      enabled,
    });
  };
  const toggleTest = (id: string, on: boolean) => setTestIds(on ? [...testIds, id] : testIds.filter((x) => x !== id));

  return (
    <Modal title={schedule ? `Edit schedule ${schedule.name}` : "New schedule"} onClose={onClose} wide>
      <form className="form schedule-form" onSubmit={submit}>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required />
        </label>
        <div className="field">
          <label>
            Cron
            <input className="mono" value={cron} onChange={(e) => setCron(e.target.value)} placeholder="30 2 * * 1-5" />
          </label>
          <span className="hint">Five fields: minute hour day-of-month month day-of-week. 30 2 * * 1-5 is 02:30 on weekdays.</span>
        </div>
        <label>
          Time zone
          <select value={timezone} onChange={(e) => setTimezone(e.target.value)}>
            {(zones.includes(timezone) ? zones : [timezone, ...zones]).map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </label>
        <NextTimes projectId={projectId} cron={cron} timezone={timezone} />
        <fieldset>
          <legend>Runs</legend>
          {(["suite", "tag", "tests"] as Target[]).map((t) => (
            <label className="inline" key={t}>
              <input type="radio" name="target" checked={target === t} onChange={() => setTarget(t)} />
              {t === "suite" ? "A suite" : t === "tag" ? "Tests with a tag" : "Chosen tests"}
            </label>
          ))}
          {target === "suite" && (
            <label>
              Suite
              <select value={suite} onChange={(e) => setSuite(e.target.value)}>
                <option value="">Unsorted (tests of no suite)</option>
                {(suites.data ?? []).map((s) => (
                  <option key={s.name} value={s.name}>
                    {s.name} ({s.tests})
                  </option>
                ))}
              </select>
            </label>
          )}
          {target === "tag" && (
            <label>
              Tag
              <input value={tag} onChange={(e) => setTag(e.target.value)} maxLength={100} />
            </label>
          )}
          {target === "tests" && (
            <div className="schedule-tests" role="group" aria-label="Tests">
              {tests.isPending && <p className="hint">Loading the tests…</p>}
              {(tests.data?.tests ?? []).map((t) => (
                <label className="inline" key={t.id}>
                  <input type="checkbox" checked={testIds.includes(t.id)} onChange={(e) => toggleTest(t.id, e.target.checked)} />
                  {t.name}
                </label>
              ))}
            </div>
          )}
        </fieldset>
        <EnvironmentField options={options} many />
        <RunOptionsFields options={options} many />
        <AgentChoiceField choice={agent} headed={options.headed} />
        <label className="inline">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          Enabled
        </label>
        <p className="hint">
          The batch runs as its owner would start it, on the owner&apos;s agents; without one connected, the runs wait in the queue.
        </p>
        <ErrorBox error={save.error} title="The schedule was not saved" />
        <IssueList error={save.error} />
        <FormActions onCancel={onClose} label={schedule ? "Save" : "Create schedule"} busyLabel="Saving…" busy={save.isPending} />
      </form>
    </Modal>
  );
}
