package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/components"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// revise starts the next version of a Ready test as a Draft copy; the
// frozen version stays as it is. An optional body {note} becomes the new
// version's note.
func (s *Server) revise(w http.ResponseWriter, r *http.Request) {
	t, sc, ok := s.loadTest(w, r)
	if !ok {
		return
	}
	note, ok := optionalNote(w, r)
	if !ok {
		return
	}
	u, _ := currentUser(r)
	t, err := s.store.UpdateTest(r.Context(), t.ID, u.ID, s.Now(), func(cur store.Test, stored []byte) (store.TestChange, error) {
		switch {
		case cur.Status == store.Deprecated:
			return store.TestChange{}, errDeprecated
		case cur.Status == store.Draft:
			return store.TestChange{}, refuse(http.StatusConflict, "already_draft", "this test is already a Draft: edit it directly")
		case !canOnTest(sc, u.ID, cur).Revise:
			return store.TestChange{}, refuse(http.StatusForbidden, codeForbidden, "you may not revise this test: Testers revise only their own tests")
		}
		d, err := parseStored(stored)
		if err != nil {
			return store.TestChange{}, err
		}
		return store.TestChange{Append: &store.VersionWrite{Content: content(d), Status: store.Draft, Note: note}}, nil
	})
	s.writeTestOutcome(w, r, t, sc, err, http.StatusCreated)
}

type noteInput struct {
	Note *string `json:"note"`
}

// optionalNote reads a body that may be absent or {"note": "..."}.
func optionalNote(w http.ResponseWriter, r *http.Request) (string, bool) {
	if r.ContentLength == 0 {
		return "", true
	}
	var in noteInput
	if !decode(w, r, &in) {
		return "", false
	}
	var issues issueList
	note := ""
	if in.Note != nil {
		note = checkNote(&issues, "note", *in.Note)
	}
	if len(issues) > 0 {
		writeIssues(w, "the note is not valid", issues)
		return "", false
	}
	return note, true
}

// duplicate copies the saved current version into a new Draft test owned
// by the caller, with the same visibility. An optional body {name} names
// the copy (checked as a test's name); without it the copy is "<name> (copy)".
func (s *Server) duplicate(w http.ResponseWriter, r *http.Request) {
	t, sc, ok := s.loadTest(w, r)
	if !ok {
		return
	}
	name, ok := optionalCopyName(w, r)
	if !ok {
		return
	}
	u, _ := currentUser(r)
	if !canOnTest(sc, u.ID, t).Duplicate {
		writeError(w, http.StatusForbidden, codeForbidden, "your role may not create tests")
		return
	}
	d, err := s.versionDocument(r.Context(), t.ID, t.Version)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	d.Name = copyName(d.Name)
	if name != nil {
		d.Name = *name
	}
	if created := s.saveNewTests(w, r, sc, t.Visibility, d); created != nil {
		s.answerTest(w, r, created[0], sc, http.StatusCreated)
	}
}

// copyName appends " (copy)" within the name length limit.
func copyName(name string) string {
	const suffix = " (copy)"
	runes := []rune(name)
	if max := 200 - len(suffix); len(runes) > max {
		runes = runes[:max]
	}
	return string(runes) + suffix
}

type sharingInput struct {
	Visibility string `json:"visibility"`
	OwnerID    string `json:"ownerId"`
}

// share changes a test's visibility (its owner) or hands it to another
// member (its owner; a Test Manager or Admin for shared tests). No version.
func (s *Server) share(w http.ResponseWriter, r *http.Request) {
	t, sc, ok := s.loadTest(w, r)
	if !ok {
		return
	}
	var in sharingInput
	if !decode(w, r, &in) {
		return
	}
	var issues issueList
	if in.Visibility != "" && in.Visibility != store.Shared && in.Visibility != store.Private {
		issues.add("visibility", "enum", "visibility must be Shared or Private")
	}
	if in.OwnerID != "" {
		if _, role, err := s.store.ProjectRole(r.Context(), t.ProjectID, in.OwnerID); !ids.Valid(ids.User, in.OwnerID) || err != nil || role == "" {
			issues.add("ownerId", "unknown", "the new owner must be a member of the test's project")
		}
	}
	if in.Visibility == "" && in.OwnerID == "" {
		issues.add("", "required", "send visibility, ownerId or both")
	}
	if len(issues) > 0 {
		writeIssues(w, "the sharing change is not valid", issues)
		return
	}
	u, _ := currentUser(r)
	t, err := s.store.UpdateTest(r.Context(), t.ID, u.ID, s.Now(), func(cur store.Test, _ []byte) (store.TestChange, error) {
		can := canOnTest(sc, u.ID, cur)
		if in.Visibility != "" && in.Visibility != cur.Visibility && !can.Share {
			return store.TestChange{}, refuse(http.StatusForbidden, codeForbidden, "only the test's owner may change its visibility")
		}
		if in.OwnerID != "" && in.OwnerID != cur.OwnerID && !can.Transfer {
			return store.TestChange{}, refuse(http.StatusForbidden, codeForbidden, "only the owner, or a Test Manager or Admin for a shared test, may hand it over")
		}
		return store.TestChange{Visibility: in.Visibility, OwnerID: in.OwnerID}, nil
	})
	s.writeTestOutcome(w, r, t, sc, err, http.StatusOK)
}

