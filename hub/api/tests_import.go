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
	var migratedFrom any
	skipped := []protocol.Skipped{}
	if protocol.IsSide(data) {
		var issues []protocol.Issue
		var sk []protocol.Skipped
		if docs, sk, issues = protocol.ImportSide(data); len(issues) > 0 {
			invalidDocument(issues).write(w)
			return
		}
		if len(docs) == 0 {
			writeIssues(w, "the Selenium IDE project has no tests", issueList{{Path: "tests", Code: "required", Message: "the project has no tests to import"}})
			return
		}
		migratedFrom = "side"
		skipped = append(skipped, sk...)
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
	tests := s.saveNewTests(w, r, sc, store.Shared, docs...)
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
