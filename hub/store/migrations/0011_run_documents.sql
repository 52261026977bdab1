-- A run keeps the exact document it executes, components expanded, taken
-- when it was started: saving the test afterwards does not change it.
-- Runs from before this migration have none and run their test version.
ALTER TABLE runs ADD COLUMN document jsonb;
