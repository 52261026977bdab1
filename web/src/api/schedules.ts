// Schedules: a 5-field cron in a time zone that starts a batch of a suite,
// a tag or chosen tests as its owner would (hub/api/schedules.go,
// docs/schedules.md). Members read them; Test Managers and Admins manage them.
import { del, get, inProject, post, put, recordCall } from "./client";
import { atLeast } from "./admin";
import type { Body, Role, Schema } from "./types";

/** hub/api/schedules.go scheduleRunJSON. Narrowed: status is a plain string in the document. */
export type ScheduleRun = Omit<Schema<"ScheduleRun">, "status"> & { status: "started" | "skipped" | "failed" };

/** hub/api/schedules.go scheduleJSON: next lists its next five times (RFC 3339 in its zone), empty while paused. */
export type Schedule = Omit<Schema<"Schedule">, "lastRun" | "runs"> & { lastRun: ScheduleRun | null; runs?: ScheduleRun[] };

/** POST /api/schedules and PUT /api/schedules/:id. */
export type ScheduleSave = Body<"/api/schedules", "post">;

export const scheduleKeys = {
  list: (projectId: string) => ["schedules", projectId, "list"] as const,
};

/** access.ManageSchedules: Test Managers and Admins create, change, pause and delete schedules. */
export const mayManageSchedules = (role: Role | null | undefined) => atLeast(role, "Test Manager");

export const listSchedules = async (projectId: string) =>
  (await get<{ schedules: Schedule[] }>("/api/schedules", inProject(projectId))).schedules;
export const createSchedule = (projectId: string, body: ScheduleSave) => post<Schedule>("/api/schedules", body, inProject(projectId));
export const updateSchedule = (id: string, body: ScheduleSave) =>
  put<Schedule>(`/api/schedules/${encodeURIComponent(id)}`, body, recordCall);
export const deleteSchedule = (id: string) => del(`/api/schedules/${encodeURIComponent(id)}`);
export const previewSchedule = async (projectId: string, cron: string, timezone: string, signal?: AbortSignal) =>
  (await post<{ next: string[] }>("/api/schedules/preview", { cron, timezone }, inProject(projectId, { signal }))).next;

/** scheduleBody is the save body of a stored schedule, with changes (e.g. enabled). */
export function scheduleBody(s: Schedule, change: Partial<ScheduleSave> = {}): ScheduleSave {
  const target = s.suite != null ? { suite: s.suite } : s.tag != null ? { tag: s.tag } : { testIds: s.testIds };
  return {
    name: s.name,
    cron: s.cron,
    timezone: s.timezone,
    ...target,
    ...(s.environmentId ? { environmentId: s.environmentId } : {}),
    options: { ...s.options },
    enabled: s.enabled,
    ...change,
  };
}

/** formatInZone writes an instant as its wall-clock time in zone, naming the zone: "Mon, 2 Nov 2026, 02:30 (Europe/Paris)". */
export function formatInZone(iso: string, zone: string): string {
  const d = new Date(iso);
  try {
    const text = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      weekday: "short",
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(d);
    return `${text} (${zone})`;
  } catch {
    return iso;
  }
}

/** timeZones lists the IANA zones the browser knows, with UTC. */
export function timeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  const zones = intl.supportedValuesOf?.("timeZone") ?? [];
  return zones.includes("UTC") ? zones : ["UTC", ...zones];
}

/** browserZone is the browser's own zone, UTC when it does not say. */
export function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}
