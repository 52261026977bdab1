package main

import (
	"strings"
	"testing"
)

// --remote-debugging-port takes a port; 0 (the default) leaves DevTools
// closed.
func TestDebugPortFlag(t *testing.T) {
	o, err := parseFlags([]string{"--hub", "http://127.0.0.1:1", "--config", t.TempDir(), "--remote-debugging-port", "9333"})
	if err != nil || o.debugPort != 9333 {
		t.Fatalf("parse: %+v %v", o, err)
	}
	for _, bad := range []string{"-1", "65536", "x"} {
		_, err := parseFlags([]string{"--hub", "http://127.0.0.1:1", "--config", t.TempDir(), "--remote-debugging-port", bad})
		if err == nil {
			t.Errorf("--remote-debugging-port %s accepted", bad)
		} else if bad != "x" && !strings.Contains(err.Error(), "1 to 65535") {
			t.Errorf("--remote-debugging-port %s: %v", bad, err)
		}
	}
}
