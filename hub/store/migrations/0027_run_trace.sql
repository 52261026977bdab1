-- The run option trace (issue 30, docs/trace.md): on, failures or off.
-- Runs made before it recorded nothing, so they say off; new ones default
-- to failures. A batch keeps it for its reruns.
--
-- trace_bytes counts the bytes of a run's trace artifacts (trace-*.json,
-- dom-*.html) against their own budget, apart from artifact_bytes, and
-- trace_dropped the trace artifacts refused over it: a long traced run
-- loses the end of its trace rather than ending as error.
ALTER TABLE runs ADD COLUMN trace text NOT NULL DEFAULT 'off',
    ADD COLUMN trace_bytes bigint NOT NULL DEFAULT 0,
    ADD COLUMN trace_dropped int NOT NULL DEFAULT 0;
ALTER TABLE runs ALTER COLUMN trace SET DEFAULT 'failures';
ALTER TABLE batches ADD COLUMN trace text NOT NULL DEFAULT 'off';
ALTER TABLE batches ALTER COLUMN trace SET DEFAULT 'failures';
