// Webhooks: addresses that receive a signed JSON POST when a run or a batch
// of the project finishes (Slack's incoming-webhook format optional). Test
// Managers and Admins manage them; the signing secret is shown once, after
// create or rotate; each webhook has a delivery log with every attempt.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  WEBHOOK_EVENTS,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  mayManageWebhooks,
  rotateWebhookSecret,
  saveWebhook,
  testWebhook,
  webhookKeys,
  type Webhook,
  type WebhookEvent,
  type WebhookFormat,
  type WebhookSave,
} from "../../api/webhooks";
import { useWorkspace } from "../../session";
import { ErrorBox, IssueList, Modal, PageHeader, When, formatDuration } from "../../components/ui";
import { ConfirmAction } from "../../components/ConfirmAction";
import { ResourceTable } from "../../components/ResourceTable";

/** buildWebhookBody turns the form into a POST body, or answers the problems found. */
export function buildWebhookBody(input: {
  hook: Webhook | null;
  name: string;
  url: string;
  events: WebhookEvent[];
  format: WebhookFormat;
  enabled: boolean;
}): { body: WebhookSave | null; problems: string[] } {
  const problems: string[] = [];
  const name = input.name.trim();
  const url = input.url.trim();
  if (!name) problems.push("The webhook needs a name.");
  if (!/^https?:\/\/[^\s/]+/i.test(url)) problems.push("The URL must start with http:// or https:// and name a host.");
  if (input.events.length === 0) problems.push("Choose at least one event.");
  if (problems.length > 0) return { body: null, problems };
  const body: WebhookSave = { name, url, events: input.events, format: input.format, enabled: input.enabled };
  if (input.hook) body.id = input.hook.id;
  return { body, problems };
}

