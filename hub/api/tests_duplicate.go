package api

import (
	"net/http"
	"strings"

	"github.com/testautomation/ta/protocol"
)

type duplicateInput struct {
	Name *string `json:"name"`
}

// optionalCopyName reads a duplicate's body, absent or {"name": "..."}: the
// name is checked by the document's own rules for a test name, so a copy
// can never be named what a created test could not (422 with issues).
func optionalCopyName(w http.ResponseWriter, r *http.Request) (*string, bool) {
	if r.ContentLength == 0 {
		return nil, true
	}
	var in duplicateInput
	if !decode(w, r, &in) {
		return nil, false
	}
	if in.Name == nil {
		return nil, true
	}
	name := strings.TrimSpace(*in.Name)
	var issues issueList
	for _, is := range (protocol.Document{DSL: protocol.DSLVersion, Name: name}).Validate() {
		if is.Path == "name" {
			issues.add("name", is.Code, is.Message)
		}
	}
	if len(issues) > 0 {
		writeIssues(w, "the copy's name is not valid", issues)
		return nil, false
	}
	return &name, true
}
