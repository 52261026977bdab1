package api

import (
	"context"
	"errors"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/testautomation/ta/hub/auth"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

// userJSON is an account as the API shows it.
type userJSON struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	Email         string `json:"email"`
	PlatformAdmin bool   `json:"platformAdmin"`
	CreatedAt     string `json:"createdAt"`
}

func toUserJSON(u store.User) userJSON {
	return userJSON{ID: u.ID, Name: u.Name, Email: u.Email, PlatformAdmin: u.PlatformAdmin, CreatedAt: u.CreatedAt.UTC().Format(timeFormat)}
}

const timeFormat = "2006-01-02T15:04:05.000Z07:00"

type credentials struct {
	Email    string `json:"email" openapi:"required"`
	Password string `json:"password" openapi:"required"`
}

func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// beginAttempt applies the sign-in limit: it answers 429 with Retry-After
// when the email or the address has too many recent failures, and otherwise
// counts this attempt as a failure until succeeded takes it back.
func (s *Server) beginAttempt(w http.ResponseWriter, r *http.Request, email string) (attempt int64, ok bool) {
	attempt, wait, err := s.store.BeginLogin(r.Context(), email, clientAddress(r), s.Now(), store.LoginLimit{
		Window: s.LoginWindow, PerEmail: s.LoginPerEmail, PerAddress: s.LoginPerAddress,
	})
	if err != nil {
		s.internal(w, r, err)
		return 0, false
	}
	if wait > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
		writeError(w, http.StatusTooManyRequests, codeTooMany, "too many failed sign-in attempts; try again later")
		return 0, false
	}
	return attempt, true
}

// checkPassword verifies a password for an email (normalised), spending
// the same work when the account does not exist.
func (s *Server) checkPassword(r *http.Request, email, password string) (store.User, bool, error) {
	u, err := s.store.UserByEmail(r.Context(), email)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return store.User{}, false, err
	}
	hash := s.dummyHash
	if err == nil {
		hash = u.PasswordHash
	}
	ok, verr := s.verifyPassword(r.Context(), password, hash)
	if verr != nil && r.Context().Err() == nil {
		s.log.Error("unreadable password hash", "user", u.ID, "err", verr)
	}
	return u, ok && err == nil, nil
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	var in credentials
	if !decode(w, r, &in) {
		return
	}
	email := normEmail(in.Email)
	var issues issueList
	issues.email("email", email)
	if in.Password == "" {
		issues.add("password", "required", "password is required")
	}
	if len(issues) > 0 {
		writeIssues(w, "sign-in needs an email and a password", issues)
		return
	}
	attempt, ok := s.beginAttempt(w, r, email)
	if !ok {
		return
	}
	u, ok, err := s.checkPassword(r, email, in.Password)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if !ok {
		writeError(w, http.StatusUnauthorized, "invalid_credentials", "email or password is incorrect")
		return
	}
	if err := s.store.LoginSucceeded(r.Context(), attempt, email); err != nil {
		s.internal(w, r, err)
		return
	}
	if s.Hasher.NeedsRehash(u.PasswordHash) {
		if h, err := s.hashPassword(r.Context(), in.Password); err == nil {
			if err := s.store.SetPassword(r.Context(), u.ID, h); err != nil {
				s.log.Warn("rehash password", "user", u.ID, "err", err)
			}
		}
	}
	if err := s.startSession(w, r, u.ID); err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toUserJSON(u))
}

// logout ends the caller's session, and with it that session's event
// streams (streams.go); the user's other sessions go on.
func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if err := s.store.DeleteSession(r.Context(), currentSession(r)); err != nil {
		s.internal(w, r, err)
		return
	}
	s.accessChanged()
	s.clearCookie(w, r)
	w.WriteHeader(http.StatusNoContent)
}

// session answers the signed-in user, or null.
func (s *Server) session(w http.ResponseWriter, r *http.Request) {
	u, ok := currentUser(r)
	if !ok {
		writeJSON(w, http.StatusOK, nil)
		return
	}
	writeJSON(w, http.StatusOK, toUserJSON(u))
}

type registration struct {
	Name     string `json:"name" openapi:"required"`
	Email    string `json:"email" openapi:"required"`
	Password string `json:"password" openapi:"required"`
}

