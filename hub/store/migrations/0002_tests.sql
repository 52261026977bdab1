-- Test cases: the test row mirrors its current version; every version keeps
-- its full document, author, time and note.

CREATE TABLE suites (
    project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name       text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, name)
);

CREATE TABLE tests (
    id          text PRIMARY KEY,
    project_id  text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name        text NOT NULL,
    suite       text NOT NULL DEFAULT '',  -- '' when the test has no suite
    tags        text[] NOT NULL DEFAULT '{}',
    visibility  text NOT NULL CHECK (visibility IN ('Shared', 'Private')),
    -- NULL once the owner's account is deleted; a Test Manager can hand the
    -- test to someone else.
    owner_id    text REFERENCES users(id) ON DELETE SET NULL,
    status      text NOT NULL CHECK (status IN ('Draft', 'Ready', 'Deprecated')),
    version     int NOT NULL,
    -- bumped by every write; the ETag of GET /api/tests/:id
    revision    int NOT NULL DEFAULT 1,
    step_count  int NOT NULL,
    created_at  timestamptz NOT NULL,
    saved_at    timestamptz NOT NULL,
    saved_by    text REFERENCES users(id) ON DELETE SET NULL,
    last_run_id      text,
    last_run_status  text,
    last_run_passed  int,
    last_run_total   int,
    last_run_at      timestamptz,
    -- lower-case name, suite and tags, kept by a trigger, for list search
    search      text NOT NULL DEFAULT ''
);

CREATE FUNCTION tests_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.search := lower(NEW.name || chr(31) || NEW.suite || chr(31) || array_to_string(NEW.tags, chr(31)));
    RETURN NEW;
END $$;
CREATE TRIGGER tests_search BEFORE INSERT OR UPDATE OF name, suite, tags ON tests
    FOR EACH ROW EXECUTE FUNCTION tests_search();
CREATE INDEX tests_project_name ON tests (project_id, lower(name), id);
CREATE INDEX tests_project_saved ON tests (project_id, saved_at DESC, id);
CREATE INDEX tests_project_suite ON tests (project_id, suite);
CREATE INDEX tests_owner ON tests (owner_id);

CREATE TABLE test_versions (
    test_id    text NOT NULL REFERENCES tests(id) ON DELETE CASCADE,
    version    int NOT NULL,
    status     text NOT NULL CHECK (status IN ('Draft', 'Ready', 'Deprecated')),
    content    jsonb NOT NULL,
    step_count int NOT NULL,
    author_id  text REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL,
    saved_at   timestamptz NOT NULL,
    note       text NOT NULL DEFAULT '',
    PRIMARY KEY (test_id, version)
);
