-- Test data sets (a data-driven run runs its test once per row) and data
-- pools (each run takes one record at dispatch, leased until the run ends
-- or consumed until the pool is reset).

CREATE TABLE test_data_sets (
    id          text PRIMARY KEY,
    project_id  text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name        text NOT NULL,
    -- ["user", "password"]: the order of the grid and of a CSV export
    columns     jsonb NOT NULL CHECK (jsonb_typeof(columns) = 'array'),
    -- [{"user": "alice", "password": "..."}]: every row has every column
    rows        jsonb NOT NULL CHECK (jsonb_typeof(rows) = 'array'),
    created_by  text REFERENCES users(id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX test_data_sets_project_name ON test_data_sets (project_id, lower(name));

CREATE TABLE data_pools (
    id          text PRIMARY KEY,
    project_id  text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name        text NOT NULL,
    columns     jsonb NOT NULL CHECK (jsonb_typeof(columns) = 'array'),
    created_by  text REFERENCES users(id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX data_pools_project_name ON data_pools (project_id, lower(name));

CREATE TABLE data_pool_records (
    pool_id   text NOT NULL REFERENCES data_pools(id) ON DELETE CASCADE,
    idx       int NOT NULL, -- 0-based position in the pool
    "values"  jsonb NOT NULL CHECK (jsonb_typeof("values") = 'object'),
    state     text NOT NULL DEFAULT 'free' CHECK (state IN ('free', 'leased', 'consumed')),
    -- the run holding the record (no foreign key: a consumed record keeps
    -- the id of its run after the run is deleted)
    run_id    text,
    taken_by  text REFERENCES users(id) ON DELETE SET NULL,
    taken_at  timestamptz,
    PRIMARY KEY (pool_id, idx),
    CHECK ((state = 'free') = (run_id IS NULL))
);
-- TakePoolRecord's lookup: the first free record of a pool.
CREATE INDEX data_pool_records_free ON data_pool_records (pool_id, idx) WHERE state = 'free';
-- ReleasePoolLeases: the records a run holds.
CREATE INDEX data_pool_records_run ON data_pool_records (run_id) WHERE run_id IS NOT NULL;
