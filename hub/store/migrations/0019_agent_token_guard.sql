-- One token, one connection (issue 26). A second connection with the token
-- of an agent that is connected and answering is refused: the last refused
-- attempt is kept on the agent (when, from which address) for its owner's
-- Agents page. The owner may rotate the token while the agent is
-- connected: the new token's digest waits in next_token_hash until the
-- agent confirms it has stored it (or connects with it), then replaces
-- token_hash and the old token stops working.
ALTER TABLE agents ADD COLUMN refused_at timestamptz;
ALTER TABLE agents ADD COLUMN refused_from text;
ALTER TABLE agents ADD COLUMN next_token_hash bytea UNIQUE;
