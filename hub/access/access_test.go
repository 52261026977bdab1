package access

import "testing"

// The matrix from DESIGN.md, written out row by row so a change to the
// code's matrix shows up here as a failing cell.
func TestMatrixMatchesDesign(t *testing.T) {
	want := map[Permission][4]bool{ // Tester, Test Developer, Test Manager, Admin
		ViewProject:        {true, true, true, true},
		RunTests:           {true, true, true, true},
		AuthorTests:        {true, true, true, true},
		EditSharedTests:    {false, true, true, true},
		ManageTests:        {false, false, true, true},
		ManageEnvironments: {false, false, true, true},
		ManageWebhooks:     {false, false, true, true},
		ManageSchedules:    {false, false, true, true},
		RunProtected:       {false, false, true, true},
		AdministerProject:  {false, false, false, true},
	}
	if len(want) != len(Matrix) {
		t.Fatalf("matrix has %d permissions, design has %d", len(Matrix), len(want))
	}
	for p, row := range want {
		for i, role := range Roles {
			if got := Allows(role, p); got != row[i] {
				t.Errorf("Allows(%s, %s) = %v, want %v", role, p, got, row[i])
			}
		}
	}
	if Allows("Owner", ViewProject) || Allows(Admin, "tests.fly") {
		t.Error("unknown role or permission must be refused")
	}
}

func TestEffective(t *testing.T) {
	for _, tc := range []struct {
		org, project, want Role
	}{
		{Tester, "", Tester},
		{Tester, TestManager, TestManager},
		{TestManager, Tester, Tester},
		{Admin, Tester, Admin},
		{"", Admin, ""},
	} {
		if got := Effective(tc.org, tc.project); got != tc.want {
			t.Errorf("Effective(%q, %q) = %q, want %q", tc.org, tc.project, got, tc.want)
		}
	}
}

func TestMayUseProtected(t *testing.T) {
	for _, tc := range []struct {
		role   Role
		status string
		want   bool
	}{
		{Admin, "Ready", true},
		{TestManager, "Ready", true},
		{TestDeveloper, "Ready", false},
		{Tester, "Ready", false},
		{Admin, "Draft", false},
		{TestManager, "Draft", false},
		{Tester, "Draft", false},
		{Admin, "Deprecated", false},
		{TestManager, "Deprecated", false},
		{"", "Ready", false},
		{"Owner", "Ready", false},
		{Admin, "", false},
		{Admin, "ready", false},
	} {
		if got := MayUseProtected(tc.role, tc.status); got != tc.want {
			t.Errorf("MayUseProtected(%q, %q) = %v, want %v", tc.role, tc.status, got, tc.want)
		}
	}
}

func TestCap(t *testing.T) {
	for _, c := range []struct{ role, limit, want Role }{
		{Admin, Tester, Tester}, {Tester, Admin, Tester}, {TestManager, "", TestManager},
		{"", Admin, ""}, {TestDeveloper, TestDeveloper, TestDeveloper}, {Admin, "Boss", "Boss"},
	} {
		if got := Cap(c.role, c.limit); got != c.want {
			t.Errorf("Cap(%q, %q) = %q, want %q", c.role, c.limit, got, c.want)
		}
	}
	if Allows(Cap(Admin, "Boss"), ViewProject) {
		t.Error("an unknown cap must allow nothing")
	}
}
