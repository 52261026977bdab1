-- Project files (issue 28): what upload steps put into a page's
-- <input type=file>. The row holds what the hub knows of a file; its bytes
-- live in the artifact store (hub/artifacts: the data folder, or object
-- storage) under the file's id. Files are referred to by id from test
-- documents; deleting one is allowed and the upload steps naming it then
-- fail saying the file is gone (docs/files.md).
CREATE TABLE files (
    id           text PRIMARY KEY,
    project_id   text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name         text NOT NULL,
    size         bigint NOT NULL CHECK (size >= 0),
    sha256       text NOT NULL,
    content_type text NOT NULL,
    created_by   text REFERENCES users(id) ON DELETE SET NULL,
    created_at   timestamptz NOT NULL
);
CREATE INDEX files_project ON files (project_id, lower(name), created_at DESC);
