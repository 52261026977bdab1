-- Several hubs on one database (issue 32, docs/several-hubs.md).
--
-- hubs: every hub process that is running, or was until it stopped without
-- saying so. seen_at moves every few seconds while it runs; a hub whose
-- seen_at is older than the staleness bound (store.HubStale) is dead and
-- whatever it listed is ignored, then removed. url is where other hubs
-- reach it (authoring requests are passed to the hub that holds the agent).
CREATE TABLE hubs (
    id         text PRIMARY KEY,
    url        text NOT NULL DEFAULT '',
    started_at timestamptz NOT NULL DEFAULT now(),
    seen_at    timestamptz NOT NULL DEFAULT now(),
    draining   boolean NOT NULL DEFAULT false
);

-- hub_agents: which hub holds each connected agent's connection, and what
-- the other hubs need to know of it to answer for it (the Agents page, why
-- a run waits, which agent an authoring session goes to).
CREATE TABLE hub_agents (
    agent_id  text PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
    hub_id    text NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
    user_id   text NOT NULL,
    headless  boolean NOT NULL DEFAULT true,
    paused    boolean NOT NULL DEFAULT false,
    ephemeral boolean NOT NULL DEFAULT false,
    busy      int NOT NULL DEFAULT 0,
    parallel  int NOT NULL DEFAULT 1,
    addr      text NOT NULL DEFAULT '',
    since     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hub_agents_user ON hub_agents (user_id);

-- A computer waiting on its pairing code waits on one hub's connection:
-- the approval, made on any hub, is passed to that one.
ALTER TABLE agent_pairings
    ADD COLUMN hub_id     text,
    ADD COLUMN addr       text NOT NULL DEFAULT '',
    ADD COLUMN pending_id text NOT NULL DEFAULT '';

-- A value sealed with the secret key of the first hub: a hub whose
-- HUB_SECRET_KEY differs (it could not read the stored secrets) refuses
-- to start, saying so.
CREATE TABLE hub_key_check (
    id         int PRIMARY KEY CHECK (id = 1),
    sealed     bytea NOT NULL,
    nonce      bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- An authoring session (recording, picker, live session) lives in the
-- memory of the hub holding its agent; a request for it reaching another
-- hub is passed there.
CREATE TABLE hub_sessions (
    id         text PRIMARY KEY,
    hub_id     text NOT NULL REFERENCES hubs(id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now()
);
