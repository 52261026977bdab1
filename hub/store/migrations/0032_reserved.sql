-- Reserved: migration 0032 belongs to another branch of issue 32. This
-- empty step only keeps branch i32-ret's numbers contiguous; drop it when
-- merging (docs/retention.md).
SELECT 1;
