package api

// Project files: what upload steps set on a page's <input type=file>.
// POST /api/files?name=report.pdf takes the raw bytes as the request body
// (up to MaxFileSize) in the project of the x-project-id header; GET lists
// them, GET /api/files/:id is one file's facts, /api/files/:id/content its
// bytes (always as an attachment), DELETE removes it. Every member of the
// project lists and reads files; Testers and up (AuthorTests) upload; the
// uploader, Test Managers and Admins (ManageTests) delete. A file used by
// tests may be deleted: their upload steps then fail saying the file is
// gone, and saving them names the missing id (docs/files.md).

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"mime"
	"net/http"
	"os"
	"path"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

const (
	fileNotFound = "no such file, or it is not in this project"
	// MaxFileSize bounds one project file: 25 MiB.
	MaxFileSize      = 25 << 20
	maxFileName      = 255
	codeFileTooLarge = "file_too_large"
)

type projectFileJSON struct {
	ID          string   `json:"id"`
	ProjectID   string   `json:"projectId"`
	Name        string   `json:"name"`
	Size        int64    `json:"size"`
	SHA256      string   `json:"sha256"`
	ContentType string   `json:"contentType"`
	CreatedBy   *refJSON `json:"createdBy"`
	CreatedAt   string   `json:"createdAt"`
}

func toProjectFileJSON(f store.File) projectFileJSON {
	return projectFileJSON{ID: f.ID, ProjectID: f.ProjectID, Name: f.Name, Size: f.Size, SHA256: f.SHA256, ContentType: f.ContentType,
		CreatedBy: ref(f.CreatedByID, f.CreatedByName), CreatedAt: f.CreatedAt.UTC().Format(timeFormat)}
}

