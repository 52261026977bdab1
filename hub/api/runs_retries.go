package api

import (
	"net/http"
)

// maxRetries bounds the run option retries (docs/retries.md).
const maxRetries = 3

// checkRetries refuses a retries option outside 0..maxRetries.
func checkRetries(w http.ResponseWriter, in runRequest) bool {
	if in.Retries != nil && (*in.Retries < 0 || *in.Retries > maxRetries) {
		writeIssues(w, "the run is not valid", issueList{{Path: "retries", Code: "range", Message: "retries must be 0 to 3"}})
		return false
	}
	return true
}

// retries is the request's retries option, 0 when absent.
func (in runRequest) retries() int {
	if in.Retries == nil {
		return 0
	}
	return *in.Retries
}
