package api

import (
	"encoding/json"
	"net/http"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

type importedJSON struct {
	Test    testJSON `json:"test"`
	Version int      `json:"version"`
}

// importTests takes a DSL document of any supported version, or a Selenium
// IDE project (.side), and saves each test as Shared, owned by the caller.
// A .side command that cannot be imported is left out of its test and
// listed in skipped ({test, index, command, reason}); anything else invalid
// is answered as issues and nothing saved. With ?environmentId=, literal
// values equal to that environment's secrets become ${secrets.NAME}
// (secretsReplaced counts them; the values never appear in the answer).
// A .side test that another runs becomes a component too (see
// saveSideImport).
func (s *Server) importTests(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.AuthorTests) {
		return
	}
	fields, ok := readObject(w, r)
	if !ok {
		return
	}
	secrets, ok := s.importSecrets(w, r, sc)
	if !ok {
		return
	}
	data, _ := json.Marshal(fields)
	var docs []protocol.Document
	var called []protocol.SideComponent
	var migratedFrom any
	skipped := []protocol.Skipped{}
	if protocol.IsSide(data) {
		imp := protocol.ImportSideProject(data)
		if len(imp.Issues) > 0 {
			invalidDocument(imp.Issues).write(w)
			return
		}
		if len(imp.Docs) == 0 {
			writeIssues(w, "the Selenium IDE project has no tests", issueList{{Path: "tests", Code: "required", Message: "the project has no tests to import"}})
			return
		}
		docs, called = imp.Docs, imp.Components
		migratedFrom = "side"
		skipped = append(skipped, imp.Skipped...)
	} else {
		// An exported test may carry its old id: the import gets a new one.
		delete(fields, "id")
		data, _ = json.Marshal(fields)
		doc, from, issues := protocol.Parse(data)
		if len(issues) > 0 {
			invalidDocument(issues).write(w)
			return
		}
		docs = []protocol.Document{doc}
		if from != protocol.DSLVersion {
			migratedFrom = from
		}
	}
	replaced := replaceSecretLiterals(docs, secrets)
	var tests []store.Test
	if len(called) > 0 {
		replaced += replaceSecretLiterals(componentDocs(called), secrets)
		tests = s.saveSideImport(w, r, sc, docs, called)
	} else {
		tests = s.saveNewTests(w, r, sc, store.Shared, docs...)
	}
	if tests == nil {
		return
	}
	u, _ := currentUser(r)
	all := make([]importedJSON, len(tests))
	for i, t := range tests {
		tj := toTestJSON(t, canOnTest(sc, u.ID, t))
		tj.Document = &docs[i]
		all[i] = importedJSON{Test: tj, Version: t.Version}
	}
	writeJSON(w, http.StatusCreated, map[string]any{
		"test": all[0].Test, "version": all[0].Version, "migratedFrom": migratedFrom, "tests": all,
		"skipped": skipped, "secretsReplaced": replaced,
	})
}
