-- Retries, flakiness and quarantine (issue 31, docs/history.md).
--
-- retries is the run option (0 to 3): how many times the agent runs a
-- failed test again; flaky marks a run that failed and then passed. A
-- batch keeps retries for its reruns.
--
-- A test is quarantined while quarantined_at is set. Each run records
-- whether its test was quarantined when it ended (the trigger below, so
-- every way a run ends counts): a quarantined run's failure does not fail
-- its batch, and un-quarantining later does not rewrite past outcomes.
ALTER TABLE runs ADD COLUMN retries int NOT NULL DEFAULT 0 CHECK (retries BETWEEN 0 AND 3),
    ADD COLUMN flaky boolean NOT NULL DEFAULT false,
    ADD COLUMN quarantined boolean NOT NULL DEFAULT false;
ALTER TABLE batches ADD COLUMN retries int NOT NULL DEFAULT 0 CHECK (retries BETWEEN 0 AND 3);
ALTER TABLE tests ADD COLUMN quarantined_at timestamptz,
    ADD COLUMN quarantined_by text REFERENCES users(id) ON DELETE SET NULL,
    ADD COLUMN quarantine_reason text NOT NULL DEFAULT '';

CREATE FUNCTION runs_note_quarantine() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.quarantined := coalesce((SELECT quarantined_at IS NOT NULL FROM tests WHERE id = NEW.test_id), false);
    RETURN NEW;
END $$;
CREATE TRIGGER runs_note_quarantine_on_end BEFORE UPDATE OF status ON runs
    FOR EACH ROW WHEN (NEW.status IN ('passed', 'failed', 'error', 'cancelled') AND OLD.status IN ('queued', 'running'))
    EXECUTE FUNCTION runs_note_quarantine();
