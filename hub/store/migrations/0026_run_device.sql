-- The run option device (issue 28): the named profile (protocol/devices.go)
-- every page of the run emulates; '' is the agent's desktop window. A
-- batch keeps it for its reruns.
ALTER TABLE runs ADD COLUMN device text NOT NULL DEFAULT '';
ALTER TABLE batches ADD COLUMN device text NOT NULL DEFAULT '';
