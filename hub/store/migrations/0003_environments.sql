-- Applications, environments and their secrets. Secret values are stored
-- only encrypted (AES-256-GCM, hub/secretbox); the database never sees a
-- plaintext value.

CREATE TABLE applications (
    id          text PRIMARY KEY,
    project_id  text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name        text NOT NULL,
    base_url    text NOT NULL,
    description text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX applications_project_name ON applications (project_id, lower(name));

CREATE TABLE environments (
    id             text PRIMARY KEY,
    project_id     text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name           text NOT NULL,
    -- an object of string values: { "user": "alice" }
    variables      jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(variables) = 'object'),
    -- always an application of the same project (checked on write)
    application_id text REFERENCES applications(id) ON DELETE SET NULL,
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL
);
CREATE UNIQUE INDEX environments_project_name ON environments (project_id, lower(name));
CREATE INDEX environments_application ON environments (application_id);

CREATE TABLE secrets (
    id             text PRIMARY KEY,
    environment_id text NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
    name           text NOT NULL,
    -- AES-256-GCM of the value; the additional data binds it to
    -- (environment_id, name), so a row moved elsewhere does not decrypt
    ciphertext     bytea NOT NULL,
    nonce          bytea NOT NULL,
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL,
    updated_by     text REFERENCES users(id) ON DELETE SET NULL,
    UNIQUE (environment_id, name)
);
