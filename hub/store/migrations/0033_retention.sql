-- Retention (issue 32, docs/retention.md): when the hub removed a run's
-- artifacts and traces by HUB_RETAIN_RUNS_DAYS or HUB_RETAIN_FAILED_DAYS;
-- NULL while it keeps them. Set only after the bytes are gone, so a run
-- marked pruned never has bytes left behind.
ALTER TABLE runs ADD COLUMN artifacts_pruned_at timestamptz;

-- The retention job's two questions, in finish order: which finished runs
-- still keep their artifacts, which finished runs there are at all.
CREATE INDEX runs_retention_artifacts ON runs (finished_at, id)
    WHERE artifacts_pruned_at IS NULL AND status IN ('passed', 'failed', 'error', 'cancelled');
CREATE INDEX runs_retention_rows ON runs (finished_at, id)
    WHERE status IN ('passed', 'failed', 'error', 'cancelled');