// fileNameIssue says what is wrong with a file's name: it becomes the
// name the page sees (and the agent's file name on disk, on any OS), so it
// is one plain name, no path, that Windows can make too.
func fileNameIssue(name string) string {
	if msg := windowsNameIssue(name); msg != "" {
		return msg
	}
	switch {
	case name == "":
		return "give the file a name with ?name="
	case !utf8.ValidString(name) || strings.IndexFunc(name, func(r rune) bool { return invisible(r) || r != ' ' && unicode.IsSpace(r) }) >= 0:
		return "a file name may not contain control characters or line breaks"
	case strings.ContainsAny(name, `/\`):
		return `a file name may not contain / or \`
	case name == "." || name == "..":
		return "a file name may not be . or .."
	case utf8.RuneCountInString(name) > maxFileName:
		return "a file name is at most 255 characters"
	}
	return ""
}

// windowsNameIssue refuses what Windows cannot make a file of; an agent
// there could not write the file for the page.
func windowsNameIssue(name string) string {
	if i := strings.IndexAny(name, protocol.WindowsForbidden); i >= 0 {
		return fmt.Sprintf("a file name may not contain %q: Windows cannot make such a file (none of %s)", string(name[i]), protocol.WindowsForbidden)
	}
	if name == "." || name == ".." {
		return "" // said below
	}
	if strings.HasSuffix(name, ".") || strings.HasSuffix(name, " ") {
		return "a file name may not end with a dot or a space: Windows drops them"
	}
	if protocol.WindowsReserved(name) {
		stem, _, _ := strings.Cut(name, ".")
		return fmt.Sprintf("%q is a device name on Windows: a file may not be called that, with or without an extension", strings.TrimRight(stem, " "))
	}
	return ""
}

// fileContentType is the type the client sent, else (no type, or
// application/octet-stream: what the web app sends, since a text/plain
// upload would be refused as a possible cross-site form, see fileUpload)
// one guessed from the name's extension, else application/octet-stream.
func fileContentType(header, name string) string {
	if mt, params, err := mime.ParseMediaType(header); err == nil && mt != "application/octet-stream" {
		return mime.FormatMediaType(mt, params)
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

func (s *Server) listFiles(w http.ResponseWriter, r *http.Request) {
	listInProject(s, w, r, "files", s.store.Files, toProjectFileJSON)
}

// uploadFile stores the request body as a new file of the header's
// project: 201 with its facts; 413 over MaxFileSize or the project's
// quota, 422 for a bad name.
func (s *Server) uploadFile(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.AuthorTests) {
		return
	}
	name := r.URL.Query().Get("name")
	if msg := fileNameIssue(name); msg != "" {
		writeIssues(w, "the file's name is not valid", []Issue{{Path: "name", Code: codeInvalid, Message: msg}})
		return
	}
	if r.ContentLength > MaxFileSize {
		fileTooLarge(w)
		return
	}
	files := s.files()
	if files == nil {
		writeError(w, http.StatusServiceUnavailable, codeUnavailable, "this hub keeps no files")
		return
	}
	// Checked before reading when the length is known, and again as the
	// row is stored (CreateFile), which counts the bytes that came.
	if !s.fileRoom(w, r, sc.Project.ID, r.ContentLength) {
		return
	}
	id := ids.New(artifacts.FileKind)
	body := &countingReader{r: http.MaxBytesReader(w, r.Body, MaxFileSize), h: sha256.New()}
	err := files.PutFile(r.Context(), id, body)
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		fileTooLarge(w)
		return
	case err != nil:
		s.internal(w, r, err)
		return
	}
	f := store.File{ID: id, ProjectID: sc.Project.ID, Name: name, Size: body.n, SHA256: hex.EncodeToString(body.h.Sum(nil)),
		ContentType: fileContentType(r.Header.Get("Content-Type"), name), CreatedByID: currentUserID(r), CreatedAt: s.Now().Truncate(time.Microsecond)}
	if err := s.store.CreateFile(r.Context(), f, s.fileQuota()); err != nil {
		_ = files.DeleteFile(context.WithoutCancel(r.Context()), id)
		switch {
		case asQuotaError(w, err):
		case errors.Is(err, store.ErrNotFound): // the project was deleted meanwhile
			writeError(w, http.StatusNotFound, codeNotFound, "the project is gone")
		default:
			s.internal(w, r, err)
		}
		return
	}
	u, _ := currentUser(r)
	f.CreatedByName = u.Name
	writeJSON(w, http.StatusCreated, toProjectFileJSON(f))
}

func fileTooLarge(w http.ResponseWriter) {
	writeError(w, http.StatusRequestEntityTooLarge, codeFileTooLarge, "a file is at most 25 MiB")
}

// countingReader counts and hashes what is read through it.
type countingReader struct {
	r io.Reader
	h hash.Hash
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	c.h.Write(p[:n])
	return n, err
}

// files is where file contents are kept: the artifact store, when it
// keeps files too.
func (s *Server) files() artifacts.Files {
	f, _ := s.Artifacts.(artifacts.Files)
	return f
}

// loadFile resolves /files/{id} for a member of its project (another
// project's file answers 404 and is audited, see loadVisible).
func (s *Server) loadFile(w http.ResponseWriter, r *http.Request) (store.File, scope, bool) {
	return loadVisible(s, w, r, artifacts.FileKind, chi.URLParam(r, "id"), fileNotFound, s.store.FileByID,
		func(f store.File) string { return f.ProjectID },
		func(store.File) (bool, string) { return false, "" })
}

func (s *Server) getFile(w http.ResponseWriter, r *http.Request) {
	if f, _, ok := s.loadFile(w, r); ok {
		writeJSON(w, http.StatusOK, toProjectFileJSON(f))
	}
}

// fileContent serves a file's bytes, always as a download: a member's
// upload must never open as a page of the hub.
func (s *Server) fileContent(w http.ResponseWriter, r *http.Request) {
	f, _, ok := s.loadFile(w, r)
	if !ok || s.redirectFile(w, r, f) { // presign.go
		return
	}
	s.serveFile(w, r, f)
}

func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, f store.File) {
	files := s.files()
	if files == nil {
		writeError(w, http.StatusNotFound, codeNotFound, "the file's contents are gone")
		return
	}
	rd, err := files.OpenFile(r.Context(), f.ID)
	if errors.Is(err, os.ErrNotExist) {
		writeError(w, http.StatusNotFound, codeNotFound, "the file's contents are gone")
		return
	}
	if err != nil {
		s.storageUnavailable(w, r, err) // health_storage.go
		return
	}
	defer rd.Close()
	fileHeaders(w, f)
	http.ServeContent(w, r, "", f.CreatedAt, rd)
}

// fileHeaders sets what a file is served with: always a download.
func fileHeaders(w http.ResponseWriter, f store.File) {
	w.Header().Set("Content-Type", f.ContentType)
	w.Header().Set("Cache-Control", "private, no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "sandbox; default-src 'none'")
	disposition := mime.FormatMediaType("attachment", map[string]string{"filename": f.Name})
	if disposition == "" {
		disposition = "attachment"
	}
	w.Header().Set("Content-Disposition", disposition)
	w.Header().Set("X-File-Sha256", f.SHA256)
}

// deleteFile removes a file: its uploader, a Test Manager or an Admin
// (mayDeleteFile).
func (s *Server) deleteFile(w http.ResponseWriter, r *http.Request) {
	f, sc, ok := s.loadFile(w, r)
	if !ok {
		return
	}
	if !mayDeleteFile(f, currentUserID(r), sc) {
		writeError(w, http.StatusForbidden, codeForbidden, "your role in this project ("+string(sc.Role)+
			") does not allow this: only the file's uploader (while they may upload files), a Test Manager or an Admin may delete it")
		return
	}
	err := s.store.DeleteFile(r.Context(), f.ProjectID, f.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, r, err)
		return
	}
	if files := s.files(); files != nil {
		if err := files.DeleteFile(r.Context(), f.ID); err != nil {
			s.log.Error("delete file contents", "file", f.ID, "err", err)
		}
	}
	w.WriteHeader(http.StatusNoContent)
}
