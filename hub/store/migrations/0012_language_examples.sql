-- Learned examples for drafting steps from plain language: a request and
-- the steps it became. The most similar ones (full-text rank on the
-- request's words) become few-shot pairs of the prompt.
CREATE TABLE language_examples (
    id         text PRIMARY KEY,
    project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    text       text NOT NULL,
    steps      jsonb NOT NULL,
    author_id  text REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL,
    search     tsvector GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED
);
CREATE INDEX language_examples_project ON language_examples (project_id, created_at DESC);
CREATE INDEX language_examples_search ON language_examples USING gin (search);
