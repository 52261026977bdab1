package api

// A test document's data binding (protocol.DataBinding) names a test data
// set and a data pool by id: protocol checks their shape, the hub checks
// at every save that they are records of the test's project.

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// dataBindingIssues lists the binding's ids that name no data set or pool
// of the project (code unknown, paths data.set and data.pool).
func (s *Server) dataBindingIssues(ctx context.Context, projectID string, doc protocol.Document) ([]protocol.Issue, error) {
	b := doc.Data
	if b == nil {
		return nil, nil
	}
	var out []protocol.Issue
	if b.Set != "" {
		err := store.ErrNotFound
		if ids.Valid(kindDataSet, b.Set) {
			_, err = s.store.DataSet(ctx, projectID, b.Set)
		}
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		if err != nil {
			out = append(out, protocol.Issue{Path: "data.set", Code: protocol.CodeUnknown,
				Message: fmt.Sprintf("no test data set of this project has the id %q", clipText(b.Set, 70))})
		}
	}
	if b.Pool != "" {
		found := false
		if ids.Valid(kindDataPool, b.Pool) {
			p, err := s.store.FindDataPool(ctx, b.Pool)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return nil, err
			}
			found = err == nil && p.ProjectID == projectID
		}
		if !found {
			out = append(out, protocol.Issue{Path: "data.pool", Code: protocol.CodeUnknown,
				Message: fmt.Sprintf("no data pool of this project has the id %q", clipText(b.Pool, 70))})
		}
	}
	return out, nil
}

// checkDataBinding answers 422 with the documents' binding issues (paths
// prefixed tests[i]. when there are several documents), or 500, and
// returns false when they may not be saved in the project.
func (s *Server) checkDataBinding(w http.ResponseWriter, r *http.Request, projectID string, docs ...protocol.Document) bool {
	var all []protocol.Issue
	for i, doc := range docs {
		issues, err := s.dataBindingIssues(r.Context(), projectID, doc)
		if err != nil {
			s.internal(w, r, err)
			return false
		}
		for _, is := range issues {
			if len(docs) > 1 {
				is.Path = fmt.Sprintf("tests[%d].%s", i, is.Path)
			}
			all = append(all, is)
		}
	}
	if len(all) > 0 {
		invalidDocument(all).write(w)
		return false
	}
	return true
}
