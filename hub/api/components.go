package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/components"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

const (
	kindComponent     = "cmp"
	componentNotFound = "no such component"
	maxComponentName  = 100
	maxComponentDesc  = 2000
)

type componentInputJSON struct {
	Name        string  `json:"name"`
	Default     *string `json:"default"`
	Description string  `json:"description"`
}

type componentSummaryJSON struct {
	ID            string               `json:"id"`
	Name          string               `json:"name"`
	Description   string               `json:"description"`
	LatestVersion int                  `json:"latestVersion"`
	Inputs        []componentInputJSON `json:"inputs"`
	Usages        int                  `json:"usages"`
	UpdatedAt     string               `json:"updatedAt"`
}

type componentVersionJSON struct {
	Version   int                  `json:"version"`
	Author    *refJSON             `json:"author"`
	CreatedAt string               `json:"createdAt"`
	Note      string               `json:"note"`
	Inputs    []componentInputJSON `json:"inputs"`
	Steps     []protocol.Step      `json:"steps"`
}

type componentUsageJSON struct {
	TestID           string `json:"testId"`
	TestName         string `json:"testName"`
	TestVersion      int    `json:"testVersion"`
	ComponentVersion int    `json:"componentVersion"`
	Current          bool   `json:"current"`
	Status           string `json:"status"`
}

type componentJSON struct {
	ID            string                 `json:"id"`
	ProjectID     string                 `json:"projectId"`
	Name          string                 `json:"name"`
	Description   string                 `json:"description"`
	LatestVersion int                    `json:"latestVersion"`
	Inputs        []componentInputJSON   `json:"inputs"`
	CreatedBy     *refJSON               `json:"createdBy"`
	CreatedAt     string                 `json:"createdAt"`
	UpdatedAt     string                 `json:"updatedAt"`
	Versions      []componentVersionJSON `json:"versions"`
	Usages        []componentUsageJSON   `json:"usages"`
}

func inputsJSON(in []store.ComponentInput) []componentInputJSON {
	out := make([]componentInputJSON, len(in))
	for i, x := range in {
		out[i] = componentInputJSON(x)
	}
	return out
}

func componentVersionOut(v store.ComponentVersion) (componentVersionJSON, error) {
	steps, err := components.Steps(v)
	if err != nil {
		return componentVersionJSON{}, err
	}
	if steps == nil {
		steps = []protocol.Step{}
	}
	return componentVersionJSON{Version: v.Version, Author: ref(v.AuthorID, v.AuthorName),
		CreatedAt: v.CreatedAt.UTC().Format(timeFormat), Note: v.Note, Inputs: inputsJSON(v.Inputs), Steps: steps}, nil
}

// loadComponent resolves /components/{id}: any member of its project sees
// it; p is what the route needs beyond seeing.
func (s *Server) loadComponent(w http.ResponseWriter, r *http.Request, p access.Permission) (store.Component, scope, bool) {
	id := chi.URLParam(r, "id")
	c, err := store.Component{}, store.ErrNotFound
	if ids.Valid(kindComponent, id) {
		c, err = s.store.Component(r.Context(), id)
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, r, err)
		return c, scope{}, false
	}
	if err != nil {
		writeError(w, http.StatusNotFound, codeNotFound, componentNotFound)
		return c, scope{}, false
	}
	sc, ok := s.recordScope(w, r, c.ProjectID, componentNotFound)
	if !ok {
		return c, sc, false
	}
	if !sc.can(access.ViewProject) {
		writeError(w, http.StatusNotFound, codeNotFound, componentNotFound)
		return c, sc, false
	}
	return c, sc, allow(w, sc, p)
}

func (s *Server) listComponents(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.ViewProject) {
		return
	}
	list, err := s.store.Components(r.Context(), sc.Project.ID, currentUserID(r))
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := make([]componentSummaryJSON, len(list))
	for i, c := range list {
		out[i] = componentSummaryJSON{ID: c.ID, Name: c.Name, Description: c.Description, LatestVersion: c.LatestVersion,
			Inputs: inputsJSON(c.Inputs), Usages: c.Usages, UpdatedAt: c.UpdatedAt.UTC().Format(timeFormat)}
	}
	writeJSON(w, http.StatusOK, map[string]any{"components": out})
}

