// Schedules: the project's suites, tags and chosen tests that run by
// themselves at the times of a cron in a time zone (docs/schedules.md).
// Members see the list; Test Managers and Admins create, edit, pause and
// delete schedules.
import { useState } from "react";
import { Link } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  deleteSchedule,
  formatInZone,
  listSchedules,
  mayManageSchedules,
  scheduleBody,
  scheduleKeys,
  updateSchedule,
  type Schedule,
} from "../../api/schedules";
import { useWorkspace } from "../../session";
import { ErrorBox, PageHeader } from "../../components/ui";
import { ConfirmAction } from "../../components/ConfirmAction";
import { ResourceTable } from "../../components/ResourceTable";
import { ScheduleForm } from "./ScheduleForm";

/** scheduleTarget says what a schedule runs, in words. */
export function scheduleTarget(s: Schedule): string {
  if (s.suite != null) return s.suite === "" ? "Unsorted tests" : `Suite ${s.suite}`;
  if (s.tag != null) return `Tests tagged ${s.tag}`;
  return `${s.testIds.length} chosen test${s.testIds.length === 1 ? "" : "s"}`;
}

function LastRun({ s }: { s: Schedule }) {
  const last = s.lastRun;
  if (!last) return <span className="muted">not yet</span>;
  if (last.status === "started" && last.batchId)
    return <Link to={`/batches/${last.batchId}`}>Batch of {formatInZone(last.dueAt, s.timezone)}</Link>;
  return (
    <span>
      <span className={`badge schedule-${last.status}`}>{last.status}</span> {last.reason}
    </span>
  );
}

export function SchedulesPage() {
  const ws = useWorkspace();
  const projectId = ws.project?.id ?? "";
  const canManage = mayManageSchedules(ws.role);
  const qc = useQueryClient();
  const schedules = useQuery({
    queryKey: scheduleKeys.list(projectId),
    queryFn: () => listSchedules(projectId),
    enabled: projectId !== "",
  });
  const [editing, setEditing] = useState<Schedule | "new" | null>(null);
  const [deleting, setDeleting] = useState<Schedule | null>(null);
  const toggle = useMutation({
    mutationFn: (s: Schedule) => updateSchedule(s.id, scheduleBody(s, { enabled: !s.enabled })),
    onSuccess: () => qc.invalidateQueries({ queryKey: scheduleKeys.list(projectId) }),
  });

  return (
    <section className="schedules">
      <PageHeader title="Schedules" subtitle="Suites, tags and chosen tests that start a batch by themselves, at the times of a cron.">
        {canManage && (
          <button type="button" className="primary" onClick={() => setEditing("new")}>
            New schedule
          </button>
        )}
      </PageHeader>
      {!canManage && (
        <p className="notice">Test Managers and Admins create and change schedules; your role in this project is {ws.role ?? "none"}.</p>
      )}
      <ErrorBox error={toggle.error} title="The schedule was not changed" />
      <ResourceTable
        query={schedules}
        rowKey={(s) => s.id}
        loadingLabel="Loading schedules"
        errorTitle="Schedules could not be loaded"
        empty={<>No schedules yet.{canManage && " Create one to run a suite every night."}</>}
        columns={[
          { header: "Name", cell: (s) => <strong>{s.name}</strong> },
          { header: "Runs", cell: (s) => scheduleTarget(s) },
          {
            header: "When",
            cell: (s) => (
              <>
                <span className="mono">{s.cron}</span> <span className="muted">{s.timezone}</span>
              </>
            ),
          },
          {
            header: "Next",
            cell: (s) =>
              s.enabled && s.next[0] ? formatInZone(s.next[0], s.timezone) : <span className="badge badge-not-set">paused</span>,
          },
          {
            header: "Enabled",
            cell: (s) => (
              <input
                type="checkbox"
                aria-label={`${s.name} enabled`}
                checked={s.enabled}
                disabled={!canManage || toggle.isPending}
                onChange={() => toggle.mutate(s)}
              />
            ),
          },
          { header: "Last", cell: (s) => <LastRun s={s} /> },
        ]}
        actions={
          canManage
            ? (s) => (
                <>
                  <button type="button" className="small" onClick={() => setEditing(s)} aria-label={`Edit ${s.name}`}>
                    Edit
                  </button>
                  <button type="button" className="small" onClick={() => setDeleting(s)} aria-label={`Delete ${s.name}`}>
                    Delete
                  </button>
                </>
              )
            : undefined
        }
      />
      {editing && <ScheduleForm projectId={projectId} schedule={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && (
        <ConfirmAction
          title={`Delete schedule ${deleting.name}?`}
          confirmLabel="Delete schedule"
          action={() => deleteSchedule(deleting.id)}
          refresh={[scheduleKeys.list(projectId)]}
          onDone={() => setDeleting(null)}
          onCancel={() => setDeleting(null)}
        >
          <p>
            Schedule <strong>{deleting.name}</strong> stops starting batches. The batches it started stay.
          </p>
        </ConfirmAction>
      )}
    </section>
  );
}