type versionJSON struct {
	Version   int                `json:"version"`
	Status    string             `json:"status" enum:"Draft|Ready|Deprecated"`
	Steps     int                `json:"steps"`
	Author    *refJSON           `json:"author"`
	CreatedAt string             `json:"createdAt"`
	SavedAt   string             `json:"savedAt"`
	Note      string             `json:"note"`
	Current   bool               `json:"current"`
	Document  *protocol.Document `json:"document,omitempty"`
}

func toVersionJSON(v store.TestVersion, current int) versionJSON {
	return versionJSON{Version: v.Version, Status: v.Status, Steps: v.StepCount, Author: ref(v.AuthorID, v.AuthorName),
		CreatedAt: v.CreatedAt.UTC().Format(timeFormat), SavedAt: v.SavedAt.UTC().Format(timeFormat), Note: v.Note, Current: v.Version == current}
}

func (s *Server) listVersions(w http.ResponseWriter, r *http.Request) {
	t, _, ok := s.loadTest(w, r)
	if !ok {
		return
	}
	vs, err := s.store.TestVersions(r.Context(), t.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := make([]versionJSON, 0, len(vs))
	for _, v := range vs {
		out = append(out, toVersionJSON(v, t.Version))
	}
	writeJSON(w, http.StatusOK, map[string]any{"versions": out})
}

// loadVersion resolves /tests/{id}/versions/{version}.
func (s *Server) loadVersion(w http.ResponseWriter, r *http.Request) (store.Test, scope, store.TestVersion, protocol.Document, bool) {
	var v store.TestVersion
	var d protocol.Document
	t, sc, ok := s.loadTest(w, r)
	if !ok {
		return t, sc, v, d, false
	}
	n, err := strconv.Atoi(chi.URLParam(r, "version"))
	if err == nil && n > 0 {
		v, err = s.store.TestVersion(r.Context(), t.ID, n)
	} else {
		err = store.ErrNotFound
	}
	if err == nil {
		d, err = parseStored(v.Document)
	}
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, codeNotFound, "this test has no such version")
		return t, sc, v, d, false
	}
	if err != nil {
		s.internal(w, r, err)
		return t, sc, v, d, false
	}
	return t, sc, v, d, true
}

func (s *Server) getVersion(w http.ResponseWriter, r *http.Request) {
	t, _, v, d, ok := s.loadVersion(w, r)
	if !ok {
		return
	}
	out := toVersionJSON(v, t.Version)
	out.Document = &d
	writeJSON(w, http.StatusOK, out)
}

// restore adds a new Draft version holding an old version's document;
// history is never rewritten.
func (s *Server) restore(w http.ResponseWriter, r *http.Request) {
	t, sc, v, d, ok := s.loadVersion(w, r)
	if !ok {
		return
	}
	u, _ := currentUser(r)
	if issues, err := s.documentIssues(r.Context(), t.ProjectID, &d); err != nil {
		s.internal(w, r, err)
		return
	} else if len(issues) > 0 {
		invalidDocument(issues).write(w)
		return
	}
	t, err := s.store.UpdateTest(r.Context(), t.ID, u.ID, s.Now(), func(cur store.Test, _ []byte) (store.TestChange, error) {
		if !canOnTest(sc, u.ID, cur).Restore {
			msg := "you may not restore this test: Testers restore only their own tests"
			if cur.Status == store.Deprecated {
				msg = "only a Test Manager or Admin may restore a Deprecated test"
			}
			return store.TestChange{}, refuse(http.StatusForbidden, codeForbidden, msg)
		}
		note := fmt.Sprintf("restored from version %d", v.Version)
		return store.TestChange{Append: &store.VersionWrite{Content: content(d), Status: store.Draft, Note: note}}, nil
	})
	s.writeTestOutcome(w, r, t, sc, err, http.StatusCreated)
}

// registry serves the step types from protocol, the single source.
func (s *Server) registry(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"dslVersion":   protocol.DSLVersion,
		"stepTypes":    protocol.Registry(),
		"locatorKinds": protocol.LocatorKinds(),
		"devices":      protocol.Devices(), // the run option device's profiles
	})
}

// script renders a document, or a visible test's current version, as a
// Playwright Test script.
func (s *Server) script(w http.ResponseWriter, r *http.Request) {
	fields, ok := readObject(w, r)
	if !ok {
		return
	}
	device, ok := scriptDevice(w, fields)
	if !ok {
		return
	}
	var doc protocol.Document
	projectID := "" // whose components the script's calls render
	if raw, has := fields["testId"]; has {
		var id string
		_ = json.Unmarshal(raw, &id)
		t, _, ok := s.loadTestID(w, r, id)
		if !ok {
			return
		}
		var err error
		if doc, err = s.versionDocument(r.Context(), t.ID, t.Version); err != nil {
			s.internal(w, r, err)
			return
		}
		projectID = t.ProjectID
	} else {
		if doc, _, _, ok = documentFrom(w, fields); !ok {
			return
		}
		// A bare document's calls resolve in the project the header names,
		// when the caller is a member of it.
		if header := strings.TrimSpace(r.Header.Get(ProjectHeader)); ids.Valid(ids.Project, header) {
			_, role, err := s.projectRole(r, header)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				s.internal(w, r, err)
				return
			}
			if err == nil && role != "" {
				projectID = header
			}
		}
	}
	opts := protocol.PlaywrightOptions{Device: device}
	if projectID != "" {
		opts.Components = components.Playwright(r.Context(), s.store, projectID)
		opts.FileName = s.scriptFileNames(r.Context(), projectID)
	}
	script := protocol.RenderPlaywrightOptions(doc, opts)
	writeJSON(w, http.StatusOK, map[string]string{"language": "typescript", "script": script})
}
