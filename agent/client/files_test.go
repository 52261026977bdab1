package client

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunFiles: a run's files are fetched with the agent's token for that
// run, into a folder only the user can read, under a name that cannot
// leave it, checked against the hub's checksum, once per run, and removed
// when the run ends; a deleted file's refusal says so.
func TestRunFiles(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	files := map[string][2]string{ // id -> name, content
		"fil_report": {"report.pdf", "%PDF report"},
		"fil_evil":   {"../../.bashrc", "echo owned"},
		"fil_dots":   {"..", "dots"},
		"fil_broken": {"b.txt", "damaged"},
	}
	var asked []string
	hub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.URL.Path)
		id := strings.TrimPrefix(r.URL.Path, "/api/agent/files/")
		f, ok := files[id]
		if r.Header.Get("Authorization") != "Agent secret-token" || r.URL.Query().Get("run") != "run_one" {
			w.WriteHeader(401)
			return
		}
		if !ok {
			w.WriteHeader(404)
			fmt.Fprint(w, `{"error":"the file is not among the project's files: it was deleted","code":"file_gone"}`)
			return
		}
		sum := sha256.Sum256([]byte(f[1]))
		if id == "fil_broken" {
			sum[0]++
		}
		w.Header().Set("X-File-Sha256", hex.EncodeToString(sum[:]))
		w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", f[0]))
		fmt.Fprint(w, f[1])
	}))
	defer hub.Close()
	c := New(Config{HubURL: hub.URL, ConfigDir: filepath.Join(t.TempDir(), "cfg")})
	if err := c.saveToken("agt_x", "secret-token"); err != nil {
		t.Fatal(err)
	}
	rf := &runFiles{c: c, for_: "run", id: "run_one"}
	p, err := rf.FetchFile(t.Context(), "fil_report")
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(p); string(data) != "%PDF report" || filepath.Base(p) != "report.pdf" {
		t.Errorf("fetched %s: %q", p, data)
	}
	if st, _ := os.Stat(rf.dir); st.Mode().Perm() != 0o700 {
		t.Errorf("folder mode %v", st.Mode())
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v", st.Mode())
	}
	if again, _ := rf.FetchFile(t.Context(), "fil_report"); again != p || len(asked) != 1 {
		t.Errorf("fetched twice: %v", asked)
	}
	for _, id := range []string{"fil_evil", "fil_dots"} {
		p, err := rf.FetchFile(t.Context(), id)
		if err != nil || !strings.HasPrefix(p, filepath.Join(rf.dir, id)+string(filepath.Separator)) {
			t.Errorf("%s landed at %s (%v), outside its folder", id, p, err)
		}
	}
	for id, want := range map[string]string{"fil_gone": "is gone: it was deleted", "fil_broken": "damaged",
		"../etc/passwd": "not a project file id", "fil_a/../../x": "not a project file id"} {
		if _, err := rf.FetchFile(t.Context(), id); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", id, err, want)
		}
	}
	for _, a := range asked {
		if strings.Contains(a, "..") {
			t.Errorf("asked the hub for %s", a)
		}
	}
	dir := rf.dir
	rf.remove()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the run's files were left at %s", dir)
	}
}

// TestSafeFileName: a name the hub gives (possibly uploaded before the hub
// refused names Windows cannot make) becomes one plain name every OS can
// make, as close to the original as that allows.
func TestSafeFileName(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"report.pdf", "report.pdf"},
		{"Quarterly report (final).pdf", "Quarterly report (final).pdf"},
		{"报告.pdf", "报告.pdf"},
		{"../../.bashrc", ".._.._.bashrc"},
		{`a\b.txt`, "a_b.txt"},
		{"C:report.pdf", "C_report.pdf"},
		{`<say> "hi" | why? *.txt`, `_say_ _hi_ _ why_ _.txt`},
		{"report.", "report"},
		{"report.pdf . ", "report.pdf"},
		{"  spaced.txt  ", "spaced.txt"},
		{"CON", "_CON"},
		{"con.txt", "_con.txt"},
		{"Nul.tar.gz", "_Nul.tar.gz"},
		{"AUX .pdf", "_AUX .pdf"},
		{"lpt9", "_lpt9"},
		{"COM1.", "_COM1"},
		{"CONSOLE.txt", "CONSOLE.txt"},
		{"COM10.txt", "COM10.txt"},
		{"tab\there", "tab_here"},
		{"rtl\u202etxt.exe", "rtl_txt.exe"},
		{".", "fil_id"},
		{"..", "fil_id"},
		{"...", "fil_id"},
		{" . ", "fil_id"},
		{"", "fil_id"},
		{strings.Repeat("n", 256), "fil_id"},
	} {
		if got := safeFileName(c.name, "fil_id"); got != c.want {
			t.Errorf("safeFileName(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
