-- Accounts, sessions, password resets, sign-in attempts,
-- organizations, projects and their members.

CREATE TABLE users (
    id             text PRIMARY KEY,
    email          text NOT NULL,
    name           text NOT NULL,
    password_hash  text NOT NULL,
    platform_admin boolean NOT NULL DEFAULT false,
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email ON users (lower(email));

CREATE TABLE sessions (
    token_hash   bytea PRIMARY KEY,
    user_id      text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE password_resets (
    token_hash bytea PRIMARY KEY,
    user_id    text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);
CREATE INDEX password_resets_user ON password_resets (user_id);

-- One row per failed sign-in, counted per email and per client address.
CREATE TABLE login_failures (
    id      bigserial PRIMARY KEY,
    email   text NOT NULL,
    address text NOT NULL,
    at      timestamptz NOT NULL,
    -- set by a successful sign-in: no longer counts for the email, still
    -- counts for the address
    cleared boolean NOT NULL DEFAULT false
);
CREATE INDEX login_failures_email ON login_failures (email, at);
CREATE INDEX login_failures_address ON login_failures (address, at);

CREATE TABLE organizations (
    id         text PRIMARY KEY,
    name       text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE org_members (
    org_id     text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    user_id    text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role       text NOT NULL CHECK (role IN ('Tester', 'Test Developer', 'Test Manager', 'Admin')),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, user_id)
);
CREATE INDEX org_members_user ON org_members (user_id);

CREATE TABLE projects (
    id         text PRIMARY KEY,
    org_id     text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name       text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX projects_org ON projects (org_id);

-- A project role overrides the member's organization role in that project.
CREATE TABLE project_members (
    project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id    text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role       text NOT NULL CHECK (role IN ('Tester', 'Test Developer', 'Test Manager', 'Admin')),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, user_id)
);
CREATE INDEX project_members_user ON project_members (user_id);
