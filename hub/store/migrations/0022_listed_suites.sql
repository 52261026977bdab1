-- A suite name is listed to every member of the project only when it was
-- added to the suite list (POST /api/suites, the settings' modules, a
-- rename) or a shared test was put in it. A suite that exists only
-- because of private tests is seen by those tests' owners alone: to
-- everyone else it does not exist (store.Suites).

ALTER TABLE suites ADD COLUMN listed boolean NOT NULL DEFAULT true;

-- Existing suites whose tests are all private: whether one was also added
-- by hand is not known, so they are kept out of others' sight.
UPDATE suites s SET listed = false
WHERE EXISTS (SELECT 1 FROM tests t WHERE t.project_id = s.project_id AND t.suite = s.name)
  AND NOT EXISTS (SELECT 1 FROM tests t WHERE t.project_id = s.project_id AND t.suite = s.name AND t.visibility = 'Shared');
