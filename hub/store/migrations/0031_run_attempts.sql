-- A retried run's attempts (issue 31, docs/retries.md): every attempt's
-- status, counts, error and steps, in order, when the agent ran the test
-- more than once (a failure, then a retry). NULL for a run that ran once.
-- The run's own result and status are its last attempt's.
ALTER TABLE runs ADD COLUMN attempt_results jsonb;
