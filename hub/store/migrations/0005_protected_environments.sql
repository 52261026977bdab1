-- A protected environment sends its secrets only to runs of Ready tests
-- started by a Test Manager or Admin (hub/access.MayUseProtected); other
-- runs with it are refused before they queue, and again at dispatch.

ALTER TABLE environments ADD COLUMN protected boolean NOT NULL DEFAULT false;
