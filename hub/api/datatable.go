package api

// Tables: the columns and rows that test data sets and data pools share,
// read from JSON or from CSV (RFC 4180), with their limits.

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits of a data set or pool (README, "Test data and data pools").
const (
	maxDataBody   = 5 << 20 // bytes of a JSON or CSV body
	maxDataRows   = 10000   // rows of a set, records of a pool
	maxDataCols   = 100
	maxColumnName = 64
	maxCell       = 10000 // characters of one value
	maxDataIssues = 50    // issues answered at once
)

// table is a decoded set of columns and rows (or records).
type table struct {
	columns []string
	rows    []map[string]string
}

// readDataBody reads a body of at most maxDataBody bytes; on failure it has
// answered 413 or 400.
func readDataBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxDataBody))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		writeError(w, http.StatusRequestEntityTooLarge, codeTooLarge, "request body is larger than 5 MiB: a data set or pool holds at most 5 MiB")
		return nil, false
	case err != nil:
		writeError(w, http.StatusBadRequest, codeBadRequest, "unreadable request body")
		return nil, false
	}
	return data, true
}

// readDataObject reads a JSON object body of at most maxDataBody bytes.
func readDataObject(w http.ResponseWriter, r *http.Request) (map[string]json.RawMessage, bool) {
	data, ok := readDataBody(w, r)
	if !ok {
		return nil, false
	}
	var fields map[string]json.RawMessage
	if status, body := decodeBody(bytes.NewReader(data), &fields); status != 0 {
		writeJSON(w, status, body)
		return nil, false
	}
	if fields == nil {
		writeError(w, http.StatusBadRequest, codeInvalidJSON, "request body must be a JSON object")
		return nil, false
	}
	return fields, true
}

// isCSV reports a text/csv body.
func isCSV(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mt == "text/csv"
}

// add notes an issue unless the list is already long.
func (l *issueList) addCapped(path, code, msg string) {
	switch {
	case len(*l) < maxDataIssues:
		l.add(path, code, msg)
	case len(*l) == maxDataIssues:
		l.add("", "too_many", "more problems follow; fix these first")
	}
}

// column checks a column name: ${column} reads it, so it is a variable name.
func (l *issueList) column(path, v string) bool {
	switch {
	case v == "":
		l.addCapped(path, "required", "a column name is required")
	case len(v) > maxColumnName:
		l.addCapped(path, "too_long", "a column name has at most 64 characters")
	case !identifierRE.MatchString(v):
		l.addCapped(path, "format", fmt.Sprintf("column name %q must start with a letter or _ and hold only letters, digits and _ (it is read as ${name})", clipText(v, 40)))
	case v == "secrets":
		l.addCapped(path, "format", `"secrets" is reserved for ${secrets.NAME}`)
	default:
		return true
	}
	return false
}

// cell checks one value.
func (l *issueList) cell(path, v string) {
	switch {
	case utf8.RuneCountInString(v) > maxCell:
		l.addCapped(path, "too_long", "a value has at most 10000 characters")
	case strings.IndexByte(v, 0) >= 0:
		l.addCapped(path, "format", "a value may not contain a NUL character")
	}
}

// checkColumns checks names, their count and duplicates.
func (l *issueList) checkColumns(path string, cols []string) {
	if len(cols) == 0 {
		l.addCapped(path, "required", "at least one column is required")
	}
	if len(cols) > maxDataCols {
		l.addCapped(path, "too_many", fmt.Sprintf("at most %d columns are allowed, there are %d", maxDataCols, len(cols)))
		return
	}
	seen := map[string]int{}
	for i, c := range cols {
		p := path + "[" + strconv.Itoa(i) + "]"
		if !l.column(p, c) {
			continue
		}
		if j, dup := seen[c]; dup {
			l.addCapped(p, "duplicate", fmt.Sprintf("column %q is already column %d", c, j+1))
		} else {
			seen[c] = i
		}
	}
}

