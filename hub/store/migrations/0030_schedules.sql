-- Schedules (issue 31, docs/schedules.md): a 5-field cron in a time zone
-- starts a batch of a suite, a tag or chosen tests, with an environment and
-- run options, as its owner would start it.
--
-- user_id is the owner: the runs go to the owner's agents. When the
-- owner's account is deleted the schedule stays (SET NULL), so the team
-- sees it fail saying why instead of losing it silently.
CREATE TABLE schedules (
    id             text PRIMARY KEY,
    project_id     text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id        text REFERENCES users(id) ON DELETE SET NULL,
    name           text NOT NULL,
    cron           text NOT NULL,
    timezone       text NOT NULL,
    target         text NOT NULL CHECK (target IN ('suite', 'tag', 'tests')),
    suite          text,   -- when target is suite ('' is Unsorted)
    tag            text,   -- when target is tag
    test_ids       text[], -- when target is tests, in the order chosen
    environment_id text REFERENCES environments(id),
    headed         boolean NOT NULL DEFAULT false,
    screenshots    boolean NOT NULL DEFAULT true,
    device         text NOT NULL DEFAULT '',
    trace          text NOT NULL DEFAULT 'failures',
    retries        int NOT NULL DEFAULT 0 CHECK (retries BETWEEN 0 AND 3),
    agent_id       text NOT NULL DEFAULT '',
    labels         text[],
    enabled        boolean NOT NULL DEFAULT true,
    next_at        timestamptz NOT NULL,
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL
);
CREATE INDEX schedules_project ON schedules (project_id, lower(name));
CREATE INDEX schedules_due ON schedules (next_at) WHERE enabled;

-- A deleted environment pauses the schedules using it: running them
-- without it would aim the tests at whatever their defaults are.
CREATE FUNCTION schedules_environment_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE schedules SET enabled = false, environment_id = NULL, updated_at = now() WHERE environment_id = OLD.id;
    RETURN OLD;
END $$;
CREATE TRIGGER schedules_environment_gone BEFORE DELETE ON environments
    FOR EACH ROW EXECUTE FUNCTION schedules_environment_gone();

-- Each due time a hub handled: started (batch_id), skipped (missed while
-- no hub ran) or failed (reason). One row per due time: the unique key is
-- the last guard against starting a due time twice.
CREATE TABLE schedule_runs (
    id          bigserial PRIMARY KEY,
    schedule_id text NOT NULL REFERENCES schedules(id) ON DELETE CASCADE,
    due_at      timestamptz NOT NULL,
    status      text NOT NULL CHECK (status IN ('started', 'skipped', 'failed')),
    batch_id    text REFERENCES batches(id) ON DELETE SET NULL,
    reason      text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL,
    UNIQUE (schedule_id, due_at)
);

ALTER TABLE batches ADD COLUMN schedule_id text REFERENCES schedules(id) ON DELETE SET NULL;
CREATE INDEX batches_schedule ON batches (schedule_id) WHERE schedule_id IS NOT NULL;
