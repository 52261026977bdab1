package api

import (
	"bytes"
	"net/http"
	"net/mail"
	"testing"
	"unicode/utf8"
)

// FuzzAuthBodies feeds arbitrary bytes to the JSON decoding and validation
// of the auth endpoints' bodies: it must never panic, and must answer either
// a usable value or a 400/413/422 with the standard error body.
func FuzzAuthBodies(f *testing.F) {
	for _, seed := range []string{
		`{"name":"Ann","email":"ann@example.com","password":"correct horse battery"}`,
		`{"email":"ann@example.com","password":"x"}`,
		`{"token":"abc","password":"0123456789"}`,
		`{"currentPassword":"a","newPassword":"b"}`,
		`{"name":5}`, `[]`, `null`, `{`, ``, `{"email":"A <a@b.c>"}`, `{"name":"\u0000"}`, `{} {}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		check := func(status int, eb errorBody) bool {
			switch status {
			case 0:
				return true
			case http.StatusBadRequest, http.StatusRequestEntityTooLarge:
			case http.StatusUnprocessableEntity:
				if len(eb.Issues) == 0 {
					t.Fatalf("422 without issues for %q", body)
				}
			default:
				t.Fatalf("status %d for %q", status, body)
			}
			if eb.Error == "" || eb.Code == "" {
				t.Fatalf("error body without error/code for %q: %+v", body, eb)
			}
			return false
		}
		var reg registration
		if check(decodeBody(bytes.NewReader(body), &reg)) {
			if issues := reg.validate(); len(issues) == 0 {
				if _, err := mail.ParseAddress(reg.Email); err != nil || reg.Name == "" || utf8.RuneCountInString(reg.Password) < minPassword {
					t.Fatalf("accepted an invalid registration %+v", reg)
				}
			}
		}
		var cred credentials
		check(decodeBody(bytes.NewReader(body), &cred))
		var reset struct {
			Token    string `json:"token"`
			Password string `json:"password"`
		}
		check(decodeBody(bytes.NewReader(body), &reset))
		var pw struct {
			CurrentPassword string `json:"currentPassword"`
			NewPassword     string `json:"newPassword"`
		}
		check(decodeBody(bytes.NewReader(body), &pw))
	})
}
