-- Requests counted for limits other than the sign-in limit (registrations
-- per client address, password reset requests per address and per email):
-- one row per counted request, kept in PostgreSQL so several hubs share
-- the limits. kind names the limit, key the address or email counted.
CREATE TABLE request_counts (
    id   bigserial PRIMARY KEY,
    kind text NOT NULL,
    key  text NOT NULL,
    at   timestamptz NOT NULL
);
CREATE INDEX request_counts_key ON request_counts (kind, key, at);
CREATE INDEX request_counts_at ON request_counts (at);
