// Webhooks: a project's addresses that receive a signed POST when a run or
// a batch finishes, and each webhook's delivery log (hub/api/webhooks.go).
import { del, get, inProject, post } from "./client";
import { atLeast } from "./admin";
import type { Role } from "./types";

export type WebhookEvent = "run.finished" | "batch.finished";
export const WEBHOOK_EVENTS: WebhookEvent[] = ["run.finished", "batch.finished"];
export type WebhookFormat = "json" | "slack";

/** hub/api/webhooks.go webhookJSON; secret only in the answer that made it. */
export interface Webhook {
  id: string;
  projectId: string;
  name: string;
  url: string;
  events: WebhookEvent[];
  format: WebhookFormat;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  lastDelivery?: { status: DeliveryStatus; at: string; responseStatus: number | null };
  secret?: string;
}

export interface WebhookSave {
  id?: string;
  name: string;
  url: string;
  events: WebhookEvent[];
  format: WebhookFormat;
  enabled: boolean;
}

export type DeliveryStatus = "pending" | "succeeded" | "failed";

/** hub/api/webhooks.go deliveryJSON */
export interface Delivery {
  id: string;
  event: WebhookEvent | "ping";
  subject: string;
  status: DeliveryStatus;
  attempts: number;
  responseStatus?: number;
  error?: string;
  durationMs?: number;
  createdAt: string;
  lastAttemptAt?: string;
  nextAttemptAt?: string;
  attemptLog: { at: string; responseStatus?: number; error?: string; durationMs: number }[];
}

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
export const rotateWebhookSecret = (id: string) => post<{ id: string; secret: string }>(`/api/webhooks/${encodeURIComponent(id)}/secret`);
export const testWebhook = (id: string) => post<{ deliveryId: string }>(`/api/webhooks/${encodeURIComponent(id)}/test`);
export const listDeliveries = async (id: string) =>
  (await get<{ deliveries: Delivery[] }>(`/api/webhooks/${encodeURIComponent(id)}/deliveries`)).deliveries;
