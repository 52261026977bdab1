import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch, renderPage, testContext } from "../../test/render";
import type { Delivery, Webhook } from "../../api/webhooks";
import { WebhooksPage, buildWebhookBody } from "./WebhooksPage";

afterEach(() => vi.unstubAllGlobals());

const ci: Webhook = {
  id: "whk_ci00000000000000000",
  projectId: "prj_1",
  name: "CI",
  url: "https://ci.example.com/hooks/tests",
  events: ["run.finished", "batch.finished"],
  format: "json",
  enabled: true,
  createdAt: "2026-11-01T10:00:00Z",
  updatedAt: "2026-11-01T10:00:00Z",
  lastDelivery: { status: "failed", at: "2026-11-01T10:05:00Z", responseStatus: 500 },
};
const retried: Delivery = {
  id: "whd_1",
  event: "run.finished",
  subject: "run_abc",
  status: "succeeded",
  attempts: 3,
  responseStatus: 200,
  durationMs: 42,
  createdAt: "2026-11-01T10:00:00Z",
  lastAttemptAt: "2026-11-01T10:01:10Z",
  attemptLog: [],
};
const hanging: Delivery = {
  ...retried,
  id: "whd_2",
  status: "failed",
  attempts: 5,
  responseStatus: undefined,
  error: "no answer within 10s",
};

describe("WebhooksPage", () => {
  it("lists webhooks with their last delivery", async () => {
    fakeFetch({ "GET /api/webhooks": { body: { webhooks: [ci] } } });
    renderPage(<WebhooksPage />, { route: "/webhooks", path: "/webhooks", context: testContext("Test Manager") });
    const row = (await screen.findByText("CI")).closest("tr")!;
    expect(row).toHaveTextContent("https://ci.example.com/hooks/tests");
    expect(row).toHaveTextContent("run.finished, batch.finished");
    expect(row).toHaveTextContent("failed 500");
  });

  it("creates a Slack webhook and shows its secret once", async () => {
    const { calls } = fakeFetch({
      "GET /api/webhooks": { body: { webhooks: [] } },
      "POST /api/webhooks": {
        status: 201,
        body: { ...ci, id: "whk_new", name: "Chat", format: "slack", events: ["run.finished"], secret: "whsec_shown_once" },
      },
    });
    const user = userEvent.setup();
    renderPage(<WebhooksPage />, { route: "/webhooks", path: "/webhooks", context: testContext("Admin") });
    await user.click(await screen.findByRole("button", { name: "New webhook" }));
    await user.type(screen.getByLabelText("Name"), "Chat");
    await user.type(screen.getByLabelText("URL"), "https://hooks.slack.com/services/T/B/X");
    await user.click(screen.getByLabelText("A batch finished (batch.finished)"));
    await user.selectOptions(screen.getByLabelText("Format"), "slack");
    await user.click(screen.getByRole("button", { name: "Create webhook" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")!.body).toEqual({
      name: "Chat",
      url: "https://hooks.slack.com/services/T/B/X",
      events: ["run.finished"],
      format: "slack",
      enabled: true,
    });
    expect(await screen.findByTestId("webhook-secret")).toHaveTextContent("whsec_shown_once");
    await user.click(screen.getByRole("button", { name: "Done" }));
    expect(document.body.innerHTML).not.toContain("whsec_shown_once");
  });

  it("shows the delivery log and sends a test", async () => {
    const { calls } = fakeFetch({
      "GET /api/webhooks": { body: { webhooks: [ci] } },
      "GET /api/webhooks/whk_ci00000000000000000/deliveries": { body: { deliveries: [hanging, retried] } },
      "POST /api/webhooks/whk_ci00000000000000000/test": { status: 202, body: { deliveryId: "whd_3" } },
    });
    const user = userEvent.setup();
    renderPage(<WebhooksPage />, { route: "/webhooks", path: "/webhooks", context: testContext("Test Manager") });
    await user.click(await screen.findByRole("button", { name: "Deliveries of CI" }));
    const dialog = screen.getByRole("dialog");
    const failed = (await within(dialog).findByText("no answer within 10s")).closest("tr")!;
    expect(failed).toHaveTextContent("failed");
    expect(failed).toHaveTextContent("5");
    const ok = within(dialog).getByText("succeeded").closest("tr")!;
    expect(ok).toHaveTextContent("200");
    await user.click(within(dialog).getByRole("button", { name: "Send test" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.path.endsWith("/test"))).toBe(true));
    expect(await within(dialog).findByText("Test queued.")).toBeInTheDocument();
  });

  it("is closed to roles below Test Manager, and asks nothing of the hub", async () => {
    const { calls } = fakeFetch({});
    renderPage(<WebhooksPage />, { route: "/webhooks", path: "/webhooks", context: testContext("Test Developer") });
    expect(await screen.findByText(/Test Managers and Admins see and manage/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "New webhook" })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path.startsWith("/api/webhooks"))).toHaveLength(0);
  });
});

describe("buildWebhookBody", () => {
  it("refuses a form without a name, a usable URL or an event", () => {
    const r = buildWebhookBody({ hook: null, name: " ", url: "ci.example.com", events: [], format: "json", enabled: true });
    expect(r.body).toBeNull();
    expect(r.problems).toHaveLength(3);
  });
  it("keeps the id on edit", () => {
    const r = buildWebhookBody({
      hook: ci,
      name: "CI",
      url: " http://127.0.0.1:9/ ",
      events: ["batch.finished"],
      format: "json",
      enabled: false,
    });
    expect(r.body).toEqual({
      id: ci.id,
      name: "CI",
      url: "http://127.0.0.1:9/",
      events: ["batch.finished"],
      format: "json",
      enabled: false,
    });
  });
});
