-- Number reserved for another branch's migration (issue 10); this file
-- keeps the numbering contiguous on its own and goes away when that
-- branch's 0007 is merged.
SELECT 1;
