-- Placeholder for h-tokens' 0016 migration, so this branch's migration
-- loader (which wants versions 1, 2, 3 ... without gaps) accepts 0017.
-- Drop this file when merging with h-tokens: its 0016 replaces it.
SELECT 1;
