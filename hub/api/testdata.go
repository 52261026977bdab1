package api

// Test data sets: named tables of a project. A test binding one (its
// document's data.set) runs once per row, ${column} reading the row.
// Everyone in the project reads them; Test Developers and up
// (access.EditSharedTests) create, change and delete them, except a
// protected one: Test Managers and Admins only (protected.go). Bodies are
// JSON or CSV (content-type: text/csv); datatable.go reads both.

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

const (
	kindDataSet     = "tds"
	dataSetNotFound = "no such test data set, or it is not in this project"
)

type dataSetSummaryJSON struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Columns   []string `json:"columns"`
	RowCount  int      `json:"rowCount"`
	Protected bool     `json:"protected"` // see protected.go; everyone sees it
	UpdatedAt string   `json:"updatedAt"`
}

type dataSetJSON struct {
	ID        string              `json:"id"`
	ProjectID string              `json:"projectId"`
	Name      string              `json:"name"`
	Columns   []string            `json:"columns"`
	Rows      []map[string]string `json:"rows"`
	Protected bool                `json:"protected"`
	CreatedAt string              `json:"createdAt"`
	UpdatedAt string              `json:"updatedAt"`
}

func toDataSetJSON(d store.DataSet) dataSetJSON {
	return dataSetJSON{ID: d.ID, ProjectID: d.ProjectID, Name: d.Name, Columns: d.Columns, Rows: d.Rows, Protected: d.Protected,
		CreatedAt: d.CreatedAt.UTC().Format(timeFormat), UpdatedAt: d.UpdatedAt.UTC().Format(timeFormat)}
}

func (s *Server) listDataSets(w http.ResponseWriter, r *http.Request) {
	listInProject(s, w, r, "dataSets", s.store.DataSets, func(d store.DataSetSummary) dataSetSummaryJSON {
		return dataSetSummaryJSON{ID: d.ID, Name: d.Name, Columns: d.Columns, RowCount: d.RowCount, Protected: d.Protected,
			UpdatedAt: d.UpdatedAt.UTC().Format(timeFormat)}
	})
}

// dataSetInput is a decoded POST /api/test-data body.
type dataSetInput struct {
	id, name  string
	table     table
	content   bool  // columns and rows were sent
	protected *bool // nil keeps the flag (false on create)
}

// readDataSetInput reads a JSON body {id?, name, columns, rows, protected?},
// or a CSV body with ?name= and ?id= (which keeps the flag). On a failure
// to read it has answered.
func readDataSetInput(w http.ResponseWriter, r *http.Request) (in dataSetInput, issues issueList, ok bool) {
	if isCSV(r) {
		data, ok := readDataBody(w, r)
		if !ok {
			return in, nil, false
		}
		q := r.URL.Query()
		in.id, in.name = strings.TrimSpace(q.Get("id")), strings.TrimSpace(q.Get("name"))
		issues.queryText("name", in.name)
		in.table, in.content = readTableCSV(data, &issues), true
		return in, issues, true
	}
	fields, ok := readDataObject(w, r)
	if !ok {
		return in, nil, false
	}
	in.id = strings.TrimSpace(getField(fields, "id").str("id", &issues))
	in.name = strings.TrimSpace(getField(fields, "name").str("name", &issues))
	in.table, in.content = readTableJSON(fields, "rows", &issues)
	in.protected = readProtected(fields, &issues)
	if !in.content && in.id == "" {
		issues.add("columns", "required", "columns is required")
	}
	return in, issues, true
}

// saveDataSet creates a data set (201) or replaces the header project's
// set named by id (200). An update without columns and rows renames the
// set and keeps its content; a CSV update without ?name= keeps the name.
func (s *Server) saveDataSet(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.EditSharedTests) {
		return
	}
	in, issues, ok := readDataSetInput(w, r)
	if !ok {
		return
	}
	save := store.DataSetSave{ID: in.id, ProjectID: sc.Project.ID, Create: in.id == "", Name: in.name, Protected: in.protected,
		UserID: currentUserID(r), Now: s.Now()}
	current := in.name // the name refusals give
	if save.Create {
		save.ID = ids.New(kindDataSet)
	} else {
		d, ok := loadBodyRecord(s, w, r, sc, kindDataSet, in.id, dataSetNotFound, s.store.FindDataSet,
			func(d store.DataSet) string { return d.ProjectID })
		if !ok {
			return
		}
		if save.Name == "" {
			save.Name = d.Name
		}
		current = d.Name
	}
	if issues.name("name", save.Name); len(issues) > 0 {
		writeIssues(w, "the test data set is not valid", issues)
		return
	}
	if in.content {
		save.Columns, save.Rows = in.table.columns, emptyRows(in.table.rows)
	}
	d, err := s.store.SaveDataSet(r.Context(), save, func(protected bool) error {
		return decideDataChange(sc, "data set", current, protected, in.protected)
	})
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		ae.write(w)
	case errors.Is(err, store.ErrConflict):
		writeError(w, http.StatusConflict, "name_taken", "the project has a test data set with this name")
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, dataSetNotFound)
	case err != nil:
		s.internal(w, r, err)
	case save.Create:
		writeJSON(w, http.StatusCreated, toDataSetJSON(d))
	default:
		writeJSON(w, http.StatusOK, toDataSetJSON(d))
	}
}

func emptyRows(rows []map[string]string) []map[string]string {
	if rows == nil {
		return []map[string]string{}
	}
	return rows
}

// loadDataSet resolves /test-data/{id} through the shared record scoping
// and checks p.
func (s *Server) loadDataSet(w http.ResponseWriter, r *http.Request, p access.Permission) (store.DataSet, scope, bool) {
	d, sc, ok := loadVisible(s, w, r, kindDataSet, chi.URLParam(r, "id"), dataSetNotFound,
		func(ctx context.Context, id string) (store.DataSet, error) { return s.store.FindDataSet(ctx, id) },
		func(d store.DataSet) string { return d.ProjectID },
		func(store.DataSet) (bool, string) { return false, "" })
	return d, sc, ok && allow(w, sc, p)
}

// getDataSet answers the set as JSON, or with ?format=csv as a download.
func (s *Server) getDataSet(w http.ResponseWriter, r *http.Request) {
	d, _, ok := s.loadDataSet(w, r, access.ViewProject)
	if !ok {
		return
	}
	switch r.URL.Query().Get("format") {
	case "", "json":
		writeJSON(w, http.StatusOK, toDataSetJSON(d))
	case "csv":
		writeCSV(w, d.Name, d.Columns, d.Rows)
	default:
		writeIssues(w, "unknown format", []Issue{{Path: "format", Code: "enum", Message: "format must be json or csv"}})
	}
}

func (s *Server) deleteDataSet(w http.ResponseWriter, r *http.Request) {
	d, sc, ok := s.loadDataSet(w, r, access.EditSharedTests)
	if !ok {
		return
	}
	err := s.store.DeleteDataSet(r.Context(), d.ProjectID, d.ID, func(protected bool) error {
		return decideDataChange(sc, "data set", d.Name, protected, nil)
	})
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		ae.write(w)
	case err != nil && !errors.Is(err, store.ErrNotFound):
		s.internal(w, r, err)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}
