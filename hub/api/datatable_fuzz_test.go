package api

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzReadTable feeds arbitrary CSV and JSON bodies to the table readers:
// they never panic, and a table read without issues is one the store can
// keep and a run can read: valid, unique column names, every row with
// exactly those columns, UTF-8 values without NUL within the limits.
func FuzzReadTable(f *testing.F) {
	for _, seed := range []string{"a,b\n1,2\n", "a\n", "", "\ufeffuser,pw\r\n\"x,\"\"y\"\"\",\n", "a,a\n", "a,b\n1\n", "a\n\"open\n",
		`{"columns":["a"],"rows":[{"a":"1"},{}]}`, `{"columns":["a","a"]}`, `{"columns":["a"],"rows":[{"b":"1"}]}`, `{"rows":[]}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var issues issueList
		tb := readTableCSV(body, &issues)
		checkTable(t, "csv", body, tb, issues)
		var fields map[string]json.RawMessage
		if json.Unmarshal(body, &fields) == nil && fields != nil {
			var issues issueList
			tb, present := readTableJSON(fields, "rows", &issues)
			if present {
				checkTable(t, "json", body, tb, issues)
			}
		}
	})
}

func checkTable(t *testing.T, kind string, body []byte, tb table, issues issueList) {
	for _, is := range issues {
		if is.Code == "" || is.Message == "" {
			t.Fatalf("%s %q: issue without code or message: %+v", kind, body, is)
		}
	}
	if len(issues) > 0 {
		return
	}
	seen := map[string]bool{}
	for _, c := range tb.columns {
		if !identifierRE.MatchString(c) || len(c) > maxColumnName || c == "secrets" || seen[c] {
			t.Fatalf("%s %q: column %q accepted", kind, body, c)
		}
		seen[c] = true
	}
	if len(tb.columns) == 0 || len(tb.columns) > maxDataCols || len(tb.rows) > maxDataRows {
		t.Fatalf("%s %q: %d columns, %d rows accepted", kind, body, len(tb.columns), len(tb.rows))
	}
	for i, row := range tb.rows {
		if len(row) != len(tb.columns) {
			t.Fatalf("%s %q: row %d has %d values for %d columns", kind, body, i, len(row), len(tb.columns))
		}
		for c, v := range row {
			if !seen[c] || !utf8.ValidString(v) || strings.IndexByte(v, 0) >= 0 || utf8.RuneCountInString(v) > maxCell {
				t.Fatalf("%s %q: row %d value %q of %q accepted", kind, body, i, v, c)
			}
		}
	}
}
