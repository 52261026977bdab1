-- A CI agent belongs to the API token that made it: it is disconnected and
-- removed when that token is revoked or expires (or its user is deleted),
-- and one token may have only so many at once (hub/dispatch/ci.go).
ALTER TABLE agents ADD COLUMN api_token_id text REFERENCES api_tokens(id) ON DELETE CASCADE;
CREATE INDEX agents_api_token ON agents (api_token_id) WHERE api_token_id IS NOT NULL;