// readTableJSON reads columns and rows (rowsKey: "rows" or "records") from
// a JSON body. present is false when both are absent.
func readTableJSON(fields map[string]json.RawMessage, rowsKey string, issues *issueList) (t table, present bool) {
	colsF, rowsF := getField(fields, "columns"), getField(fields, rowsKey)
	if !colsF.present && !rowsF.present {
		return t, false
	}
	switch {
	case !colsF.present || colsF.null:
		issues.add("columns", "required", "columns is required with "+rowsKey)
	case json.Unmarshal(colsF.raw, &t.columns) != nil:
		issues.add("columns", "type", "columns must be an array of column names")
		t.columns = nil
	default:
		issues.checkColumns("columns", t.columns)
	}
	known := map[string]bool{}
	for _, c := range t.columns {
		known[c] = true
	}
	var raw []map[string]json.RawMessage
	if rowsF.present && !rowsF.null {
		if err := json.Unmarshal(rowsF.raw, &raw); err != nil {
			issues.add(rowsKey, "type", rowsKey+" must be an array of objects of column names to string values")
			return t, true
		}
	}
	if len(raw) > maxDataRows {
		issues.add(rowsKey, "too_many", fmt.Sprintf("at most %d %s are allowed, there are %d", maxDataRows, rowsKey, len(raw)))
		return t, true
	}
	t.rows = make([]map[string]string, len(raw))
	for i, obj := range raw {
		base := rowsKey + "[" + strconv.Itoa(i) + "]"
		if obj == nil {
			issues.addCapped(base, "type", "a row must be an object of column names to string values")
			continue
		}
		row := make(map[string]string, len(t.columns))
		for _, k := range sortedKeys(obj) {
			p := keyPath(base, k)
			if !known[k] {
				issues.addCapped(p, "unknown", fmt.Sprintf("%q is not one of the columns", clipText(k, 40)))
				continue
			}
			f := getField(obj, k)
			var v string
			if !f.null && json.Unmarshal(f.raw, &v) != nil {
				issues.addCapped(p, "type", "a value must be a string")
				continue
			}
			issues.cell(p, v)
			row[k] = v
		}
		for _, c := range t.columns {
			if _, has := row[c]; !has {
				row[c] = "" // a missing value is empty
			}
		}
		t.rows[i] = row
	}
	return t, true
}

// readTableCSV reads a CSV body: the header line names the columns, each
// further line is a row with as many fields.
func readTableCSV(data []byte, issues *issueList) table {
	var t table
	data = bytes.TrimPrefix(data, []byte("\ufeff")) // a spreadsheet's byte order mark
	if !utf8.Valid(data) {
		issues.add("csv", "format", "the CSV is not UTF-8 text")
		return t
	}
	rd := csv.NewReader(bytes.NewReader(data))
	rd.FieldsPerRecord = -1 // counted below, to name the line
	header, err := rd.Read()
	if errors.Is(err, io.EOF) {
		issues.add("csv", "required", "the CSV is empty: its first line names the columns")
		return t
	}
	if err != nil {
		issues.add("csv", "format", csvMessage(err))
		return t
	}
	t.columns = header
	issues.checkColumns("columns", header)
	for {
		rec, err := rd.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			issues.add("csv", "format", csvMessage(err))
			return t
		}
		i := len(t.rows)
		if i >= maxDataRows {
			issues.add("rows", "too_many", fmt.Sprintf("at most %d rows are allowed", maxDataRows))
			return t
		}
		line, _ := rd.FieldPos(0)
		p := "rows[" + strconv.Itoa(i) + "]"
		if len(rec) != len(header) {
			issues.addCapped(p, "ragged", fmt.Sprintf("line %d has %d fields, the header line has %d", line, len(rec), len(header)))
		}
		row := make(map[string]string, len(header))
		for j, c := range header {
			if j < len(rec) {
				issues.cell(keyPath(p, c), rec[j])
				row[c] = rec[j]
			}
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// csvMessage says what is wrong with a CSV, naming the line.
func csvMessage(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Sprintf("line %d, column %d: %v", pe.Line, pe.Column, pe.Err)
	}
	return "the CSV cannot be read: " + err.Error()
}

// writeCSV answers columns and rows as a CSV download named name.csv.
func writeCSV(w http.ResponseWriter, name string, columns []string, rows []map[string]string) {
	filename := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(`/\"`, r) {
			return '_'
		}
		return r
	}, name) + ".csv"
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": filename}))
	w.WriteHeader(http.StatusOK)
	cw := csv.NewWriter(w)
	_ = cw.Write(columns)
	rec := make([]string, len(columns))
	for _, row := range rows {
		for i, c := range columns {
			rec[i] = row[c]
		}
		_ = cw.Write(rec)
	}
	cw.Flush()
}

// clipText shortens s to n bytes at a rune boundary.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
