package api

// Data pools: records that runs take one at a time. A test binding a pool
// (data.pool, data.mode) takes the first free record when its run is
// handed to an agent (store.TakePoolRecord): leased until the run ends, or
// consumed until the pool is reset. Everyone in the project reads pools and
// who holds their records (a private test of someone else shows only the
// record's state); Test Developers and up change, reset and delete them,
// except a protected one: Test Managers and Admins only (protected.go).

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
	kindDataPool     = "dpl"
	dataPoolNotFound = "no such data pool, or it is not in this project"
)

type dataPoolSummaryJSON struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Columns   []string `json:"columns"`
	Free      int      `json:"free"`
	Leased    int      `json:"leased"`
	Consumed  int      `json:"consumed"`
	Total     int      `json:"total"`
	Protected bool     `json:"protected"` // see protected.go; everyone sees it
	UpdatedAt string   `json:"updatedAt"`
}

type poolRecordJSON struct {
	Index    int               `json:"index"`
	Values   map[string]string `json:"values"`
	State    string            `json:"state"`
	RunID    string            `json:"runId,omitempty"`
	TestID   string            `json:"testId,omitempty"`
	TestName string            `json:"testName,omitempty"`
	TakenBy  *refJSON          `json:"takenBy,omitempty"`
	TakenAt  string            `json:"takenAt,omitempty"`
}

type dataPoolJSON struct {
	dataPoolSummaryJSON
	ProjectID string           `json:"projectId"`
	CreatedAt string           `json:"createdAt"`
	Records   []poolRecordJSON `json:"records"`
}

func toDataPoolSummary(p store.DataPool) dataPoolSummaryJSON {
	return dataPoolSummaryJSON{ID: p.ID, Name: p.Name, Columns: p.Columns, Free: p.Free, Leased: p.Leased, Consumed: p.Consumed, Total: p.Total,
		Protected: p.Protected, UpdatedAt: p.UpdatedAt.UTC().Format(timeFormat)}
}

// toDataPoolJSON shows who holds each record, except to a caller who may
// not see the holder's test (someone else's private test).
func toDataPoolJSON(p store.DataPool, userID string) dataPoolJSON {
	out := dataPoolJSON{dataPoolSummaryJSON: toDataPoolSummary(p), ProjectID: p.ProjectID, CreatedAt: p.CreatedAt.UTC().Format(timeFormat),
		Records: make([]poolRecordJSON, len(p.Records))}
	for i, rec := range p.Records {
		o := poolRecordJSON{Index: rec.Index, Values: rec.Values, State: rec.State}
		if o.Values == nil {
			o.Values = map[string]string{}
		}
		hidden := rec.TestVisibility == store.Private && rec.TestOwner != userID
		if rec.State != store.PoolFree && !hidden {
			o.RunID, o.TestID, o.TestName = rec.RunID, rec.TestID, rec.TestName
			if rec.TakenBy != "" {
				o.TakenBy = ref(rec.TakenBy, rec.TakenByName)
			}
			if !rec.TakenAt.IsZero() {
				o.TakenAt = rec.TakenAt.UTC().Format(timeFormat)
			}
		}
		out.Records[i] = o
	}
	return out
}

func (s *Server) listDataPools(w http.ResponseWriter, r *http.Request) {
	listInProject(s, w, r, "dataPools", s.store.DataPools, toDataPoolSummary)
}

