package api

// What project files may take: a quota per project (Config.FileQuota,
// HUB_FILES_PER_PROJECT_MB), so that a member who may upload cannot fill
// the hub's disk; who may delete a file; and removing the bytes of a
// deleted project's files (docs/files.md).

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/store"
)

const (
	// DefaultFileQuota is the bytes one project's files may take: 1 GiB.
	DefaultFileQuota  = 1 << 30
	codeQuotaExceeded = "quota_exceeded"
)

// fileQuota is the bytes one project's files may take.
func (s *Server) fileQuota() int64 {
	if s.FileQuota > 0 {
		return s.FileQuota
	}
	return DefaultFileQuota
}

// quotaExceeded answers 413 for a file its project has no room for,
// saying how much is used.
func quotaExceeded(w http.ResponseWriter, used, limit int64) {
	writeError(w, http.StatusRequestEntityTooLarge, codeQuotaExceeded, fmt.Sprintf(
		"the project's files may take at most %s and take %s already: there is no room for this file; delete files the project no longer needs",
		formatSize(limit), formatSize(used)))
}

// fileRoom refuses (413) a file of size bytes that the project's files
// have no room for; size -1 (not known yet) passes.
func (s *Server) fileRoom(w http.ResponseWriter, r *http.Request, projectID string, size int64) bool {
	if size < 0 {
		return true
	}
	used, err := s.store.FilesSize(r.Context(), projectID)
	if err != nil {
		s.internal(w, r, err)
		return false
	}
	if used+size > s.fileQuota() {
		quotaExceeded(w, used, s.fileQuota())
		return false
	}
	return true
}

// asQuotaError reports whether err is a file refused for its project's
// quota, answering 413 if so.
func asQuotaError(w http.ResponseWriter, err error) bool {
	var q *store.QuotaError
	if !errors.As(err, &q) {
		return false
	}
	quotaExceeded(w, q.Used, q.Limit)
	return true
}

// formatSize is n bytes as people read it: 512 bytes, 1.5 MiB, 1 GiB.
func formatSize(n int64) string {
	units := []string{"KiB", "MiB", "GiB", "TiB"}
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " bytes"
	}
	v, unit := float64(n)/1024, units[0]
	for _, u := range units[1:] {
		if v < 1024 {
			break
		}
		v, unit = v/1024, u
	}
	return strings.TrimSuffix(strconv.FormatFloat(v, 'f', 1, 64), ".0") + " " + unit
}

// mayDeleteFile is who may delete a file: a Test Manager or an Admin, and
// its uploader while they may still upload (the permission uploading
// needs): a member whose role no longer allows uploads no longer removes
// what they uploaded either.
func mayDeleteFile(f store.File, userID string, sc scope) bool {
	return sc.can(access.ManageTests) || f.CreatedByID != "" && f.CreatedByID == userID && sc.can(access.AuthorTests)
}

// dropFileContents removes the bytes of files whose rows are gone (a
// deleted project's or organization's). A failure is logged: the rows are
// gone and the answer says so.
func (s *Server) dropFileContents(ctx context.Context, ids []string) {
	files := s.files()
	if files == nil {
		return
	}
	ctx = context.WithoutCancel(ctx) // the client may leave; the bytes still go
	for _, id := range ids {
		if err := files.DeleteFile(ctx, id); err != nil {
			s.log.Error("delete file contents", "file", id, "err", err)
		}
	}
}
