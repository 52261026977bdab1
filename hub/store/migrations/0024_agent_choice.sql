-- Agents told apart and chosen (issue 27): an owner names an agent and
-- gives it labels; the agent's hello reports its browser's version. A run
-- may ask for agents having all of some labels (runs.agent_labels), kept
-- on the run so that a run queued again still goes only to such an agent.
ALTER TABLE agents ADD COLUMN labels text[] NOT NULL DEFAULT '{}';
ALTER TABLE agents ADD COLUMN browser_version text NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN agent_labels text[] NOT NULL DEFAULT '{}';
