package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/components"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// componentDocs wraps components' steps as documents, for what works on
// documents (replaceSecretLiterals): the steps are shared, not copied.
func componentDocs(cs []protocol.SideComponent) []protocol.Document {
	out := make([]protocol.Document, len(cs))
	for i, c := range cs {
		out[i] = protocol.Document{Steps: c.Steps}
	}
	return out
}

// saveSideImport saves a .side project whose tests run others
// (docs/flow.md ".side import"): each called test becomes a component of
// the project, once, named after the test (with " (2)" and so on when the
// project has the name already), and the calls name it. Creating
// components needs the permission to manage them; components and tests
// are saved in one transaction, so a refusal saves nothing. nil when an
// answer was written.
func (s *Server) saveSideImport(w http.ResponseWriter, r *http.Request, sc scope, docs []protocol.Document, called []protocol.SideComponent) []store.Test {
	if !sc.can(access.EditSharedTests) {
		names := make([]string, len(called))
		for i, c := range called {
			names[i] = c.Name
		}
		writeError(w, http.StatusForbidden, codeForbidden, fmt.Sprintf(
			"your role in this project (%s) cannot create components, and the project's run commands make the tests they run (%s) components: ask a test developer to import it",
			sc.Role, clipText(strings.Join(names, ", "), 200)))
		return nil
	}
	ctx := r.Context()
	uid := currentUserID(r)
	existing, err := s.store.Components(ctx, sc.Project.ID, uid)
	if err != nil {
		s.internal(w, r, err)
		return nil
	}
	taken := map[string]bool{}
	for _, c := range existing {
		taken[strings.ToLower(c.Name)] = true
	}
	rename := map[string]string{}
	imp := protocol.SideImport{Docs: docs, Components: called}
	for i := range called {
		rename[called[i].ID] = ids.New(kindComponent)
		called[i].Name = freeName(called[i].Name, taken)
	}
	imp.RenameComponents(rename)
	now := s.Now()
	pending := pendingComponents{Source: s.store, projectID: sc.Project.ID, versions: map[string]store.ComponentVersion{}}
	ncs := make([]store.NewComponent, len(called))
	for i, c := range called {
		ncs[i] = store.NewComponent{ID: c.ID, ProjectID: sc.Project.ID, Name: c.Name,
			Description: "Imported from a Selenium IDE project: the test " + c.Name + ", which other tests run.",
			Steps:       jsonBytes(nonNilSteps(c.Steps)), UserID: uid, Now: now}
		pending.versions[c.ID] = store.ComponentVersion{ComponentID: c.ID, Name: c.Name, Version: 1, Steps: ncs[i].Steps}
	}
	// The checks of a save, with the new components as if they were there.
	if !s.docsValid(w, r, pending, sc.Project.ID, docs) {
		return nil
	}
	u, _ := currentUser(r)
	nts := make([]store.NewTest, len(docs))
	for i, d := range docs {
		nts[i] = store.NewTest{ID: ids.New(ids.Test), ProjectID: sc.Project.ID, OwnerID: u.ID, Visibility: store.Shared, Content: content(d), Now: now}
	}
	tests, err := s.store.CreateTestsWithComponents(ctx, ncs, nts...)
	switch {
	case errors.Is(err, store.ErrConflict):
		writeError(w, http.StatusConflict, "name_taken", "a component with the name of a called test was created meanwhile; import again")
		return nil
	case err != nil:
		s.internal(w, r, err)
		return nil
	}
	return tests
}

func nonNilSteps(s []protocol.Step) []protocol.Step {
	if s == nil {
		return []protocol.Step{}
	}
	return s
}

// freeName is name, or "name (2)", "name (3)"... the first the project
// does not have (names are unique case-insensitively), within a
// component name's length; it is marked taken.
func freeName(name string, taken map[string]bool) string {
	base := name
	if utf8.RuneCountInString(base) > maxComponentName-6 {
		base = strings.TrimSpace(string([]rune(base)[:maxComponentName-6]))
	}
	out := base
	for n := 2; taken[strings.ToLower(out)]; n++ {
		out = fmt.Sprintf("%s (%d)", base, n)
	}
	taken[strings.ToLower(out)] = true
	return out
}

// pendingComponents reads the components an import is about to create as
// if they were saved, the project's others from the store.
type pendingComponents struct {
	components.Source
	projectID string
	versions  map[string]store.ComponentVersion
}

func (p pendingComponents) ComponentVersion(ctx context.Context, projectID, id string, version int) (store.ComponentVersion, error) {
	if v, ok := p.versions[id]; ok {
		if projectID != p.projectID || version > 1 {
			return store.ComponentVersion{}, store.ErrNotFound
		}
		return v, nil
	}
	return p.Source.ComponentVersion(ctx, projectID, id, version)
}
