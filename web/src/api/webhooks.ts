// Webhooks: a project's addresses that receive a signed POST when a run or
// a batch finishes, and each webhook's delivery log (hub/api/webhooks.go).
import { del, get, inProject, post } from "./client";
import { atLeast } from "./admin";
import type { Answer, Body, Role, Schema } from "./types";

export type WebhookEvent = "run.finished" | "batch.finished";
export const WEBHOOK_EVENTS: WebhookEvent[] = ["run.finished", "batch.finished"];
/** The answer format (the document has the enum on the body only). */
export type WebhookFormat = NonNullable<Body<"/api/webhooks", "post">["format"]>;

/**
 * hub/api/webhooks.go webhookJSON; secret only in the answer that made it.
 * Narrowed: the document gives events, format and the last delivery's
 * status as plain strings.
 */
export type Webhook = Omit<Schema<"Webhook">, "events" | "format" | "lastDelivery"> & {
  events: WebhookEvent[];
  format: WebhookFormat;
  lastDelivery?: Omit<Schema<"LastDelivery">, "status"> & { status: DeliveryStatus };
};

/**
 * POST /api/webhooks body. Narrowed: events, format and enabled are
 * optional in the document (defaults both events, json, enabled); the
 * form always sends them.
 */
export type WebhookSave = Omit<Body<"/api/webhooks", "post">, "events" | "format" | "enabled"> & {
  events: WebhookEvent[];
  format: WebhookFormat;
  enabled: boolean;
};

export type DeliveryStatus = "pending" | "succeeded" | "failed";

/** One attempt of a delivery. Not from the document: its attemptLog is unknown[] there. */
export interface DeliveryAttempt {
  at: string;
  responseStatus?: number;
  error?: string;
  durationMs: number;
}

/**
 * hub/api/webhooks.go deliveryJSON. Narrowed: the document gives event and
 * status as plain strings and attemptLog as unknown[].
 */
export type Delivery = Omit<Schema<"Delivery">, "event" | "status" | "attemptLog"> & {
  event: WebhookEvent | "ping";
  status: DeliveryStatus;
  attemptLog: DeliveryAttempt[];
};

export const webhookKeys = {
  list: (projectId: string) => ["webhooks", projectId, "list"] as const,
  deliveries: (id: string) => ["webhooks", "deliveries", id] as const,
};

/** access.ManageWebhooks: Test Managers and Admins see and manage webhooks. */
export const mayManageWebhooks = (role: Role | null | undefined) => atLeast(role, "Test Manager");

export const listWebhooks = async (projectId: string) =>
  (await get<{ webhooks: Webhook[] }>("/api/webhooks", inProject(projectId))).webhooks;
export const saveWebhook = (projectId: string, body: WebhookSave) => post<Webhook>("/api/webhooks", body, inProject(projectId));
export const deleteWebhook = (id: string) => del(`/api/webhooks/${encodeURIComponent(id)}`);
export const rotateWebhookSecret = (id: string) =>
  post<Answer<"/api/webhooks/{id}/secret", "post">>(`/api/webhooks/${encodeURIComponent(id)}/secret`);
export const testWebhook = (id: string) =>
  post<Answer<"/api/webhooks/{id}/test", "post", 202>>(`/api/webhooks/${encodeURIComponent(id)}/test`);
export const listDeliveries = async (id: string) =>
  (await get<{ deliveries: Delivery[] }>(`/api/webhooks/${encodeURIComponent(id)}/deliveries`)).deliveries;
