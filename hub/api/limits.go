package api

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/testautomation/ta/hub/store"
)

// Limits on the public requests that make something (an account, a reset
// link), beside the sign-in limit (auth.go). Like it they are counted in
// PostgreSQL, so several hubs share them, and by the client address
// (clientAddress). Only requests that pass validation are counted: a typo
// in a form costs nothing.
//
//   - Registration: RegisterPerAddress accounts per address per hour; more
//     answer 429. Registration is open, so without it one address could make
//     any number of accounts.
//   - Reset links: ResetPerAddress requests per address per 15 minutes
//     (more answer 429: this counts every request whatever the email, so it
//     tells nothing about which emails have accounts), and ResetPerEmail
//     links per account per hour. Over the per-email limit the answer stays
//     204, as for every email, but no link is written: a 429 there would
//     tell that the email has an account (and was asked for recently).
const (
	registerWindow     = time.Hour
	resetAddressWindow = 15 * time.Minute
	resetEmailWindow   = time.Hour
)

func (s *Server) registerLimit() store.RequestLimit {
	return store.RequestLimit{Kind: "register-address", Max: s.RegisterPerAddress, Window: registerWindow}
}

func (s *Server) resetAddressLimit() store.RequestLimit {
	return store.RequestLimit{Kind: "reset-address", Max: s.ResetPerAddress, Window: resetAddressWindow}
}

func (s *Server) resetEmailLimit() store.RequestLimit {
	return store.RequestLimit{Kind: "reset-email", Max: s.ResetPerEmail, Window: resetEmailWindow}
}

// takeRequest counts the request under lim for the caller's address; over
// the limit it answers 429 with Retry-After and msg, and false.
func (s *Server) takeRequest(w http.ResponseWriter, r *http.Request, lim store.RequestLimit, msg string) bool {
	wait, err := s.store.TakeRequest(r.Context(), lim, clientAddress(r), s.Now())
	if err != nil {
		s.internal(w, r, err)
		return false
	}
	if wait > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
		writeError(w, http.StatusTooManyRequests, codeTooMany, msg)
		return false
	}
	return true
}
