-- Placeholder for the webhooks migration (being built on its own branch).
SELECT 1;
