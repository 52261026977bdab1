package api

import (
	"context"
	"fmt"

	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/protocol"
)

// fileIssues lists the upload steps' file ids that name no file of the
// project (code unknown, path steps[i].files[j]): protocol checks their
// shape, the hub checks at every save that they are the project's, as it
// checks a data binding's ids (databinding.go).
func (s *Server) fileIssues(ctx context.Context, projectID string, steps []protocol.Step) ([]protocol.Issue, error) {
	if !hasUpload(steps) {
		return nil, nil
	}
	want := []string{}
	for _, st := range protocol.AllSteps(steps) {
		if st.Type == "upload" {
			for _, id := range st.Files {
				if ids.Valid(artifacts.FileKind, id) {
					want = append(want, id)
				}
			}
		}
	}
	found, err := s.store.ProjectFiles(ctx, projectID, want)
	if err != nil {
		return nil, err
	}
	var out []protocol.Issue
	protocol.WalkSteps(steps, func(p string, _ int, st *protocol.Step) bool {
		if st.Type != "upload" {
			return true
		}
		for j, id := range st.Files {
			if !found[id] {
				out = append(out, protocol.Issue{Path: fmt.Sprintf("%s.files[%d]", p, j), Code: protocol.CodeUnknown,
					Message: fmt.Sprintf("no file of this project has the id %q: upload it on the Files page", clipText(id, 70))})
			}
		}
		return true
	})
	return out, nil
}

func hasUpload(steps []protocol.Step) bool {
	for _, st := range protocol.AllSteps(steps) {
		if st.Type == "upload" {
			return true
		}
	}
	return false
}
