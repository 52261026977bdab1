-- Placeholder for helper A's 0009 (components) so branch i12-b migrates on
-- its own (versions must be contiguous). DELETE THIS FILE when merging A.
SELECT 1;
