-- Protected test data (issue 26): a run on a protected environment may use
-- only data sets and pools marked protected, and only a Test Manager or
-- Admin may mark, change, reset or delete a protected one, so a run that
-- receives a protected environment's secrets also receives only data they
-- control (hub/api/protected.go, hub/dispatch ProtectedDataRefusal).

ALTER TABLE test_data_sets ADD COLUMN protected boolean NOT NULL DEFAULT false;
ALTER TABLE data_pools ADD COLUMN protected boolean NOT NULL DEFAULT false;
