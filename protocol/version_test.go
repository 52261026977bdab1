package protocol

import "testing"

func TestNewerVersion(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"0.2.0", "0.1.0", true}, {"0.1.0", "0.2.0", false}, {"1.2.10", "1.2.9", true}, {"1.0.0", "1.0.0", false},
		{"1.0.0", "1.0.0-rc.1", true}, {"1.0.0-rc.1", "1.0.0", false}, {"1.0.0-rc.2", "1.0.0-rc.1", true},
		{"v1.1.0", "1.0.0", true}, {"1.1.0+abc", "1.0.0", true},
		{"0.2.0", "dev", false}, {"0.2.0", "test", false}, {"x", "0.1.0", false}, {"1.2", "1.1.0", false}, {"1.-2.0", "1.1.0", false},
	} {
		if got := NewerVersion(c.a, c.b); got != c.want {
			t.Errorf("NewerVersion(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
