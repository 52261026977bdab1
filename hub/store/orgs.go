package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/testautomation/ta/hub/access"
)

// Org is an organization row.
type Org struct {
	ID        string
	Name      string
	CreatedAt time.Time
}

// Member is an account's membership with its role.
type Member struct {
	UserID string
	Name   string
	Email  string
	Role   access.Role
}

// CreateOrg makes an organization whose creator is its Admin.
func (s *Store) CreateOrg(ctx context.Context, id, name, creatorID string) (Org, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return Org{}, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	var o Org
	if err := tx.QueryRow(ctx, `INSERT INTO organizations (id, name) VALUES ($1, $2) RETURNING id, name, created_at`, id, name).
		Scan(&o.ID, &o.Name, &o.CreatedAt); err != nil {
		return Org{}, fmt.Errorf("create org: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO org_members (org_id, user_id, role) VALUES ($1, $2, $3)`, id, creatorID, access.Admin); err != nil {
		return Org{}, fmt.Errorf("create org: admin: %w", err)
	}
	return o, tx.Commit(ctx)
}

// OrgRole returns the organization and the user's role in it. An unknown
// organization, or one the user is not a member of, gives ErrNotFound.
func (s *Store) OrgRole(ctx context.Context, orgID, userID string) (Org, access.Role, error) {
	var o Org
	var role access.Role
	var r *string
	err := s.pool.QueryRow(ctx, `SELECT o.id, o.name, o.created_at, m.role
		FROM organizations o LEFT JOIN org_members m ON m.org_id = o.id AND m.user_id = $2
		WHERE o.id = $1`, orgID, userID).Scan(&o.ID, &o.Name, &o.CreatedAt, &r)
	if isNoRows(err) {
		return Org{}, "", ErrNotFound
	}
	if r != nil {
		role = access.Role(*r)
	}
	return o, role, err
}

// RenameOrg changes an organization's name.
func (s *Store) RenameOrg(ctx context.Context, id, name string) (Org, error) {
	var o Org
	err := s.pool.QueryRow(ctx, `UPDATE organizations SET name = $2 WHERE id = $1 RETURNING id, name, created_at`, id, name).
		Scan(&o.ID, &o.Name, &o.CreatedAt)
	if isNoRows(err) {
		return Org{}, ErrNotFound
	}
	return o, err
}

// DeleteOrg removes an organization with its projects and memberships,
// and returns the ids of its projects' files (see DeleteProject).
func (s *Store) DeleteOrg(ctx context.Context, id string) (fileIDs []string, err error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	// The organization's row is locked against new projects, its
	// projects' rows against new files (see DeleteProject).
	var one int
	if err := tx.QueryRow(ctx, `SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE`, id).Scan(&one); err != nil {
		if isNoRows(err) {
			return nil, ErrNotFound
		}
		return nil, err
	}
	if _, err := tx.Exec(ctx, `SELECT 1 FROM projects WHERE org_id = $1 FOR UPDATE`, id); err != nil {
		return nil, err
	}
	rows, err := tx.Query(ctx, `DELETE FROM files WHERE project_id IN (SELECT id FROM projects WHERE org_id = $1) RETURNING id`, id)
	if err != nil {
		return nil, err
	}
	if fileIDs, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		return nil, err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM organizations WHERE id = $1`, id); err != nil {
		return nil, err
	}
	return fileIDs, tx.Commit(ctx)
}

func scanMember(r pgx.CollectableRow) (Member, error) {
	var m Member
	err := r.Scan(&m.UserID, &m.Name, &m.Email, &m.Role)
	return m, err
}

// OrgMembers lists an organization's members by name.
func (s *Store) OrgMembers(ctx context.Context, orgID string) ([]Member, error) {
	rows, err := s.pool.Query(ctx, `SELECT u.id, u.name, u.email, m.role
		FROM org_members m JOIN users u ON u.id = m.user_id
		WHERE m.org_id = $1 ORDER BY lower(u.name), u.id`, orgID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, scanMember)
}

// AddOrgMember adds an account to an organization. An existing membership
// gives ErrConflict.
func (s *Store) AddOrgMember(ctx context.Context, orgID, userID string, role access.Role) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO org_members (org_id, user_id, role) VALUES ($1, $2, $3)`, orgID, userID, role)
	if isUniqueViolation(err) {
		return ErrConflict
	}
	return err
}

// lockOrgAdmins takes the organization's row lock so "last Admin" checks of
// concurrent requests see each other's changes.
func lockOrgAdmins(ctx context.Context, tx pgx.Tx, orgID, userID string) (current access.Role, others int, err error) {
	if _, err = tx.Exec(ctx, `SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE`, orgID); err != nil {
		return "", 0, err
	}
	err = tx.QueryRow(ctx, `SELECT role, (SELECT count(*) FROM org_members WHERE org_id = $1 AND role = 'Admin' AND user_id <> $2)
		FROM org_members WHERE org_id = $1 AND user_id = $2`, orgID, userID).Scan(&current, &others)
	if isNoRows(err) {
		return "", 0, ErrNotFound
	}
	return current, others, err
}

// SetOrgMemberRole changes a member's organization role. Demoting the last
// Admin gives ErrLastAdmin; a non-member gives ErrNotFound.
func (s *Store) SetOrgMemberRole(ctx context.Context, orgID, userID string, role access.Role) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	current, others, err := lockOrgAdmins(ctx, tx, orgID, userID)
	if err != nil {
		return err
	}
	if current == access.Admin && role != access.Admin && others == 0 {
		return ErrLastAdmin
	}
	if _, err := tx.Exec(ctx, `UPDATE org_members SET role = $3 WHERE org_id = $1 AND user_id = $2`, orgID, userID, role); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// RemoveOrgMember removes a member and their project roles in the
// organization. Removing the last Admin gives ErrLastAdmin.
func (s *Store) RemoveOrgMember(ctx context.Context, orgID, userID string) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	current, others, err := lockOrgAdmins(ctx, tx, orgID, userID)
	if err != nil {
		return err
	}
	if current == access.Admin && others == 0 {
		return ErrLastAdmin
	}
	// The membership first: its row lock waits for a SetProjectRole holding
	// it, so the project roles deleted next include the one just set.
	if _, err := tx.Exec(ctx, `DELETE FROM org_members WHERE org_id = $1 AND user_id = $2`, orgID, userID); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM project_members WHERE user_id = $2
		AND project_id IN (SELECT id FROM projects WHERE org_id = $1)`, orgID, userID); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
