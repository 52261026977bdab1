-- Components: reusable step sequences with immutable versions. Which test
-- version calls which component version is read from the documents
-- themselves (the GIN index makes "who calls cmp_x" a containment query).

CREATE TABLE components (
    id             text PRIMARY KEY,
    project_id     text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name           text NOT NULL,
    description    text NOT NULL DEFAULT '',
    latest_version int NOT NULL,
    created_by     text REFERENCES users(id) ON DELETE SET NULL,
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL
);
CREATE UNIQUE INDEX components_project_name ON components (project_id, lower(name));

CREATE TABLE component_versions (
    component_id text NOT NULL REFERENCES components(id) ON DELETE CASCADE,
    version      int NOT NULL,
    steps        jsonb NOT NULL,
    inputs       jsonb NOT NULL,
    note         text NOT NULL DEFAULT '',
    author_id    text REFERENCES users(id) ON DELETE SET NULL,
    created_at   timestamptz NOT NULL,
    PRIMARY KEY (component_id, version)
);

CREATE INDEX test_versions_content ON test_versions USING gin (content jsonb_path_ops);
CREATE INDEX component_versions_steps ON component_versions USING gin (steps jsonb_path_ops);