func (in *registration) validate() issueList {
	in.Name = strings.TrimSpace(in.Name)
	in.Email = normEmail(in.Email)
	var issues issueList
	issues.name("name", in.Name)
	issues.email("email", in.Email)
	issues.password("password", in.Password)
	return issues
}

// newAccount validates and creates an account, answering the error itself.
func (s *Server) newAccount(w http.ResponseWriter, r *http.Request, in registration, platformAdmin bool) (store.User, bool) {
	if issues := in.validate(); len(issues) > 0 {
		writeIssues(w, "the account details are not valid", issues)
		return store.User{}, false
	}
	// A taken email is refused before the costly hash.
	_, err := s.store.UserByEmail(r.Context(), in.Email)
	if err == nil {
		err = store.ErrConflict
	} else if errors.Is(err, store.ErrNotFound) {
		err = nil
	}
	var hash string
	if err == nil {
		hash, err = s.hashPassword(r.Context(), in.Password)
	}
	var u store.User
	if err == nil {
		u, err = s.store.CreateUser(r.Context(), store.NewUser{
			ID: ids.New(ids.User), Email: in.Email, Name: in.Name, PasswordHash: hash,
			PlatformAdmin: platformAdmin, AdminIfFirst: true,
		})
	}
	if errors.Is(err, store.ErrConflict) {
		writeError(w, http.StatusConflict, "email_taken", "an account with this email already exists")
		return store.User{}, false
	}
	if err != nil {
		s.internal(w, r, err)
		return store.User{}, false
	}
	return u, true
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	var in registration
	if !decode(w, r, &in) {
		return
	}
	if issues := in.validate(); len(issues) > 0 {
		writeIssues(w, "the account details are not valid", issues)
		return
	}
	if !s.takeRequest(w, r, s.registerLimit(), "too many accounts were registered from this address; try again later") {
		return
	}
	u, ok := s.newAccount(w, r, in, false)
	if !ok {
		return
	}
	s.log.Info("account registered", "user", u.ID, "platformAdmin", u.PlatformAdmin)
	if err := s.startSession(w, r, u.ID); err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, toUserJSON(u))
}

type forgotInput struct {
	Email string `json:"email"`
}

// forgot answers 204 whatever the email, so it tells nobody which emails
// have accounts; for a real account it prints a reset link to the hub's
// log. Too many requests from one address answer 429; too many links for
// one account answer 204 and write none (limits.go says why).
func (s *Server) forgot(w http.ResponseWriter, r *http.Request) {
	var in forgotInput
	if !decode(w, r, &in) {
		return
	}
	email := normEmail(in.Email)
	var issues issueList
	issues.email("email", email)
	if len(issues) > 0 {
		writeIssues(w, "the email is not valid", issues)
		return
	}
	if !s.takeRequest(w, r, s.resetAddressLimit(), "too many password reset requests from this address; try again later") {
		return
	}
	// The work for a real account happens after the answer, so the answer
	// takes as long whether or not the email has an account.
	ctx := context.WithoutCancel(r.Context())
	s.background.Add(1)
	go func() {
		defer s.background.Done()
		s.sendResetLink(ctx, email)
	}()
	w.WriteHeader(http.StatusNoContent)
}

// sendResetLink prints a reset link for the account with this email, if any.
func (s *Server) sendResetLink(ctx context.Context, email string) {
	u, err := s.store.UserByEmail(ctx, email)
	if errors.Is(err, store.ErrNotFound) {
		return
	}
	var wait time.Duration
	if err == nil {
		wait, err = s.store.TakeRequest(ctx, s.resetEmailLimit(), u.ID, s.Now())
	}
	if err == nil && wait > 0 {
		s.log.Warn("password reset link for "+u.Email+" not written: "+strconv.Itoa(s.ResetPerEmail)+" were written within the hour", "user", u.ID)
		return
	}
	token, digest := auth.NewToken()
	now := s.Now()
	if err == nil {
		err = s.store.CreateReset(ctx, digest, u.ID, now, now.Add(s.ResetTTL))
	}
	if err != nil {
		s.log.Error("password reset link", "err", err)
		return
	}
	s.log.Info("password reset link for " + u.Email + ": " + s.BaseURL + "/reset?token=" + token)
}

