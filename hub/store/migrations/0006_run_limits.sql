-- What a run has stored so far, so the hub can hold every run to its limits
-- (events, bytes of events, bytes of artifacts) without counting rows.
ALTER TABLE runs
    ADD COLUMN event_count    int    NOT NULL DEFAULT 0,
    ADD COLUMN event_bytes    bigint NOT NULL DEFAULT 0,
    ADD COLUMN artifact_bytes bigint NOT NULL DEFAULT 0;
