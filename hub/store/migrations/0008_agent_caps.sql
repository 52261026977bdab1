-- What an agent can do, as its hello says on every connection: headless
-- means it has no display, so a headed run runs without a window.
ALTER TABLE agents ADD COLUMN headless boolean NOT NULL DEFAULT false;
