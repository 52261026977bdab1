package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"github.com/testautomation/ta/hub/store"
)

// Issue is one problem with a request body or document, named by its JSON
// path ("email", "steps[2].target").
type Issue struct {
	Path    string `json:"path"`
	Message string `json:"message"`
	Code    string `json:"code"`
}

type errorBody struct {
	Error  string  `json:"error"`
	Code   string  `json:"code"`
	Issues []Issue `json:"issues,omitempty"`
}

// Error codes shared by every route.
const (
	codeBadRequest       = "bad_request"
	codeInvalidJSON      = "invalid_json"
	codeUnauthenticated  = "unauthenticated"
	codeForbidden        = "forbidden"
	codeNotFound         = "not_found"
	codeMethodNotAllowed = "method_not_allowed"
	codeConflict         = "conflict"
	codeTooLarge         = "body_too_large"
	codeInvalid          = "invalid"
	codeTooMany          = "too_many_attempts"
	codeInternal         = "internal"
	codeUnavailable      = "unavailable"
)

// maxBody bounds every JSON request body.
const maxBody = 1 << 20

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		slog.Debug("write response", "err", err)
	}
}

// writeError is the one way an error leaves the API.
func writeError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, errorBody{Error: msg, Code: code})
}

func writeIssues(w http.ResponseWriter, msg string, issues []Issue) {
	writeJSON(w, http.StatusUnprocessableEntity, errorBody{Error: msg, Code: codeInvalid, Issues: issues})
}

// internal logs the detail of an unexpected error and answers a generic
// 500, or 503 when the database is away for a moment (restarting,
// unreachable): the client may try again.
func (s *Server) internal(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil && errors.Is(err, context.Canceled) {
		// The client went away (a browser navigated on) and its request's
		// queries were cancelled: nobody reads the answer, nothing failed.
		s.log.Debug("request abandoned by its client", "method", r.Method, "path", r.URL.Path)
		return
	}
	if store.Unavailable(err) {
		s.log.Warn("request failed: the database does not answer", "method", r.Method, "path", r.URL.Path, "err", err)
		w.Header().Set("Retry-After", "2")
		writeError(w, http.StatusServiceUnavailable, codeUnavailable, "the hub's database does not answer right now; try again in a moment")
		return
	}
	s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	writeError(w, http.StatusInternalServerError, codeInternal, "internal error; the hub's log has the details")
}

// decode reads one JSON value of at most maxBody bytes into dst. On failure
// it has answered the request (400, 413 or 422) and returns false.
func decode(w http.ResponseWriter, r *http.Request, dst any) bool {
	status, body := decodeBody(http.MaxBytesReader(w, r.Body, maxBody), dst)
	if status != 0 {
		writeJSON(w, status, body)
		return false
	}
	return true
}

// decodeBody is decode without the ResponseWriter, so it can be fuzzed.
func decodeBody(rd io.Reader, dst any) (int, errorBody) {
	dec := json.NewDecoder(rd)
	err := dec.Decode(dst)
	if err == nil {
		var extra json.RawMessage
		if err2 := dec.Decode(&extra); err2 == nil {
			return http.StatusBadRequest, errorBody{Error: "unexpected data after the JSON value", Code: codeInvalidJSON}
		} else if !errors.Is(err2, io.EOF) {
			err = err2
		}
	}
	if err == nil {
		return 0, errorBody{}
	}
	var tooLarge *http.MaxBytesError
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &tooLarge):
		return http.StatusRequestEntityTooLarge, errorBody{Error: "request body is larger than 1 MiB", Code: codeTooLarge}
	case errors.Is(err, io.EOF):
		return http.StatusBadRequest, errorBody{Error: "request body is empty: send a JSON object", Code: codeInvalidJSON}
	case errors.As(err, &typeErr) && typeErr.Field != "":
		return http.StatusUnprocessableEntity, errorBody{Error: "request has fields of the wrong type", Code: codeInvalid,
			Issues: []Issue{{Path: typeErr.Field, Code: "type", Message: "must be " + jsonKind(typeErr.Type.Kind().String())}}}
	case errors.As(err, &typeErr):
		return http.StatusBadRequest, errorBody{Error: "request body must be a JSON object", Code: codeInvalidJSON}
	case errors.As(err, &syntaxErr), errors.Is(err, io.ErrUnexpectedEOF):
		return http.StatusBadRequest, errorBody{Error: "malformed JSON: " + err.Error(), Code: codeInvalidJSON}
	default:
		return http.StatusBadRequest, errorBody{Error: "unreadable request body", Code: codeInvalidJSON}
	}
}

func jsonKind(goKind string) string {
	switch {
	case goKind == "string":
		return "a string"
	case goKind == "bool":
		return "true or false"
	case strings.HasPrefix(goKind, "int"), strings.HasPrefix(goKind, "uint"), strings.HasPrefix(goKind, "float"):
		return "a number"
	case goKind == "slice", goKind == "array":
		return "an array"
	default:
		return "an object"
	}
}
