package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/testautomation/ta/hub/access"
)

// Project is a project row.
type Project struct {
	ID        string
	OrgID     string
	Name      string
	CreatedAt time.Time
}

// ProjectWithRole is a project with the caller's effective role in it.
type ProjectWithRole struct {
	Project
	Role access.Role
}

// effectiveRoleSQL computes access.Effective in SQL for org member m and
// project member pm; keep the two in step.
const effectiveRoleSQL = `CASE WHEN m.role IS NULL THEN NULL WHEN m.role = 'Admin' THEN 'Admin' ELSE coalesce(pm.role, m.role) END`

// CreateProject adds a project to an organization.
func (s *Store) CreateProject(ctx context.Context, id, orgID, name string) (Project, error) {
	var p Project
	err := s.pool.QueryRow(ctx, `INSERT INTO projects (id, org_id, name) VALUES ($1, $2, $3)
		RETURNING id, org_id, name, created_at`, id, orgID, name).Scan(&p.ID, &p.OrgID, &p.Name, &p.CreatedAt)
	return p, err
}

// ProjectRole returns a project and the user's effective role in it. The
// role is "" when the user is not a member; an unknown project gives
// ErrNotFound.
func (s *Store) ProjectRole(ctx context.Context, projectID, userID string) (Project, access.Role, error) {
	var p Project
	var role *string
	err := s.pool.QueryRow(ctx, `SELECT p.id, p.org_id, p.name, p.created_at, `+effectiveRoleSQL+`
		FROM projects p
		LEFT JOIN org_members m ON m.org_id = p.org_id AND m.user_id = $2
		LEFT JOIN project_members pm ON pm.project_id = p.id AND pm.user_id = $2
		WHERE p.id = $1`, projectID, userID).Scan(&p.ID, &p.OrgID, &p.Name, &p.CreatedAt, &role)
	if isNoRows(err) {
		return Project{}, "", ErrNotFound
	}
	if err != nil || role == nil {
		return p, "", err
	}
	return p, access.Role(*role), nil
}

// OrgProjects lists an organization's projects with the user's role in each.
func (s *Store) OrgProjects(ctx context.Context, orgID, userID string) ([]ProjectWithRole, error) {
	rows, err := s.pool.Query(ctx, `SELECT p.id, p.org_id, p.name, p.created_at, `+effectiveRoleSQL+`
		FROM projects p
		JOIN org_members m ON m.org_id = p.org_id AND m.user_id = $2
		LEFT JOIN project_members pm ON pm.project_id = p.id AND pm.user_id = $2
		WHERE p.org_id = $1 ORDER BY lower(p.name), p.id`, orgID, userID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (ProjectWithRole, error) {
		var p ProjectWithRole
		err := r.Scan(&p.ID, &p.OrgID, &p.Name, &p.CreatedAt, &p.Role)
		return p, err
	})
}

// RenameProject changes a project's name.
func (s *Store) RenameProject(ctx context.Context, id, name string) (Project, error) {
	var p Project
	err := s.pool.QueryRow(ctx, `UPDATE projects SET name = $2 WHERE id = $1 RETURNING id, org_id, name, created_at`, id, name).
		Scan(&p.ID, &p.OrgID, &p.Name, &p.CreatedAt)
	if isNoRows(err) {
		return Project{}, ErrNotFound
	}
	return p, err
}

// DeleteProject removes a project and everything it scopes, and returns
// the ids of the files it had: their bytes are kept by the artifact
// store, which the caller empties once the rows are gone.
func (s *Store) DeleteProject(ctx context.Context, id string) (fileIDs []string, err error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	// Locked first: an upload at the same time (CreateFile locks the row
	// too) then finds the project gone, rather than adding a file whose
	// id this list would miss.
	var one int
	if err := tx.QueryRow(ctx, `SELECT 1 FROM projects WHERE id = $1 FOR UPDATE`, id).Scan(&one); err != nil {
		if isNoRows(err) {
			return nil, ErrNotFound
		}
		return nil, err
	}
	rows, err := tx.Query(ctx, `DELETE FROM files WHERE project_id = $1 RETURNING id`, id)
	if err != nil {
		return nil, err
	}
	if fileIDs, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		return nil, err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM projects WHERE id = $1`, id); err != nil {
		return nil, err
	}
	return fileIDs, tx.Commit(ctx)
}

// ProjectMember is an organization member seen from one project.
type ProjectMember struct {
	Member      // Role is the effective role in the project
	OrgRole     access.Role
	ProjectRole access.Role // "" when the project sets none
}

// ProjectMembers lists every member of the project's organization with
// their effective role in the project.
func (s *Store) ProjectMembers(ctx context.Context, projectID string) ([]ProjectMember, error) {
	rows, err := s.pool.Query(ctx, `SELECT u.id, u.name, u.email, `+effectiveRoleSQL+`, m.role, coalesce(pm.role, '')
		FROM projects p
		JOIN org_members m ON m.org_id = p.org_id
		JOIN users u ON u.id = m.user_id
		LEFT JOIN project_members pm ON pm.project_id = p.id AND pm.user_id = m.user_id
		WHERE p.id = $1 ORDER BY lower(u.name), u.id`, projectID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (ProjectMember, error) {
		var m ProjectMember
		err := r.Scan(&m.UserID, &m.Name, &m.Email, &m.Role, &m.OrgRole, &m.ProjectRole)
		return m, err
	})
}

// SetProjectRole sets a member's role in one project. The user must be a
// member of the project's organization (ErrNotFound otherwise).
func (s *Store) SetProjectRole(ctx context.Context, projectID, userID string, role access.Role) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	// Lock the membership so a concurrent removal from the organization
	// either happens first (and we refuse) or waits for this write (and
	// removes the project role with the membership).
	var member bool
	err = tx.QueryRow(ctx, `SELECT true FROM projects p JOIN org_members m ON m.org_id = p.org_id AND m.user_id = $2
		WHERE p.id = $1 FOR SHARE OF m`, projectID, userID).Scan(&member)
	if isNoRows(err) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO project_members (project_id, user_id, role) VALUES ($1, $2, $3)
		ON CONFLICT (project_id, user_id) DO UPDATE SET role = EXCLUDED.role`, projectID, userID, role); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// RemoveProjectRole removes a member's project role, so their organization
// role applies again. ErrNotFound when none was set.
func (s *Store) RemoveProjectRole(ctx context.Context, projectID, userID string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM project_members WHERE project_id = $1 AND user_id = $2`, projectID, userID)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}

// OrgWithProjects is one organization in a user's context.
type OrgWithProjects struct {
	Org
	Role     access.Role
	Projects []ProjectWithRole
}

// UserContext lists the user's organizations and their projects with the
// user's effective role in each.
func (s *Store) UserContext(ctx context.Context, userID string) ([]OrgWithProjects, error) {
	rows, err := s.pool.Query(ctx, `SELECT o.id, o.name, o.created_at, m.role
		FROM org_members m JOIN organizations o ON o.id = m.org_id
		WHERE m.user_id = $1 ORDER BY lower(o.name), o.id`, userID)
	if err != nil {
		return nil, err
	}
	orgs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (OrgWithProjects, error) {
		var o OrgWithProjects
		err := r.Scan(&o.ID, &o.Name, &o.CreatedAt, &o.Role)
		return o, err
	})
	if err != nil {
		return nil, err
	}
	for i := range orgs {
		if orgs[i].Projects, err = s.OrgProjects(ctx, orgs[i].ID, userID); err != nil {
			return nil, err
		}
	}
	return orgs, nil
}