// componentDetail is GET /api/components/:id's answer.
func (s *Server) componentDetail(ctx context.Context, c store.Component, userID string) (componentJSON, error) {
	out := componentJSON{ID: c.ID, ProjectID: c.ProjectID, Name: c.Name, Description: c.Description, LatestVersion: c.LatestVersion,
		Inputs: inputsJSON(c.Inputs), CreatedBy: ref(c.CreatedByID, c.CreatedByName),
		CreatedAt: c.CreatedAt.UTC().Format(timeFormat), UpdatedAt: c.UpdatedAt.UTC().Format(timeFormat),
		Versions: []componentVersionJSON{}, Usages: []componentUsageJSON{}}
	versions, err := s.store.ComponentVersions(ctx, c.ID)
	if err != nil {
		return out, err
	}
	for _, v := range versions {
		vj, err := componentVersionOut(v)
		if err != nil {
			return out, err
		}
		out.Versions = append(out.Versions, vj)
	}
	usages, err := s.store.ComponentUsages(ctx, c.ProjectID, c.ID, userID, false)
	if err != nil {
		return out, err
	}
	for _, u := range usages {
		out.Usages = append(out.Usages, componentUsageJSON(u))
	}
	return out, nil
}

func (s *Server) answerComponent(w http.ResponseWriter, r *http.Request, c store.Component, status int) {
	out, err := s.componentDetail(r.Context(), c, currentUserID(r))
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, status, out)
}

func (s *Server) getComponent(w http.ResponseWriter, r *http.Request) {
	if c, _, ok := s.loadComponent(w, r, access.ViewProject); ok {
		s.answerComponent(w, r, c, http.StatusOK)
	}
}

func checkComponentName(l *issueList, name string) {
	switch {
	case name == "":
		l.add("name", "required", "a component needs a name")
	case utf8.RuneCountInString(name) > maxComponentName:
		l.add("name", "too_long", "a component name is at most 100 characters")
	case !utf8.ValidString(name) || strings.IndexFunc(name, invisible) >= 0:
		l.add("name", "format", "a component name may not contain control characters")
	}
}

func checkComponentDescription(l *issueList, d string) {
	if utf8.RuneCountInString(d) > maxComponentDesc {
		l.add("description", "too_long", "a description is at most 2000 characters")
	} else if badText(d) {
		l.add("description", "format", "a description may not contain control characters other than line breaks and tabs")
	}
}

// badText reports text that is not valid UTF-8 or holds control or
// invisible characters other than line breaks and tabs.
func badText(s string) bool {
	return !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool {
		return r != '\n' && r != '\t' && r != '\r' && invisible(r)
	}) >= 0
}

// componentSteps parses steps as the steps of a document: the same rules
// as a test's, with paths "steps[i]...".
func componentSteps(raw json.RawMessage, name string) ([]protocol.Step, []protocol.Issue) {
	var probe []json.RawMessage
	if json.Unmarshal(raw, &probe) != nil {
		return nil, []protocol.Issue{{Path: "steps", Code: "type", Message: "steps must be an array of steps"}}
	}
	if len(probe) == 0 {
		return nil, []protocol.Issue{{Path: "steps", Code: "required", Message: "a component needs at least one step"}}
	}
	doc, _ := json.Marshal(map[string]any{"dsl": protocol.DSLVersion, "name": "component", "steps": raw})
	d, _, issues := protocol.Parse(doc)
	var out []protocol.Issue
	for _, is := range issues {
		if strings.HasPrefix(is.Path, "steps") {
			out = append(out, is)
		}
	}
	return d.Steps, out
}

