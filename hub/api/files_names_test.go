package api

import (
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// TestFileNameWindows: names Windows cannot make a file of are refused,
// the message naming what is wrong; names that only look alike pass.
func TestFileNameWindows(t *testing.T) {
	for name, want := range map[string]string{
		"a<b.txt":      `"<"`,
		"a>b.txt":      `">"`,
		"C:report.pdf": `":"`,
		`say "hi".txt`: `"\""`,
		"a|b":          `"|"`,
		"why?.txt":     `"?"`,
		"*.pdf":        `"*"`,
		"report.":      "end with a dot or a space",
		"report.pdf ":  "end with a dot or a space",
		"report...":    "end with a dot or a space",
		"CON":          `"CON" is a device name`,
		"con.txt":      `"con" is a device name`,
		"Nul.tar.gz":   `"Nul" is a device name`,
		"AUX .pdf":     `"AUX" is a device name`,
		"prn":          "device name",
		"COM1.log":     `"COM1" is a device name`,
		"lpt9":         "device name",
		"COM¹.txt":     "device name",
	} {
		if got := fileNameIssue(name); !strings.Contains(got, want) {
			t.Errorf("%q: %q, want it to say %s", name, got, want)
		}
	}
	for _, name := range []string{"report.pdf", "CONSOLE.txt", "icon.png", "COM10.txt", "my con.txt", "null", ".env", "a.b.c",
		"Quarterly report (final).pdf", "naïve résumé.pdf", "报告.pdf", "report.con", " lead.txt"} {
		if got := fileNameIssue(name); got != "" {
			t.Errorf("%q refused: %s", name, got)
		}
	}
	h := newHarness(t)
	o := h.org(t)
	r := o.members[access.Tester].upload(o.project, "a:b.txt", []byte("x")).want(t, 422)
	if is := r.json()["issues"].([]any); len(is) != 1 || is[0].(map[string]any)["path"] != "name" ||
		!strings.Contains(is[0].(map[string]any)["message"].(string), `":"`) {
		t.Errorf("a:b.txt: %s", r.body)
	}
	if left := storedFiles(t, h); len(left) != 0 {
		t.Errorf("stored: %v", left)
	}
}