// saveDataPool creates a pool (201) or updates the header project's pool
// named by id (200) from {id?, name, columns, records, protected?}. An
// update without
// columns and records only renames; records equal to the stored ones keep
// their states; other records replace them all as free (409 pool_in_use
// while a queued or running run holds a lease).
func (s *Server) saveDataPool(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.EditSharedTests) {
		return
	}
	fields, ok := readDataObject(w, r)
	if !ok {
		return
	}
	var issues issueList
	id := strings.TrimSpace(getField(fields, "id").str("id", &issues))
	name := strings.TrimSpace(getField(fields, "name").str("name", &issues))
	issues.name("name", name)
	t, content := readTableJSON(fields, "records", &issues)
	want := readProtected(fields, &issues)
	if !content && id == "" {
		issues.add("columns", "required", "columns is required")
	}
	save := store.DataPoolSave{ID: id, ProjectID: sc.Project.ID, Create: id == "", Name: name, Protected: want, UserID: currentUserID(r), Now: s.Now()}
	current := name // the name refusals give
	if !save.Create {
		p, ok := loadBodyRecord(s, w, r, sc, kindDataPool, id, dataPoolNotFound, s.store.FindDataPool,
			func(p store.DataPool) string { return p.ProjectID })
		if !ok {
			return
		}
		current = p.Name
	} else {
		save.ID = ids.New(kindDataPool)
	}
	if len(issues) > 0 {
		writeIssues(w, "the data pool is not valid", issues)
		return
	}
	if content {
		save.Columns, save.Records = t.columns, emptyRows(t.rows)
	}
	p, err := s.store.SaveDataPool(r.Context(), save, func(protected bool) error {
		return decideDataChange(sc, "data pool", current, protected, want)
	})
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		ae.write(w)
	case errors.Is(err, store.ErrConflict):
		writeError(w, http.StatusConflict, "name_taken", "the project has a data pool with this name")
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, dataPoolNotFound)
	case errors.Is(err, store.ErrPoolInUse):
		errPoolInUse(w, "its records cannot change")
	case err != nil:
		s.internal(w, r, err)
	case save.Create:
		writeJSON(w, http.StatusCreated, toDataPoolJSON(p, currentUserID(r)))
	default:
		writeJSON(w, http.StatusOK, toDataPoolJSON(p, currentUserID(r)))
	}
}

func errPoolInUse(w http.ResponseWriter, what string) {
	writeError(w, http.StatusConflict, "pool_in_use", "a queued or running run holds a record of this data pool, so "+what+" until that run ends")
}

// loadDataPool resolves /data-pools/{id} through the shared record scoping
// and checks p.
func (s *Server) loadDataPool(w http.ResponseWriter, r *http.Request, p access.Permission) (store.DataPool, scope, bool) {
	pool, sc, ok := loadVisible(s, w, r, kindDataPool, chi.URLParam(r, "id"), dataPoolNotFound,
		func(ctx context.Context, id string) (store.DataPool, error) { return s.store.FindDataPool(ctx, id) },
		func(p store.DataPool) string { return p.ProjectID },
		func(store.DataPool) (bool, string) { return false, "" })
	return pool, sc, ok && allow(w, sc, p)
}

func (s *Server) getDataPool(w http.ResponseWriter, r *http.Request) {
	p, _, ok := s.loadDataPool(w, r, access.ViewProject)
	if !ok {
		return
	}
	p, err := s.store.DataPoolDetail(r.Context(), p.ProjectID, p.ID)
	s.answerDataPool(w, r, p, err)
}

func (s *Server) answerDataPool(w http.ResponseWriter, r *http.Request, p store.DataPool, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, dataPoolNotFound)
	case err != nil:
		s.internal(w, r, err)
	default:
		writeJSON(w, http.StatusOK, toDataPoolJSON(p, currentUserID(r)))
	}
}

func (s *Server) deleteDataPool(w http.ResponseWriter, r *http.Request) {
	p, sc, ok := s.loadDataPool(w, r, access.EditSharedTests)
	if !ok {
		return
	}
	err := s.store.DeleteDataPool(r.Context(), p.ProjectID, p.ID, func(protected bool) error {
		return decideDataChange(sc, "data pool", p.Name, protected, nil)
	})
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		ae.write(w)
	case errors.Is(err, store.ErrPoolInUse):
		errPoolInUse(w, "it cannot be deleted")
	case err != nil && !errors.Is(err, store.ErrNotFound):
		s.internal(w, r, err)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// resetDataPool frees consumed records and the leases of runs that ended;
// of a protected pool, only for a Test Manager or Admin (it changes what
// runs receive).
func (s *Server) resetDataPool(w http.ResponseWriter, r *http.Request) {
	p, sc, ok := s.loadDataPool(w, r, access.EditSharedTests)
	if !ok {
		return
	}
	name := p.Name
	p, err := s.store.ResetDataPool(r.Context(), p.ProjectID, p.ID, s.Now(), func(protected bool) error {
		return decideDataChange(sc, "data pool", name, protected, nil)
	})
	if writeDataRefusal(w, err) {
		return
	}
	s.answerDataPool(w, r, p, err)
}
