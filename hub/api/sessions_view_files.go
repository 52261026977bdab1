package api

import (
	"fmt"
	"net/http"

	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/protocol"
)

// chosenFilesKnown checks that the files of a files input (the answer to
// a page's file chooser in the live view) are files of the session's
// project; else it answers 422 with an issue at files[i] (code unknown),
// the same for another project's file as for none, and nothing is relayed.
// Reading a project's files needs no more than the session's own check
// (loadAnySession): every member of the project reads its files.
func (s *Server) chosenFilesKnown(w http.ResponseWriter, r *http.Request, projectID string, files []string) bool {
	if len(files) == 0 {
		return true // a cancel
	}
	want := make([]string, 0, len(files))
	for _, id := range files {
		if ids.Valid(artifacts.FileKind, id) {
			want = append(want, id)
		}
	}
	found, err := s.store.ProjectFiles(r.Context(), projectID, want)
	if err != nil {
		s.internal(w, r, err)
		return false
	}
	var issues issueList
	for i, id := range files {
		if !found[id] {
			issues.add(fmt.Sprintf("files[%d]", i), protocol.CodeUnknown,
				fmt.Sprintf("no file of this project has the id %q: upload it on the Files page", clipText(id, 70)))
		}
	}
	if len(issues) > 0 {
		writeIssues(w, "the input is not valid", issues)
		return false
	}
	return true
}
