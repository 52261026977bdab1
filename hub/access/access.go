// Package access holds the role and permission matrix: the four roles, what
// each permission means, and which roles hold it. It is the single source
// for every permission check in the hub and for GET /api/roles.
package access

// Role is a member's role in an organization or a project. The same names
// serve both levels, ordered Tester < Test Developer < Test Manager < Admin.
type Role string

const (
	Tester        Role = "Tester"
	TestDeveloper Role = "Test Developer"
	TestManager   Role = "Test Manager"
	Admin         Role = "Admin"
)

// Roles lists every role, lowest first.
var Roles = []Role{Tester, TestDeveloper, TestManager, Admin}

// Valid reports whether r is one of the four roles.
func (r Role) Valid() bool { return r.rank() > 0 }

func (r Role) rank() int {
	for i, x := range Roles {
		if x == r {
			return i + 1
		}
	}
	return 0
}

// AtLeast reports whether r is min or higher.
func (r Role) AtLeast(min Role) bool { return r.Valid() && r.rank() >= min.rank() }

// Permission names one thing a project member may do.
type Permission string

const (
	// ViewProject: see shared tests and their runs, run tests, see
	// environments (names and variables), list the project's members.
	ViewProject Permission = "project.view"
	// RunTests: start runs of tests the caller can see.
	RunTests Permission = "runs.start"
	// AuthorTests: create tests; edit and delete tests they own; record,
	// pick, and draft steps with the language model.
	AuthorTests Permission = "tests.author"
	// EditSharedTests: edit any shared Draft test; manage suites,
	// components, test data and data pools.
	EditSharedTests Permission = "tests.edit_shared"
	// ManageTests: mark tests Ready or Deprecated, quarantine tests (their
	// failures then fail no batch, docs/history.md), transfer ownership of
	// shared tests, delete any shared test.
	ManageTests Permission = "tests.manage"
	// ManageEnvironments: manage environments, secrets and applications,
	// and protected test data sets and pools (the data runs on protected
	// environments use).
	ManageEnvironments Permission = "environments.manage"
	// ManageWebhooks: list, create, change, test and delete the project's
	// webhooks and read their delivery logs (their addresses may name
	// internal hosts, so listing them needs it too).
	ManageWebhooks Permission = "webhooks.manage"
	// ManageSchedules: create, change, pause and delete the project's
	// schedules (each runs as its owner; members see them read-only).
	ManageSchedules Permission = "schedules.manage"
	// RunProtected: run Ready tests against a protected environment, so
	// that its secrets reach the caller's agent (see MayUseProtected).
	RunProtected Permission = "runs.protected"
	// AdministerProject: manage project members and settings; rename or
	// delete the project.
	AdministerProject Permission = "project.admin"
)

// PermissionInfo describes one permission and the lowest role holding it.
type PermissionInfo struct {
	Permission  Permission
	Description string
	MinRole     Role
}

// Matrix is the whole role to permission matrix. Each permission is held by
// its minimum role and every role above it.
var Matrix = []PermissionInfo{
	{ViewProject, "See shared tests and their runs, see environments (names and variables) and project members", Tester},
	{RunTests, "Run tests", Tester},
	{AuthorTests, "Create tests; edit and delete tests they own; record, pick, draft steps with the language model", Tester},
	{EditSharedTests, "Edit any shared Draft test; manage suites, components, test data and data pools", TestDeveloper},
	{ManageTests, "Mark tests Ready or Deprecated; quarantine tests; transfer ownership of shared tests; delete any shared test", TestManager},
	{ManageEnvironments, "Manage environments, secrets, applications and protected test data", TestManager},
	{ManageWebhooks, "See and manage the project's webhooks and their delivery logs", TestManager},
	{ManageSchedules, "Create, change, pause and delete schedules", TestManager},
	{RunProtected, "Run Ready tests against protected environments (their secrets reach the runner's agent)", TestManager},
	{AdministerProject, "Manage project members and settings; rename or delete the project", Admin},
}

// Allows reports whether role holds permission p. Unknown roles and unknown
// permissions are refused.
func Allows(role Role, p Permission) bool {
	for _, info := range Matrix {
		if info.Permission == p {
			return role.AtLeast(info.MinRole)
		}
	}
	return false
}

// ReadyStatus is the test status whose content has been reviewed: a Ready
// version is frozen (the store's status names are these same words).
const ReadyStatus = "Ready"

// MayUseProtected is the rule of protected environments: their secrets go
// only to runs of Ready tests started by someone holding RunProtected
// (Test Manager, Admin). Anyone who may run tests can write a test that
// prints a secret, so the run must execute content a manager reviewed, and
// started by someone trusted with the values. testStatus is the status of
// the version the run executes.
func MayUseProtected(role Role, testStatus string) bool {
	return testStatus == ReadyStatus && Allows(role, RunProtected)
}

// Effective is a member's role in one project: the project's own role for
// them when set, else their organization role; an organization Admin is
// Admin in every project of the organization. Without an organization role
// there is no role at all: a project role never outlives the membership.
func Effective(orgRole, projectRole Role) Role {
	if !orgRole.Valid() {
		return ""
	}
	if orgRole == Admin {
		return Admin
	}
	if projectRole.Valid() {
		return projectRole
	}
	return orgRole
}

// Cap is role limited to at most limit: the lower of the two. An empty
// limit caps nothing; an empty or unknown role stays no role.
func Cap(role, limit Role) Role {
	if !role.Valid() || limit == "" || role.rank() <= limit.rank() {
		return role
	}
	return limit
}
