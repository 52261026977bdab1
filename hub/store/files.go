package store

import (
	"context"
	"fmt"
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

// QuotaError is a file refused because its project's files would take
// more than the quota with it.
type QuotaError struct {
	Used  int64 // bytes the project's files take now
	Limit int64 // the quota, bytes
}

func (e *QuotaError) Error() string {
	return fmt.Sprintf("the project's files take %d bytes of %d", e.Used, e.Limit)
}

// FilesSize is the bytes a project's files take.
func (s *Store) FilesSize(ctx context.Context, projectID string) (int64, error) {
	var n int64
	err := s.pool.QueryRow(ctx, `SELECT coalesce(sum(size), 0) FROM files WHERE project_id = $1`, projectID).Scan(&n)
	return n, err
}

// CreateFile stores a file's row (its bytes are stored first) when the
// project's files take at most quota bytes with it; else *QuotaError and
// nothing is stored. ErrNotFound when the project is gone.
func (s *Store) CreateFile(ctx context.Context, f File, quota int64) error {
	var by *string
	if f.CreatedByID != "" {
		by = &f.CreatedByID
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	// The project's row is locked before its files are counted: two
	// uploads at once are counted one after the other, so together they
	// cannot pass the quota either. (Counted by a statement of its own,
	// whose snapshot sees what the upload before committed.)
	var one int
	err = tx.QueryRow(ctx, `SELECT 1 FROM projects WHERE id = $1 FOR NO KEY UPDATE`, f.ProjectID).Scan(&one)
	if isNoRows(err) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	var used int64
	if err := tx.QueryRow(ctx, `SELECT coalesce(sum(size), 0) FROM files WHERE project_id = $1`, f.ProjectID).Scan(&used); err != nil {
		return err
	}
	if used+f.Size > quota {
		return &QuotaError{Used: used, Limit: quota}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO files (id, project_id, name, size, sha256, content_type, created_by, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, f.ID, f.ProjectID, f.Name, f.Size, f.SHA256, f.ContentType, by, f.CreatedAt); err != nil {
		return err
	}
	return tx.Commit(ctx)
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
