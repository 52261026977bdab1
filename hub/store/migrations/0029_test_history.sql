-- A test's history (issue 31, docs/history.md): its last finished runs,
-- newest first, read per test by GET /api/tests/:id/history and by a
-- lateral join in the test list (a pass/fail strip, rates, the flaky
-- call). Only runs that say something of the test are history: passed,
-- failed and error; a cancelled run was stopped by someone.
CREATE INDEX runs_test_history ON runs (test_id, finished_at DESC, id DESC)
    WHERE status IN ('passed', 'failed', 'error') AND finished_at IS NOT NULL;
