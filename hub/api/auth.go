package api

import (
	"errors"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"

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
	Email    string `json:"email"`
	Password string `json:"password"`
}

func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// signInLimited answers 429 with Retry-After when the email or the address
// has too many recent failures.
func (s *Server) signInLimited(w http.ResponseWriter, r *http.Request, email string) (limited bool, err error) {
	now := s.Now()
	c, err := s.store.LoginFailures(r.Context(), email, clientAddress(r), now.Add(-s.LoginWindow))
	if err != nil {
		return false, err
	}
	var until float64
	if c.Email >= s.LoginPerEmail {
		until = c.EmailOldest.Add(s.LoginWindow).Sub(now).Seconds()
	}
	if c.Address >= s.LoginPerAddress {
		until = math.Max(until, c.AddressOldest.Add(s.LoginWindow).Sub(now).Seconds())
	}
	if until <= 0 {
		return false, nil
	}
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(until))))
	writeError(w, http.StatusTooManyRequests, codeTooMany, "too many failed sign-in attempts; try again later")
	return true, nil
}

// checkPassword verifies a password for an email (normalised), spending
// the same work when the account does not exist. It counts a failure.
func (s *Server) checkPassword(r *http.Request, email, password string) (store.User, bool, error) {
	u, err := s.store.UserByEmail(r.Context(), email)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return store.User{}, false, err
	}
	hash := s.dummyHash
	if err == nil {
		hash = u.PasswordHash
	}
	ok, verr := auth.Verify(password, hash)
	if verr != nil {
		s.log.Error("unreadable password hash", "user", u.ID, "err", verr)
	}
	if ok && err == nil {
		return u, true, nil
	}
	now := s.Now()
	return store.User{}, false, s.store.RecordLoginFailure(r.Context(), email, clientAddress(r), now, now.Add(-s.LoginWindow))
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
	if limited, err := s.signInLimited(w, r, email); err != nil || limited {
		if err != nil {
			s.internal(w, r, err)
		}
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
	if err := s.store.ClearLoginFailures(r.Context(), email); err != nil {
		s.internal(w, r, err)
		return
	}
	if s.Hasher.NeedsRehash(u.PasswordHash) {
		if h, err := s.Hasher.Hash(in.Password); err == nil {
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

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if err := s.store.DeleteSession(r.Context(), currentSession(r)); err != nil {
		s.internal(w, r, err)
		return
	}
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
	Name     string `json:"name"`
	Email    string `json:"email"`
	Password string `json:"password"`
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
	hash, err := s.Hasher.Hash(in.Password)
	if err != nil {
		s.internal(w, r, err)
		return store.User{}, false
	}
	u, err := s.store.CreateUser(r.Context(), store.NewUser{
		ID: ids.New(ids.User), Email: in.Email, Name: in.Name, PasswordHash: hash,
		PlatformAdmin: platformAdmin, AdminIfFirst: true,
	})
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

// forgot always answers 204 so it tells nobody which emails have accounts;
// for a real account it prints a reset link to the hub's log.
func (s *Server) forgot(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Email string `json:"email"`
	}
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
	u, err := s.store.UserByEmail(r.Context(), email)
	if err == nil {
		token, digest := auth.NewToken()
		now := s.Now()
		if err = s.store.CreateReset(r.Context(), digest, u.ID, now, now.Add(s.ResetTTL)); err == nil {
			s.log.Info("password reset link for " + u.Email + ": " + s.BaseURL + "/reset?token=" + token)
		}
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) reset(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Token    string `json:"token"`
		Password string `json:"password"`
	}
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
	hash, err := s.Hasher.Hash(in.Password)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	userID, err := s.store.ConsumeReset(r.Context(), auth.Digest(in.Token), s.Now(), hash)
	if errors.Is(err, store.ErrNotFound) {
		writeIssues(w, "the reset link is not valid", issueList{{Path: "token", Code: "invalid",
			Message: "the reset link is unknown, expired or already used: ask for a new one"}})
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.log.Info("password reset", "user", userID)
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) changePassword(w http.ResponseWriter, r *http.Request) {
	var in struct {
		CurrentPassword string `json:"currentPassword"`
		NewPassword     string `json:"newPassword"`
	}
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
	if limited, err := s.signInLimited(w, r, email); err != nil || limited {
		if err != nil {
			s.internal(w, r, err)
		}
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
	hash, err := s.Hasher.Hash(in.NewPassword)
	if err == nil {
		err = s.store.SetPassword(r.Context(), u.ID, hash)
	}
	if err == nil {
		err = s.store.DeleteOtherSessions(r.Context(), u.ID, currentSession(r))
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