// readInputs reads an optional inputs field.
func readComponentInputs(raw json.RawMessage, l *issueList) []store.ComponentInput {
	var in []componentInputJSON
	if err := json.Unmarshal(raw, &in); err != nil {
		l.add("inputs", "type", "inputs must be an array of {name, default?, description?}")
		return nil
	}
	out := make([]store.ComponentInput, len(in))
	for i, x := range in {
		out[i] = store.ComponentInput{Name: strings.TrimSpace(x.Name), Default: x.Default, Description: strings.TrimSpace(x.Description)}
	}
	for _, is := range components.CheckInputs(out) {
		*l = append(*l, Issue(is))
	}
	return out
}

func stringOf(raw json.RawMessage, key string, l *issueList) string {
	if raw == nil {
		return ""
	}
	var v string
	if json.Unmarshal(raw, &v) != nil {
		l.add(key, "type", key+" must be a string")
	}
	return strings.TrimSpace(v)
}

func (s *Server) createComponent(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.EditSharedTests) {
		return
	}
	fields, ok := readObject(w, r)
	if !ok {
		return
	}
	var issues issueList
	for k := range fields {
		switch k {
		case "name", "description", "testId", "stepIds", "steps", "inputs":
		default:
			issues.add(k, "unknown", fmt.Sprintf("%s is not a field of a component", clipText(k, 40)))
		}
	}
	name := stringOf(fields["name"], "name", &issues)
	checkComponentName(&issues, name)
	desc := stringOf(fields["description"], "description", &issues)
	checkComponentDescription(&issues, desc)
	var inputs []store.ComponentInput
	if raw, has := fields["inputs"]; has {
		inputs = readComponentInputs(raw, &issues)
	}
	_, fromTest := fields["testId"]
	_, scratch := fields["steps"]
	if fromTest == scratch {
		issues.add("steps", "required", "give either testId and stepIds (steps of a test) or steps")
	}
	if len(issues) > 0 {
		writeIssues(w, "the component is not valid", issues)
		return
	}
	if fromTest {
		s.componentFromTest(w, r, sc, fields, name, desc, inputs)
		return
	}
	steps, pis := componentSteps(fields["steps"], name)
	if len(pis) == 0 {
		var err error
		if pis, err = components.ResolveCalls(r.Context(), s.store, sc.Project.ID, steps, ""); err == nil && len(pis) == 0 {
			pis, err = s.fileIssues(r.Context(), sc.Project.ID, steps)
		}
		if err != nil {
			s.internal(w, r, err)
			return
		}
	}
	if len(pis) > 0 {
		invalidDocument(pis).write(w)
		return
	}
	s.saveComponent(w, r, sc, store.NewComponent{ID: ids.New(kindComponent), ProjectID: sc.Project.ID, Name: name,
		Description: desc, Steps: jsonBytes(steps), Inputs: inputs, UserID: currentUserID(r), Now: s.Now()}, nil)
}

