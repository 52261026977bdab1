-- Per-project webhooks: signed JSON POSTs when a run or a batch finishes.
--
-- A delivery row is written by the trigger below in the same transaction
-- that gives a run its final status, whatever path got it there (the
-- agent's finish, a cancel, a lost agent, queue expiry), so nothing is lost
-- when the hub stops; hub/webhooks sends due rows and retries failures.
-- Runs of Private tests are never delivered: a webhook's target is not
-- their owner.

CREATE TABLE webhooks (
    id                text PRIMARY KEY,
    project_id        text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name              text NOT NULL,
    url               text NOT NULL,
    events            text[] NOT NULL,
    format            text NOT NULL CHECK (format IN ('json', 'slack')),
    enabled           boolean NOT NULL,
    secret_ciphertext bytea NOT NULL, -- sealed with the hub's secret box (AAD names the webhook)
    secret_nonce      bytea NOT NULL,
    created_by        text REFERENCES users(id) ON DELETE SET NULL,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL
);
CREATE UNIQUE INDEX webhooks_name ON webhooks (project_id, lower(name));

CREATE TABLE webhook_deliveries (
    id              text PRIMARY KEY,
    webhook_id      text NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event           text NOT NULL, -- run.finished, batch.finished or ping
    subject         text NOT NULL, -- the run's or batch's id; the webhook's for ping
    status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
    attempts        int NOT NULL DEFAULT 0,
    response_status int,
    error           text NOT NULL DEFAULT '',
    duration_ms     bigint,
    attempt_log     jsonb NOT NULL DEFAULT '[]', -- [{at, responseStatus?, error?, durationMs}]
    created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    last_attempt_at timestamptz,
    -- pending: when it is due (a claimed attempt pushes it past its time-out,
    -- so a hub that stops mid-attempt leaves it due again); else NULL
    next_attempt_at timestamptz DEFAULT clock_timestamp()
);
CREATE UNIQUE INDEX webhook_deliveries_once ON webhook_deliveries (webhook_id, event, subject) WHERE event <> 'ping';
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (webhook_id, created_at DESC);

-- whd_ + 32 characters of the ids' alphabet from a random UUID.
CREATE FUNCTION webhook_delivery_id() RETURNS text LANGUAGE sql VOLATILE AS $$
    SELECT 'whd_' || translate(replace(gen_random_uuid()::text, '-', ''), '0189', 'wxyz')
$$;

-- queue_webhook_deliveries adds a delivery of event about subject for each
-- enabled webhook of the project subscribed to it (once per webhook, event
-- and subject) and wakes the senders.
CREATE FUNCTION queue_webhook_deliveries(project text, ev text, subj text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    n int;
BEGIN
    INSERT INTO webhook_deliveries (id, webhook_id, event, subject)
        SELECT webhook_delivery_id(), w.id, ev, subj FROM webhooks w
        WHERE w.project_id = project AND w.enabled AND ev = ANY (w.events)
        ON CONFLICT DO NOTHING;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n > 0 THEN
        PERFORM pg_notify('ta_webhooks', '');
    END IF;
END $$;

-- A batch is finished when none of its runs is queued or running. Two runs
-- of a batch ending at once in two transactions would each see the other
-- still running; locking the batch row makes the second wait for the
-- first to commit, and its check (a new snapshot) then sees it.
CREATE FUNCTION webhooks_on_run_end() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM webhooks WHERE project_id = NEW.project_id AND enabled) THEN
        RETURN NULL;
    END IF;
    IF EXISTS (SELECT 1 FROM tests WHERE id = NEW.test_id AND visibility = 'Shared') THEN
        PERFORM queue_webhook_deliveries(NEW.project_id, 'run.finished', NEW.id);
    END IF;
    IF NEW.batch_id IS NOT NULL THEN
        PERFORM 1 FROM batches WHERE id = NEW.batch_id FOR NO KEY UPDATE;
        IF NOT EXISTS (SELECT 1 FROM runs WHERE batch_id = NEW.batch_id AND status IN ('queued', 'running'))
           AND EXISTS (SELECT 1 FROM runs r JOIN tests t ON t.id = r.test_id WHERE r.batch_id = NEW.batch_id AND t.visibility = 'Shared') THEN
            PERFORM queue_webhook_deliveries(NEW.project_id, 'batch.finished', NEW.batch_id);
        END IF;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER runs_webhooks_on_end AFTER UPDATE OF status ON runs
    FOR EACH ROW WHEN (NEW.status IN ('passed', 'failed', 'error', 'cancelled') AND OLD.status IN ('queued', 'running'))
    EXECUTE FUNCTION webhooks_on_run_end();
