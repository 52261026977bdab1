package api

import (
	"testing"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// TestScriptVarsSecretsReachTheRun (issue 26, finding 11): a script step
// reading a secret as vars.secrets.NAME, as the README says, gets it: the
// run is sent that secret (and no other), and the code that runs is the
// code that was saved.
func TestScriptVarsSecretsReachTheRun(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	env := mgr.projectDo(o.project, "POST", "/api/environments", obj{"name": "Staging",
		"secrets": obj{"PASSWORD": "hunter2-pw", "OTHER": "other-value"}}).want(t, 201).str("id")
	a := h.rawAgent(t, mgr, "")
	code := "if (vars.secrets.PASSWORD !== 'hunter2-pw') throw new Error('no secret'); return 1"
	id := mgr.createTest(t, o.project, obj{"name": "Reads a secret", "steps": []any{obj{"id": "s1", "type": "script", "code": code}}})
	mgr.projectDo(o.project, "POST", "/api/runs", obj{"testId": id, "environmentId": env}).want(t, 201)
	job := a.assigned()
	if job.Secrets["PASSWORD"] != "hunter2-pw" || len(job.Secrets) != 1 {
		t.Errorf("the run got secrets %v; want PASSWORD alone", job.Secrets)
	}
	want, _ := protocol.ScriptSource(code)
	if got, _ := protocol.ScriptSource(job.Document.Steps[0].Code); got != want {
		t.Errorf("the code that runs is\n%s\nnot\n%s", got, want)
	}
}