export function WebhooksPage() {
  const ws = useWorkspace();
  const projectId = ws.project?.id ?? "";
  const canManage = mayManageWebhooks(ws.role);
  const hooks = useQuery({ queryKey: webhookKeys.list(projectId), queryFn: () => listWebhooks(projectId), enabled: canManage });
  const [editing, setEditing] = useState<Webhook | "new" | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const [log, setLog] = useState<Webhook | null>(null);

  if (!canManage) {
    return (
      <section className="webhooks">
        <PageHeader title="Webhooks" />
        <p className="notice">
          Test Managers and Admins see and manage the project's webhooks; your role in this project is {ws.role ?? "none"}.
        </p>
      </section>
    );
  }
  return (
    <section className="webhooks">
      <PageHeader title="Webhooks" subtitle="Addresses that receive a signed POST when a run or a batch finishes.">
        <button type="button" className="primary" onClick={() => setEditing("new")}>
          New webhook
        </button>
      </PageHeader>
      <ResourceTable
        query={hooks}
        rowKey={(h) => h.id}
        loadingLabel="Loading webhooks"
        errorTitle="Webhooks could not be loaded"
        empty={<>No webhooks yet. Create one to tell CI or a chat channel when runs finish.</>}
        columns={[
          {
            header: "Name",
            cell: (h) => (
              <>
                <strong>{h.name}</strong> {!h.enabled && <span className="badge badge-not-set">disabled</span>}
              </>
            ),
          },
          { header: "URL", cell: (h) => <span className="mono">{h.url}</span> },
          { header: "Events", cell: (h) => h.events.join(", ") },
          { header: "Format", cell: (h) => (h.format === "slack" ? "Slack" : "JSON") },
          {
            header: "Last delivery",
            cell: (h) =>
              h.lastDelivery ? (
                <>
                  <span className={`badge delivery-${h.lastDelivery.status}`}>{h.lastDelivery.status}</span>
                  {h.lastDelivery.responseStatus != null && ` ${h.lastDelivery.responseStatus}`} <When at={h.lastDelivery.at} />
                </>
              ) : (
                <span className="muted">none</span>
              ),
          },
        ]}
        actions={(h) => (
          <>
            <button type="button" className="small" onClick={() => setLog(h)} aria-label={`Deliveries of ${h.name}`}>
              Deliveries
            </button>
            <button type="button" className="small" onClick={() => setEditing(h)} aria-label={`Edit ${h.name}`}>
              Edit
            </button>
            <button type="button" className="small" onClick={() => setDeleting(h)} aria-label={`Delete ${h.name}`}>
              Delete
            </button>
          </>
        )}
      />
      {editing && (
        <WebhookForm
          hook={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onCreated={(h) => {
            setEditing(null);
            if (h.secret) setSecret({ name: h.name, secret: h.secret });
          }}
          onRotated={(name, s) => {
            setEditing(null);
            setSecret({ name, secret: s });
          }}
        />
      )}
      {deleting && <DeleteWebhook hook={deleting} onClose={() => setDeleting(null)} />}
      {secret && <SecretOnce {...secret} onClose={() => setSecret(null)} />}
      {log && <DeliveryLog hook={log} onClose={() => setLog(null)} />}
    </section>
  );
}

function WebhookForm({
  hook,
  onClose,
  onCreated,
  onRotated,
}: {
  hook: Webhook | null;
  onClose: () => void;
  onCreated: (h: Webhook) => void;
  onRotated: (name: string, secret: string) => void;
}) {
  const qc = useQueryClient();
  const projectId = useWorkspace().project?.id ?? "";
  const [name, setName] = useState(hook?.name ?? "");
  const [url, setUrl] = useState(hook?.url ?? "");
  const [events, setEvents] = useState<WebhookEvent[]>(hook?.events ?? [...WEBHOOK_EVENTS]);
  const [format, setFormat] = useState<WebhookFormat>(hook?.format ?? "json");
  const [enabled, setEnabled] = useState(hook?.enabled ?? true);
  const [problems, setProblems] = useState<string[]>([]);
  const save = useMutation({
    mutationFn: (body: WebhookSave) => saveWebhook(projectId, body),
    onSuccess: async (h) => {
      await qc.invalidateQueries({ queryKey: ["webhooks"] });
      if (hook) onClose();
      else onCreated(h);
    },
  });
  const rotate = useMutation({
    mutationFn: () => rotateWebhookSecret(hook?.id ?? ""),
    onSuccess: (r) => onRotated(hook?.name ?? "", r.secret),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const { body, problems } = buildWebhookBody({ hook, name, url, events, format, enabled });
    setProblems(problems);
    if (body) save.mutate(body);
  };
  const toggle = (ev: WebhookEvent, on: boolean) =>
    setEvents(on ? WEBHOOK_EVENTS.filter((x) => x === ev || events.includes(x)) : events.filter((x) => x !== ev));
  return (
    <Modal title={hook ? `Edit webhook ${hook.name}` : "New webhook"} onClose={onClose}>
      <form onSubmit={submit} className="form">
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required />
        </label>
        <label>
          URL
          <input
            type="url"
            className="mono"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://ci.example.com/hooks/tests"
            required
          />
        </label>
        <fieldset>
          <legend>Events</legend>
          {WEBHOOK_EVENTS.map((ev) => (
            <label className="inline" key={ev}>
              <input type="checkbox" checked={events.includes(ev)} onChange={(e) => toggle(ev, e.target.checked)} />
              {ev === "run.finished" ? "A run finished (run.finished)" : "A batch finished (batch.finished)"}
            </label>
          ))}
        </fieldset>
        <label>
          Format
          <select value={format} onChange={(e) => setFormat(e.target.value as WebhookFormat)}>
            <option value="json">JSON</option>
            <option value="slack">Slack incoming webhook</option>
          </select>
        </label>
        <label className="inline">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          Enabled
        </label>
        {hook && (
          <p className="hint">
            The signing secret was shown once when the webhook was made.{" "}
            <button type="button" className="small" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
              Rotate secret
            </button>
          </p>
        )}
        {problems.length > 0 && (
          <div className="error-box" role="alert">
            <ul>
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </div>
        )}
        <ErrorBox error={save.error ?? rotate.error} />
        <IssueList error={save.error} />
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={save.isPending}>
            {save.isPending ? "Saving…" : hook ? "Save" : "Create webhook"}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** SecretOnce shows a signing secret the hub will not show again. */
function SecretOnce({ name, secret, onClose }: { name: string; secret: string; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <Modal title={`Signing secret of ${name}`} onClose={onClose}>
      <div className="modal-body">
        <p>
          Copy it now: it is not shown again. The receiver checks <code>X-TA-Signature-256</code>, the HMAC-SHA256 of the body with this
          secret.
        </p>
        <p>
          <code className="mono" data-testid="webhook-secret">
            {secret}
          </code>{" "}
          <button
            type="button"
            className="small"
            onClick={() => {
              void navigator.clipboard?.writeText(secret).then(() => setCopied(true));
            }}
          >
            {copied ? "Copied" : "Copy"}
          </button>
        </p>
      </div>
      <div className="modal-actions">
        <button type="button" className="primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Modal>
  );
}

/** DeliveryLog lists a webhook's newest deliveries with every attempt, and sends a test. */
function DeliveryLog({ hook, onClose }: { hook: Webhook; onClose: () => void }) {
  const qc = useQueryClient();
  const deliveries = useQuery({ queryKey: webhookKeys.deliveries(hook.id), queryFn: () => listDeliveries(hook.id) });
  const ping = useMutation({
    mutationFn: () => testWebhook(hook.id),
    onSuccess: () => setTimeout(() => void qc.invalidateQueries({ queryKey: webhookKeys.deliveries(hook.id) }), 1000),
  });
  return (
    <Modal title={`Deliveries of ${hook.name}`} onClose={onClose} wide>
      <div className="row">
        <button type="button" onClick={() => ping.mutate()} disabled={ping.isPending}>
          Send test
        </button>
        <button type="button" onClick={() => void deliveries.refetch()}>
          Refresh
        </button>
        {ping.isSuccess && <span className="hint">Test queued.</span>}
      </div>
      <ErrorBox error={ping.error} />
      <ResourceTable
        query={deliveries}
        rowKey={(d) => d.id}
        loadingLabel="Loading deliveries"
        errorTitle="Deliveries could not be loaded"
        empty={<>No deliveries yet.</>}
        columns={[
          { header: "Event", cell: (d) => <span className="mono">{d.event}</span> },
          { header: "Status", cell: (d) => <span className={`badge delivery-${d.status}`}>{d.status}</span> },
          { header: "Attempts", headerClassName: "num", className: "num", cell: (d) => d.attempts },
          { header: "Response", cell: (d) => d.responseStatus ?? <span className="muted">—</span> },
          { header: "Error", cell: (d) => d.error ?? <span className="muted">—</span> },
          { header: "Took", cell: (d) => (d.durationMs != null ? formatDuration(d.durationMs) : "—") },
          { header: "Queued", cell: (d) => <When at={d.createdAt} /> },
          { header: "Last attempt", cell: (d) => <When at={d.lastAttemptAt} /> },
          { header: "Next attempt", cell: (d) => (d.nextAttemptAt ? <When at={d.nextAttemptAt} /> : <span className="muted">—</span>) },
        ]}
      />
    </Modal>
  );
}

function DeleteWebhook({ hook, onClose }: { hook: Webhook; onClose: () => void }) {
  return (
    <ConfirmAction
      title={`Delete webhook ${hook.name}?`}
      confirmLabel="Delete webhook"
      action={() => deleteWebhook(hook.id)}
      refresh={[["webhooks"]]}
      onDone={onClose}
      onCancel={onClose}
    >
      <p>
        Webhook <strong>{hook.name}</strong> and its delivery log are deleted; deliveries not yet sent are dropped. This cannot be undone.
      </p>
    </ConfirmAction>
  );
}
