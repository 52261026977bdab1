package ids

import "testing"

func TestNewIsValidAndUnique(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := New(Project)
		if !Valid(Project, id) {
			t.Fatalf("New made an invalid id %q", id)
		}
		if seen[id] {
			t.Fatalf("duplicate id %q", id)
		}
		seen[id] = true
	}
}

func TestValid(t *testing.T) {
	for _, tc := range []struct {
		kind, id string
		want     bool
	}{
		{"prj", "prj_abcdefghijklmnop", true},
		{"prj", "org_abcdefghijklmnop", false},
		{"prj", "prj_abc", false},
		{"prj", "prj_ABCDEFGHIJKLMNOP", false},
		{"prj", "prj_abcdefghijklmno1", false},
		{"prj", "prj_abcdefghijklmn'; drop", false},
		{"prj", "", false},
	} {
		if got := Valid(tc.kind, tc.id); got != tc.want {
			t.Errorf("Valid(%q, %q) = %v, want %v", tc.kind, tc.id, got, tc.want)
		}
	}
}