func jsonBytes(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// componentFromTest makes version 1 from a contiguous range of a test's
// current steps; a Draft the caller may edit gets those steps replaced by
// one call in a new version.
func (s *Server) componentFromTest(w http.ResponseWriter, r *http.Request, sc scope, fields map[string]json.RawMessage, name, desc string, inputs []store.ComponentInput) {
	var issues issueList
	testID := stringOf(fields["testId"], "testId", &issues)
	var stepIDs []string
	if json.Unmarshal(fields["stepIds"], &stepIDs) != nil || len(stepIDs) == 0 {
		issues.add("stepIds", "required", "stepIds must list the ids of the steps to make into the component")
	}
	if len(issues) > 0 {
		writeIssues(w, "the component is not valid", issues)
		return
	}
	t, tsc, ok := s.loadTestID(w, r, testID)
	if !ok {
		return
	}
	if tsc.Project.ID != sc.Project.ID {
		writeError(w, http.StatusNotFound, codeNotFound, testNotFound)
		return
	}
	doc, err := s.versionDocument(r.Context(), t.ID, t.Version)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	first, last, msg := stepRange(doc.Steps, stepIDs)
	if msg != "" {
		writeIssues(w, "the steps cannot become a component", issueList{{Path: "stepIds", Code: "range", Message: msg}})
		return
	}
	steps := append([]protocol.Step(nil), doc.Steps[first:last+1]...)
	id := ids.New(kindComponent)
	u, _ := currentUser(r)
	replace := &store.ReplaceSteps{TestID: t.ID, Decide: func(cur store.Test, stored []byte) (*store.VersionWrite, error) {
		if !canOnTest(sc, u.ID, cur).Edit {
			return nil, nil // a Ready test, or someone else's: left alone
		}
		d, err := parseStored(stored)
		if err != nil {
			return nil, err
		}
		f, l, msg := stepRange(d.Steps, stepIDs)
		if msg != "" || cur.Version != t.Version {
			return nil, refuse(http.StatusConflict, "stale", "the test changed while the component was made; reload it and try again")
		}
		call := protocol.Step{ID: d.Steps[f].ID, Type: "callComponent", Component: id, Version: 1}
		if len(inputs) > 0 {
			call.Inputs = map[string]string{}
			for _, in := range inputs {
				if in.Default == nil {
					call.Inputs[in.Name] = ""
				}
			}
		}
		d.Steps = append(append(append([]protocol.Step(nil), d.Steps[:f]...), call), d.Steps[l+1:]...)
		note := fmt.Sprintf("steps %s–%s made into component %s", d.Steps[f].ID, stepIDs[len(stepIDs)-1], name)
		if len(stepIDs) == 1 {
			note = fmt.Sprintf("step %s made into component %s", stepIDs[0], name)
		}
		return &store.VersionWrite{Content: content(d), Status: cur.Status, Note: clipText(note, maxNote)}, nil
	}}
	s.saveComponent(w, r, sc, store.NewComponent{ID: id, ProjectID: sc.Project.ID, Name: name, Description: desc,
		Steps: jsonBytes(steps), Inputs: inputs, UserID: u.ID, Now: s.Now()}, replace)
}

// stepRange finds the listed step ids as one contiguous run of steps.
func stepRange(steps []protocol.Step, want []string) (first, last int, msg string) {
	pos := map[string]int{}
	for i, st := range steps {
		pos[st.ID] = i
	}
	first = -1
	for i, id := range want {
		p, ok := pos[id]
		switch {
		case !ok:
			return 0, 0, fmt.Sprintf("the test has no step %s", clipText(id, 64))
		case i == 0:
			first = p
		case p != first+i:
			return 0, 0, "the steps must be contiguous and in order: " + strings.Join(want, ", ")
		}
	}
	return first, first + len(want) - 1, ""
}

func (s *Server) saveComponent(w http.ResponseWriter, r *http.Request, sc scope, nc store.NewComponent, replace *store.ReplaceSteps) {
	c, changed, err := s.store.CreateComponent(r.Context(), nc, replace)
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		ae.write(w)
		return
	case errors.Is(err, store.ErrConflict):
		writeError(w, http.StatusConflict, "name_taken", "a component with this name exists in the project")
		return
	case err != nil:
		s.internal(w, r, err)
		return
	}
	detail, err := s.componentDetail(r.Context(), c, nc.UserID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := map[string]any{"component": detail, "test": nil}
	if changed != nil {
		out["test"] = map[string]any{"id": changed.ID, "version": changed.Version}
	}
	writeJSON(w, http.StatusCreated, out)
}

type componentUpdateInput struct {
	Name        *string `json:"name"`
	Description *string `json:"description"`
}

func (s *Server) updateComponent(w http.ResponseWriter, r *http.Request) {
	c, _, ok := s.loadComponent(w, r, access.EditSharedTests)
	if !ok {
		return
	}
	var in componentUpdateInput
	if !decode(w, r, &in) {
		return
	}
	var issues issueList
	name := ""
	if in.Name != nil {
		name = strings.TrimSpace(*in.Name)
		checkComponentName(&issues, name)
	}
	if in.Description != nil {
		d := strings.TrimSpace(*in.Description)
		in.Description = &d
		checkComponentDescription(&issues, d)
	}
	if len(issues) > 0 {
		writeIssues(w, "the component is not valid", issues)
		return
	}
	switch err := s.store.UpdateComponent(r.Context(), c.ID, name, in.Description, s.Now()); {
	case errors.Is(err, store.ErrConflict):
		writeError(w, http.StatusConflict, "name_taken", "a component with this name exists in the project")
		return
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, componentNotFound)
		return
	case err != nil:
		s.internal(w, r, err)
		return
	}
	c, err := s.store.Component(r.Context(), c.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.answerComponent(w, r, c, http.StatusOK)
}

func (s *Server) deleteComponent(w http.ResponseWriter, r *http.Request) {
	c, _, ok := s.loadComponent(w, r, access.EditSharedTests)
	if !ok {
		return
	}
	switch err := s.store.DeleteComponent(r.Context(), c.ID); {
	case errors.Is(err, store.ErrInUse):
		tests, comps, lerr := s.store.ComponentCallers(r.Context(), c.ID)
		if lerr != nil {
			s.internal(w, r, lerr)
			return
		}
		var who []string
		if len(tests) > 0 {
			who = append(who, fmt.Sprintf("%d test(s)", len(tests)))
		}
		if len(comps) > 0 {
			who = append(who, "component(s) "+strings.Join(comps, ", "))
		}
		writeError(w, http.StatusConflict, "component_in_use",
			fmt.Sprintf("component %s is still called by %s: change their current versions first", c.Name, strings.Join(who, " and ")))
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, componentNotFound)
	case err != nil:
		s.internal(w, r, err)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

func (s *Server) publishComponent(w http.ResponseWriter, r *http.Request) {
	c, sc, ok := s.loadComponent(w, r, access.EditSharedTests)
	if !ok {
		return
	}
	fields, ok := readObject(w, r)
	if !ok {
		return
	}
	var issues issueList
	for k := range fields {
		if k != "steps" && k != "inputs" && k != "note" {
			issues.add(k, "unknown", fmt.Sprintf("%s is not a field of a component version", clipText(k, 40)))
		}
	}
	inputs := c.Inputs
	if raw, has := fields["inputs"]; has {
		inputs = readComponentInputs(raw, &issues)
	}
	note := checkNote(&issues, "note", stringOf(fields["note"], "note", &issues))
	if _, has := fields["steps"]; !has {
		issues.add("steps", "required", "a version needs its steps")
	}
	if len(issues) > 0 {
		writeIssues(w, "the component version is not valid", issues)
		return
	}
	steps, pis := componentSteps(fields["steps"], c.Name)
	if len(pis) == 0 {
		var err error
		if pis, err = components.ResolveCalls(r.Context(), s.store, sc.Project.ID, steps, c.ID); err == nil && len(pis) == 0 {
			pis, err = s.fileIssues(r.Context(), sc.Project.ID, steps)
		}
		if err != nil {
			s.internal(w, r, err)
			return
		}
	}
	if len(pis) > 0 {
		invalidDocument(pis).write(w)
		return
	}
	n, err := s.store.PublishComponentVersion(r.Context(), c.ID, jsonBytes(steps), inputs, note, currentUserID(r), s.Now())
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, codeNotFound, componentNotFound)
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.answerComponentVersion(w, r, c, n, http.StatusCreated)
}

func (s *Server) answerComponentVersion(w http.ResponseWriter, r *http.Request, c store.Component, n, status int) {
	v, err := s.store.ComponentVersion(r.Context(), c.ProjectID, c.ID, n)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, codeNotFound, "no such version of this component")
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	vj, err := componentVersionOut(v)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, status, vj)
}