type resetInput struct {
	Token    string `json:"token"`
	Password string `json:"password"`
}

// reset sets a new password with a reset link: account recovery, so it
// signs out every session and revokes every API token of the account
// (whoever had it may have made some), which ends their event streams and
// disconnects their CI agents.
func (s *Server) reset(w http.ResponseWriter, r *http.Request) {
	var in resetInput
	if !decode(w, r, &in) {
		return
	}
	var issues issueList
	if in.Token == "" {
		issues.add("token", "required", "token is required")
	}
	issues.password("password", in.Password)
	if len(issues) > 0 {
		writeIssues(w, "the reset request is not valid", issues)
		return
	}
	// Only a usable token earns the costly hash.
	digest := auth.Digest(in.Token)
	_, err := s.store.ResetUser(r.Context(), digest, s.Now())
	var hash, userID string
	if err == nil {
		hash, err = s.hashPassword(r.Context(), in.Password)
	}
	if err == nil {
		userID, err = s.store.ConsumeReset(r.Context(), digest, s.Now(), hash)
	}
	if errors.Is(err, store.ErrNotFound) {
		writeIssues(w, "the reset link is not valid", issueList{{Path: "token", Code: "invalid",
			Message: "the reset link is unknown, expired or already used: ask for a new one"}})
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.log.Info("password reset; the account's sessions ended and its API tokens were revoked", "user", userID)
	s.accessChanged()
	w.WriteHeader(http.StatusNoContent)
}

type passwordInput struct {
	CurrentPassword string `json:"currentPassword"`
	NewPassword     string `json:"newPassword"`
	// RevokeTokens also revokes the account's API tokens (and so
	// disconnects its CI agents); default false: a plain change keeps them.
	RevokeTokens bool `json:"revokeTokens" doc:"also revoke every API token of the account, which disconnects its CI agents (default false)"`
}

// changePassword sets a new password: the caller's other sessions end
// (and their event streams), and with revokeTokens the account's API
// tokens are revoked too.
func (s *Server) changePassword(w http.ResponseWriter, r *http.Request) {
	var in passwordInput
	if !decode(w, r, &in) {
		return
	}
	u, _ := currentUser(r)
	var issues issueList
	issues.password("newPassword", in.NewPassword)
	if in.CurrentPassword == "" {
		issues.add("currentPassword", "required", "current password is required")
	}
	if len(issues) > 0 {
		writeIssues(w, "the password change is not valid", issues)
		return
	}
	email := normEmail(u.Email)
	attempt, ok := s.beginAttempt(w, r, email)
	if !ok {
		return
	}
	if _, ok, err := s.checkPassword(r, email, in.CurrentPassword); err != nil || !ok {
		if err != nil {
			s.internal(w, r, err)
			return
		}
		writeIssues(w, "the current password is not correct", issueList{{Path: "currentPassword", Code: "incorrect", Message: "this is not your current password"}})
		return
	}
	hash, err := s.hashPassword(r.Context(), in.NewPassword)
	if err == nil {
		err = s.store.LoginSucceeded(r.Context(), attempt, email)
	}
	if err == nil {
		err = s.store.ChangePassword(r.Context(), u.ID, hash, currentSession(r), s.Now(), in.RevokeTokens)
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.log.Info("password changed; the other sessions ended", "user", u.ID, "tokensRevoked", in.RevokeTokens)
	s.accessChanged()
	w.WriteHeader(http.StatusNoContent)
}

// hashPassword hashes under the scrypt semaphore: each hash holds tens of
// MiB, so only a few run at once and the rest wait their turn.
func (s *Server) hashPassword(ctx context.Context, password string) (string, error) {
	select {
	case s.scryptSem <- struct{}{}:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	defer func() { <-s.scryptSem }()
	return s.Hasher.Hash(password)
}

// verifyPassword is auth.Verify under the scrypt semaphore.
func (s *Server) verifyPassword(ctx context.Context, password, hash string) (bool, error) {
	select {
	case s.scryptSem <- struct{}{}:
	case <-ctx.Done():
		return false, ctx.Err()
	}
	defer func() { <-s.scryptSem }()
	return auth.Verify(password, hash)
}
