package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// File is a project file's row: what upload steps set on a page's file
// input. Its bytes are kept by hub/artifacts under ID.
type File struct {
	ID, ProjectID, Name string
	Size                int64
	SHA256              string // hex
	ContentType         string
	CreatedByID         string // "" once the account is gone
	CreatedByName       string
	CreatedAt           time.Time
}

const fileCols = `f.id, f.project_id, f.name, f.size, f.sha256, f.content_type, coalesce(f.created_by, ''), coalesce(u.name, ''), f.created_at`

const fileFrom = ` FROM files f LEFT JOIN users u ON u.id = f.created_by `

func scanFile(row pgx.Row) (File, error) {
	var f File
	err := row.Scan(&f.ID, &f.ProjectID, &f.Name, &f.Size, &f.SHA256, &f.ContentType, &f.CreatedByID, &f.CreatedByName, &f.CreatedAt)
	if isNoRows(err) {
		return File{}, ErrNotFound
	}
	return f, err
}

// CreateFile stores a file's row (its bytes are stored first).
func (s *Store) CreateFile(ctx context.Context, f File) error {
	var by *string
	if f.CreatedByID != "" {
		by = &f.CreatedByID
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO files (id, project_id, name, size, sha256, content_type, created_by, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, f.ID, f.ProjectID, f.Name, f.Size, f.SHA256, f.ContentType, by, f.CreatedAt)
	return err
}

// Files lists a project's files by name, newest first among equal names.
func (s *Store) Files(ctx context.Context, projectID string) ([]File, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+fileCols+fileFrom+`WHERE f.project_id = $1 ORDER BY lower(f.name), f.created_at DESC, f.id`, projectID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (File, error) { return scanFile(r) })
}

// FileByID returns a file of any project; callers check its project.
func (s *Store) FileByID(ctx context.Context, id string) (File, error) {
	return scanFile(s.pool.QueryRow(ctx, `SELECT `+fileCols+fileFrom+`WHERE f.id = $1`, id))
}

// ProjectFiles returns which of ids are files of the project.
func (s *Store) ProjectFiles(ctx context.Context, projectID string, ids []string) (map[string]bool, error) {
	rows, err := s.pool.Query(ctx, `SELECT id FROM files WHERE project_id = $1 AND id = ANY($2)`, projectID, ids)
	if err != nil {
		return nil, err
	}
	found, err := pgx.CollectRows(rows, pgx.RowTo[string])
	out := make(map[string]bool, len(found))
	for _, id := range found {
		out[id] = true
	}
	return out, err
}

// DeleteFile removes a file's row; ErrNotFound when it is gone already.
func (s *Store) DeleteFile(ctx context.Context, projectID, id string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM files WHERE project_id = $1 AND id = $2`, projectID, id)
	if err == nil && tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return err
}

// AgentRunDocument is what an agent may read files for: the document of a
// run the agent holds now (assigned to it and not finished), and the run's
// project. ErrNotFound when the run is not the agent's or has ended.
func (s *Store) AgentRunDocument(ctx context.Context, runID, agentID string) (projectID string, document []byte, err error) {
	err = s.pool.QueryRow(ctx, `SELECT project_id, document FROM runs
		WHERE id = $1 AND agent_id = $2 AND status IN ('queued', 'running')`, runID, agentID).Scan(&projectID, &document)
	if isNoRows(err) {
		return "", nil, ErrNotFound
	}
	return projectID, document, err
}

// AgentIDByToken is the id of the agent a token belongs to (its current
// or offered token), without recording a use: for the agent's side
// requests beside its connection (AgentByToken is the connection's).
func (s *Store) AgentIDByToken(ctx context.Context, digest []byte, now time.Time) (string, error) {
	var id string
	err := s.pool.QueryRow(ctx, `SELECT a.id FROM agents a WHERE (a.token_hash = $1 OR a.next_token_hash = $1) AND `+validTokenSQL, digest, now).Scan(&id)
	if isNoRows(err) {
		return "", ErrNotFound
	}
	return id, err
}
