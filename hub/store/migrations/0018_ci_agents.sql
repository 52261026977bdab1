-- CI agents: `agent ci` joins the hub as an ephemeral agent authorized by
-- an API token (no pairing). It takes only the runs pinned to it (runs.
-- agent_pin, set by POST /api/runs agentId), is never given other runs or
-- authoring sessions, and is removed when its command ends or, if it never
-- says goodbye, an hour after it was last seen.
ALTER TABLE agents ADD COLUMN ephemeral boolean NOT NULL DEFAULT false;
ALTER TABLE runs ADD COLUMN agent_pin text;
CREATE INDEX runs_pinned_waiting ON runs (agent_pin) WHERE status = 'queued' AND agent_pin IS NOT NULL;
-- A batch may be every test with a tag (source 'tag').
ALTER TABLE batches ADD COLUMN tag text;
