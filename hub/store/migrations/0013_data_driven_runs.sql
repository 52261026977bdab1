-- Data-driven runs keep the rows they run (a snapshot taken at start:
-- [{"row": 0, "values": {...}}]) and each row's result; a run binding a
-- data pool keeps the record it took at dispatch.
ALTER TABLE runs ADD COLUMN data_set_id text;
ALTER TABLE runs ADD COLUMN rows jsonb;
ALTER TABLE runs ADD COLUMN row_results jsonb;
ALTER TABLE runs ADD COLUMN pool jsonb;

-- A pool lease ends with its run, whatever ends it: finished by its agent,
-- cancelled (queued or running), lost with its agent, over its limits,
-- expired in the queue, or deleted with its test.
CREATE FUNCTION runs_release_leases() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE data_pool_records SET state = 'free', run_id = NULL, taken_by = NULL, taken_at = NULL
        WHERE run_id = OLD.id AND state = 'leased';
    RETURN NULL;
END $$;
CREATE TRIGGER runs_release_leases_on_end AFTER UPDATE OF status ON runs
    FOR EACH ROW WHEN (NEW.status IN ('passed', 'failed', 'error', 'cancelled') AND OLD.status IN ('queued', 'running'))
    EXECUTE FUNCTION runs_release_leases();
CREATE TRIGGER runs_release_leases_on_delete AFTER DELETE ON runs
    FOR EACH ROW WHEN (OLD.status IN ('queued', 'running'))
    EXECUTE FUNCTION runs_release_leases();
