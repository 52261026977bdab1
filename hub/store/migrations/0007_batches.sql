-- A batch is one start of many runs (selected tests, a suite, or a batch
-- run again): the runs share its options and point back at it.

CREATE TABLE batches (
    id             text PRIMARY KEY,
    project_id     text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id        text REFERENCES users(id) ON DELETE SET NULL,
    environment_id text,
    headed         boolean NOT NULL,
    screenshots    boolean NOT NULL,
    source         text NOT NULL, -- tests, suite or rerun
    suite          text,          -- the suite's name when source is suite ('' is Unsorted)
    rerun_of       text,          -- the batch run again when source is rerun
    created_at     timestamptz NOT NULL
);
CREATE INDEX batches_project ON batches (project_id, created_at DESC);

ALTER TABLE runs ADD COLUMN batch_id text REFERENCES batches(id) ON DELETE SET NULL;
CREATE INDEX runs_batch ON runs (batch_id) WHERE batch_id IS NOT NULL;
