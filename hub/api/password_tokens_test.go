package api

import (
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
)

// A password reset (account recovery) revokes every API token of the
// account and disconnects its CI agents within a second.
func TestPasswordResetRevokesTokens(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev := o.members[access.TestDeveloper]
	_, token := dev.newToken(t, map[string]any{"name": "pipeline"})
	_, scoped := dev.newToken(t, map[string]any{"name": "shop", "projectId": o.project})
	a := h.joinCI(t, token, "")
	_, othersToken := o.owner.newToken(t, map[string]any{"name": "owner's"})
	b := h.joinCI(t, othersToken, "")

	email := dev.email()
	h.client().do("POST", "/api/auth/forgot", map[string]string{"email": email}).want(t, 204)
	h.api.Wait()
	m := resetLink.FindStringSubmatch(h.logs.String())
	if m == nil {
		t.Fatal("no reset link in the log")
	}
	link := m[2][strings.Index(m[2], "token=")+len("token="):]
	h.client().do("POST", "/api/auth/reset", map[string]string{"token": link, "password": "recovered at last"}).want(t, 204)
	a.endedWithin(t, time.Now(), time.Second)
	for _, tok := range []string{token, scoped} {
		wantCode(t, h.bearer(tok).do("GET", "/api/context", nil), 401, codeTokenRevoked)
	}
	back := h.client()
	back.do("POST", "/api/auth/login", map[string]string{"email": email, "password": "recovered at last"}).want(t, 200)
	for _, tk := range listTokens(t, back) {
		if tk["revokedAt"] == nil {
			t.Errorf("token %v not revoked by the reset", tk["name"])
		}
	}
	b.stillConnected(t, h)
	h.bearer(othersToken).do("GET", "/api/context", nil).want(t, 200)
}

// A plain password change keeps the API tokens and CI agents; with
// revokeTokens it revokes them and disconnects the CI agents within a
// second. A revokeTokens that is not a boolean is refused, changing
// nothing.
func TestPasswordChangeRevokeTokensOption(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev := o.members[access.TestDeveloper]
	_, token := dev.newToken(t, map[string]any{"name": "pipeline"})
	a := h.joinCI(t, token, "")

	r := dev.do("POST", "/api/auth/password", map[string]any{"currentPassword": "correct horse battery", "newPassword": "second password", "revokeTokens": "yes"}).want(t, 422)
	if !strings.Contains(string(r.body), "revokeTokens") {
		t.Errorf("issue: %s", r.body)
	}
	dev.do("POST", "/api/auth/password", map[string]any{"currentPassword": "second password", "newPassword": "third password"}).want(t, 422) // unchanged

	dev.do("POST", "/api/auth/password", map[string]any{"currentPassword": "correct horse battery", "newPassword": "second password"}).want(t, 204)
	settle()
	a.stillConnected(t, h)
	h.bearer(token).do("GET", "/api/context", nil).want(t, 200)

	dev.do("POST", "/api/auth/password", map[string]any{"currentPassword": "second password", "newPassword": "third password", "revokeTokens": true}).want(t, 204)
	a.endedWithin(t, time.Now(), time.Second)
	wantCode(t, h.bearer(token).do("GET", "/api/context", nil), 401, codeTokenRevoked)
	dev.do("GET", "/api/context", nil).want(t, 200) // this session stays
}