func (s *Server) getComponentVersion(w http.ResponseWriter, r *http.Request) {
	c, _, ok := s.loadComponent(w, r, access.ViewProject)
	if !ok {
		return
	}
	n, err := strconv.Atoi(chi.URLParam(r, "version"))
	if err != nil || n < 1 {
		writeError(w, http.StatusNotFound, codeNotFound, "no such version of this component")
		return
	}
	s.answerComponentVersion(w, r, c, n, http.StatusOK)
}

type callerJSON struct {
	TestID        string              `json:"testId"`
	TestName      string              `json:"testName"`
	Status        string              `json:"status"`
	TestVersion   int                 `json:"testVersion"`
	PinnedVersion int                 `json:"pinnedVersion"`
	AddsVersion   bool                `json:"addsVersion"`
	MayUpgrade    bool                `json:"mayUpgrade"`
	Reason        string              `json:"reason,omitempty"`
	Diff          []components.Change `json:"diff"`
}

// mayUpgrade decides whether the caller may upgrade a test's calls, and
// says why not.
func mayUpgrade(sc scope, userID string, t store.Test) (bool, string) {
	can := canOnTest(sc, userID, t)
	switch {
	case t.Status == store.Deprecated:
		return false, "the test is Deprecated"
	case t.Status == store.Ready && !sc.can(access.ManageTests):
		return false, "the test is Ready: only a Test Manager or Admin may upgrade it"
	case t.Status == store.Draft && !can.Edit:
		return false, "you may not edit this test"
	}
	return true, ""
}

