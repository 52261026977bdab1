-- Paired agents, pairing codes, runs, their events and artifacts.

CREATE TABLE agents (
    id           text PRIMARY KEY,
    user_id      text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name         text NOT NULL,
    os           text NOT NULL,
    token_hash   bytea NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL
);
CREATE INDEX agents_user ON agents (user_id);

CREATE TABLE agent_pairings (
    code        text PRIMARY KEY,
    hostname    text NOT NULL,
    os          text NOT NULL,
    created_at  timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL,
    approved_at timestamptz,
    agent_id    text
);

CREATE TABLE runs (
    id             text PRIMARY KEY,
    project_id     text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    test_id        text NOT NULL REFERENCES tests(id) ON DELETE CASCADE,
    version        int NOT NULL,
    environment_id text,
    user_id        text REFERENCES users(id) ON DELETE SET NULL,
    status         text NOT NULL,
    headed         boolean NOT NULL,
    screenshots    boolean NOT NULL,
    passed         int NOT NULL DEFAULT 0,
    total          int NOT NULL DEFAULT 0,
    duration_ms    bigint NOT NULL DEFAULT 0,
    error          text NOT NULL DEFAULT '',
    result         jsonb,
    agent_id       text,
    attempts       int NOT NULL DEFAULT 0, -- starts by an agent
    assignments    int NOT NULL DEFAULT 0, -- hand-overs to an agent, started or not
    lease_until    timestamptz,
    cancel_requested boolean NOT NULL DEFAULT false,
    created_at     timestamptz NOT NULL,
    started_at     timestamptz,
    finished_at    timestamptz
);
CREATE INDEX runs_project ON runs (project_id, created_at DESC, id DESC);
CREATE INDEX runs_test ON runs (test_id, created_at DESC);
CREATE INDEX runs_waiting ON runs (user_id, created_at) WHERE status IN ('queued', 'running');

CREATE TABLE run_events (
    run_id text NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    seq    bigint NOT NULL,
    kind   text NOT NULL,
    data   json NOT NULL, -- kept as the agent sent it (compact, in order)
    PRIMARY KEY (run_id, seq)
);

CREATE TABLE run_artifacts (
    run_id       text NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    name         text NOT NULL,
    content_type text NOT NULL,
    size         bigint NOT NULL,
    step         int,
    PRIMARY KEY (run_id, name)
);
