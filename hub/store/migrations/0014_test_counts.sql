-- The test list's total without counting every visible row of a large
-- project (100,000 tests took 35-60 ms a request): how many tests each
-- project has per suite, visibility and owner, kept by triggers. A list
-- without a search sums these groups (testlist.go ListTests).
CREATE TABLE test_counts (
    project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    suite      text NOT NULL,
    visibility text NOT NULL,
    owner_id   text NOT NULL, -- '' once the owner's account is deleted
    n          bigint NOT NULL CHECK (n >= 0),
    PRIMARY KEY (project_id, suite, visibility, owner_id)
);

-- No test is added or moved between the count and the triggers.
LOCK TABLE tests IN SHARE ROW EXCLUSIVE MODE;

INSERT INTO test_counts (project_id, suite, visibility, owner_id, n)
    SELECT project_id, suite, visibility, coalesce(owner_id, ''), count(*) FROM tests GROUP BY 1, 2, 3, 4;

-- A group that falls to none is removed, so renamed suites and deleted
-- accounts leave nothing behind. The decrement locks its row until the
-- transaction ends, so the row it finds at zero is still at zero when it
-- is deleted; an increment waiting on it then inserts the group anew.
-- While a project is deleted its groups may already be gone: nothing to do.
CREATE FUNCTION tests_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    left_n bigint;
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE test_counts SET n = n - 1
            WHERE project_id = OLD.project_id AND suite = OLD.suite AND visibility = OLD.visibility
              AND owner_id = coalesce(OLD.owner_id, '')
            RETURNING n INTO left_n;
        IF left_n = 0 THEN
            DELETE FROM test_counts
                WHERE project_id = OLD.project_id AND suite = OLD.suite AND visibility = OLD.visibility
                  AND owner_id = coalesce(OLD.owner_id, '') AND n = 0;
        END IF;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        INSERT INTO test_counts AS c (project_id, suite, visibility, owner_id, n)
            VALUES (NEW.project_id, NEW.suite, NEW.visibility, coalesce(NEW.owner_id, ''), 1)
            ON CONFLICT (project_id, suite, visibility, owner_id) DO UPDATE SET n = c.n + 1;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER tests_count_insert AFTER INSERT ON tests FOR EACH ROW EXECUTE FUNCTION tests_count();
CREATE TRIGGER tests_count_delete AFTER DELETE ON tests FOR EACH ROW EXECUTE FUNCTION tests_count();
-- Not on every save or finished run: only when a test changes group.
CREATE TRIGGER tests_count_update AFTER UPDATE OF project_id, suite, visibility, owner_id ON tests
    FOR EACH ROW WHEN ((OLD.project_id, OLD.suite, OLD.visibility, OLD.owner_id)
        IS DISTINCT FROM (NEW.project_id, NEW.suite, NEW.visibility, NEW.owner_id))
    EXECUTE FUNCTION tests_count();