func (s *Server) componentImpact(w http.ResponseWriter, r *http.Request) {
	c, sc, ok := s.loadComponent(w, r, access.ViewProject)
	if !ok {
		return
	}
	ctx := r.Context()
	u, _ := currentUser(r)
	usages, err := s.store.ComponentUsages(ctx, c.ProjectID, c.ID, u.ID, true)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	latest, err := s.store.ComponentVersion(ctx, c.ProjectID, c.ID, c.LatestVersion)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	latestSteps, err := components.Steps(latest)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	diffs := map[int][]components.Change{}
	callers := []callerJSON{}
	seen := map[string]int{}
	for _, us := range usages {
		if i, dup := seen[us.TestID]; dup { // a test calling it at several versions: the oldest counts
			if us.ComponentVersion < callers[i].PinnedVersion {
				callers[i].PinnedVersion = us.ComponentVersion
			} else {
				continue
			}
		} else {
			t, err := s.store.Test(ctx, us.TestID)
			if err != nil {
				s.internal(w, r, err)
				return
			}
			may, why := mayUpgrade(sc, u.ID, t)
			seen[us.TestID] = len(callers)
			callers = append(callers, callerJSON{TestID: t.ID, TestName: t.Name, Status: t.Status, TestVersion: t.Version,
				PinnedVersion: us.ComponentVersion, MayUpgrade: may, Reason: why})
		}
		i := seen[us.TestID]
		pinned := callers[i].PinnedVersion
		d, ok := diffs[pinned]
		if !ok {
			old, err := s.store.ComponentVersion(ctx, c.ProjectID, c.ID, pinned)
			if err != nil {
				s.internal(w, r, err)
				return
			}
			oldSteps, err := components.Steps(old)
			if err != nil {
				s.internal(w, r, err)
				return
			}
			d = components.Diff(oldSteps, latestSteps)
			diffs[pinned] = d
		}
		callers[i].Diff = d
		callers[i].AddsVersion = pinned != c.LatestVersion
	}
	writeJSON(w, http.StatusOK, map[string]any{"latestVersion": c.LatestVersion, "callers": callers})
}

type upgradeResultJSON struct {
	TestID  string `json:"testId"`
	Status  string `json:"status"` // upgraded, unchanged, refused, not_found
	Version int    `json:"version,omitempty"`
	Error   string `json:"error,omitempty"`
}

const maxUpgrade = 500

type upgradeInput struct {
	TestIDs []string `json:"testIds"`
}

func (s *Server) upgradeComponent(w http.ResponseWriter, r *http.Request) {
	c, sc, ok := s.loadComponent(w, r, access.EditSharedTests)
	if !ok {
		return
	}
	var in upgradeInput
	if !decode(w, r, &in) {
		return
	}
	var issues issueList
	if len(in.TestIDs) == 0 || len(in.TestIDs) > maxUpgrade {
		issues.add("testIds", "required", "testIds must list 1 to 500 tests")
	}
	for i, id := range in.TestIDs {
		if !ids.Valid(ids.Test, id) {
			issues.add(fmt.Sprintf("testIds[%d]", i), "format", "a test id looks like tc_...")
		}
	}
	if len(issues) > 0 {
		writeIssues(w, "the upgrade is not valid", issues)
		return
	}
	u, _ := currentUser(r)
	results := make([]upgradeResultJSON, 0, len(in.TestIDs))
	for _, id := range in.TestIDs {
		results = append(results, s.upgradeOne(r, sc, c, u.ID, id))
	}
	writeJSON(w, http.StatusOK, map[string]any{"results": results})
}

