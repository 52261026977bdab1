-- API tokens: personal credentials for CI and scripts, sent as
-- "Authorization: Bearer tat_...". Only the SHA-256 digest is stored; the
-- token text is shown once when it is created.
CREATE TABLE api_tokens (
    id             text PRIMARY KEY,
    user_id        text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name           text NOT NULL,
    -- NULL: every project of the user; else the only project it acts in
    project_id     text REFERENCES projects(id) ON DELETE CASCADE,
    -- NULL: the user's own role; else a cap on it
    role           text CHECK (role IN ('Tester', 'Test Developer', 'Test Manager', 'Admin')),
    digest         bytea NOT NULL UNIQUE,
    created_at     timestamptz NOT NULL,
    expires_at     timestamptz,
    revoked_at     timestamptz,
    last_used_at   timestamptz,
    last_used_from text
);
CREATE INDEX api_tokens_user ON api_tokens (user_id, created_at);
CREATE INDEX api_tokens_project ON api_tokens (project_id);