func (s *Server) upgradeOne(r *http.Request, sc scope, c store.Component, userID, testID string) upgradeResultJSON {
	res := upgradeResultJSON{TestID: testID, Status: "not_found", Error: testNotFound}
	if !ids.Valid(ids.Test, testID) {
		return res
	}
	ctx := r.Context()
	t, err := s.store.Test(ctx, testID)
	if err != nil || t.ProjectID != c.ProjectID || t.Visibility == store.Private && t.OwnerID != userID {
		return res
	}
	var from int
	t, err = s.store.UpdateTest(ctx, testID, userID, s.Now(), func(cur store.Test, stored []byte) (store.TestChange, error) {
		if ok, why := mayUpgrade(sc, userID, cur); !ok {
			return store.TestChange{}, refuse(http.StatusForbidden, codeForbidden, why)
		}
		d, err := parseStored(stored)
		if err != nil {
			return store.TestChange{}, err
		}
		changed := false
		// Calls inside blocks are upgraded too (docs/flow.md).
		protocol.WalkSteps(d.Steps, func(_ string, _ int, st *protocol.Step) bool {
			if st.Type == "callComponent" && st.Component == c.ID && st.Version != c.LatestVersion {
				if from == 0 || st.Version < from {
					from = st.Version
				}
				st.Version = c.LatestVersion
				changed = true
			}
			return true
		})
		if !changed {
			return store.TestChange{}, errUnchanged
		}
		issues, err := components.ResolveCalls(ctx, s.store, c.ProjectID, d.Steps, "")
		if err != nil {
			return store.TestChange{}, err
		}
		if len(issues) > 0 {
			return store.TestChange{}, refuse(http.StatusUnprocessableEntity, codeInvalid, "after the upgrade: "+issues[0].Message)
		}
		note := fmt.Sprintf("component %s upgraded from v%d to v%d", c.Name, from, c.LatestVersion)
		return store.TestChange{Append: &store.VersionWrite{Content: content(d), Status: cur.Status, Note: clipText(note, maxNote)}}, nil
	})
	var ae *apiError
	switch {
	case errors.Is(err, errUnchanged):
		return upgradeResultJSON{TestID: testID, Status: "unchanged"}
	case errors.As(err, &ae):
		return upgradeResultJSON{TestID: testID, Status: "refused", Error: ae.msg}
	case err != nil:
		s.log.Error("component upgrade", "test", testID, "err", err)
		return upgradeResultJSON{TestID: testID, Status: "refused", Error: "the test could not be saved; try again"}
	}
	return upgradeResultJSON{TestID: testID, Status: "upgraded", Version: t.Version}
}

var errUnchanged = errors.New("unchanged")

// resolveCalls checks and pins a document's component calls for saving.
func (s *Server) resolveCalls(ctx context.Context, projectID string, doc *protocol.Document) ([]protocol.Issue, error) {
	return components.ResolveCalls(ctx, s.store, projectID, doc.Steps, "")
}

// documentIssues checks what saving a document needs the project for, its
// component calls (pinning them, see resolveCalls) and its data binding.
func (s *Server) documentIssues(ctx context.Context, projectID string, doc *protocol.Document) ([]protocol.Issue, error) {
	return s.documentIssuesFrom(ctx, s.store, projectID, doc)
}

// documentIssuesFrom is documentIssues reading components from src.
func (s *Server) documentIssuesFrom(ctx context.Context, src components.Source, projectID string, doc *protocol.Document) ([]protocol.Issue, error) {
	issues, err := components.ResolveCalls(ctx, src, projectID, doc.Steps, "")
	if err != nil {
		return nil, err
	}
	more, err := s.dataBindingIssues(ctx, projectID, *doc)
	if err != nil {
		return nil, err
	}
	files, err := s.fileIssues(ctx, projectID, doc.Steps)
	return append(append(issues, more...), files...), err
}
