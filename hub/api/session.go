package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/testautomation/ta/hub/auth"
	"github.com/testautomation/ta/hub/store"
)

// CookieName is the session cookie.
const CookieName = "ta_session"

// publicRoutes are the only API routes open without a session. Everything
// else, including routes added later and unknown paths, needs one.
var publicRoutes = map[string]bool{
	"POST /api/auth/login":    true,
	"POST /api/auth/register": true,
	"POST /api/auth/forgot":   true,
	"POST /api/auth/reset":    true,
	"GET /api/auth/session":   true,
	"GET /api/openapi.json":   true, // describes routes, not data
	"GET /api/agent/connect":  true, // the agent authenticates in its first message
}

type ctxKey int

const (
	userKey ctxKey = iota
	sessionKey
	scopeKey
	tokenKey
)

// authenticate is the central session check.
func (s *Server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		// An API token wins over a session cookie: the header is what the
		// client chose for this request (tokens.go).
		if raw, ok := auth.BearerToken(r.Header.Get("Authorization")); ok {
			u, tok, ok := s.bearer(w, r, raw)
			if !ok {
				return
			}
			u.PlatformAdmin = tok.PlatformAdmin(u)
			ctx = context.WithValue(ctx, userKey, u)
			ctx = context.WithValue(ctx, tokenKey, tok)
		} else if c, err := r.Cookie(CookieName); err == nil && c.Value != "" {
			digest := auth.Digest(c.Value)
			u, err := s.store.SessionUser(ctx, digest, s.Now(), s.SessionIdle)
			switch {
			case err == nil:
				ctx = context.WithValue(ctx, userKey, u)
				ctx = context.WithValue(ctx, sessionKey, digest)
			case !errors.Is(err, store.ErrNotFound):
				s.internal(w, r, err)
				return
			}
		}
		if _, ok := ctx.Value(userKey).(store.User); !ok && !publicRoutes[r.Method+" "+r.URL.Path] && !agentFileRoute(r) {
			writeError(w, http.StatusUnauthorized, codeUnauthenticated, "sign in first")
			return
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// currentUser is the signed-in caller; ok is false on public routes without
// a session.
func currentUser(r *http.Request) (store.User, bool) {
	u, ok := r.Context().Value(userKey).(store.User)
	return u, ok
}

func currentSession(r *http.Request) []byte {
	d, _ := r.Context().Value(sessionKey).([]byte)
	return d
}

func (s *Server) secure(r *http.Request) bool {
	return r.TLS != nil || len(s.BaseURL) > 8 && s.BaseURL[:8] == "https://"
}

// startSession creates a session for the user and sets its cookie.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, userID string) error {
	token, digest := auth.NewToken()
	now := s.Now()
	expires := now.Add(s.SessionMax)
	if err := s.store.CreateSession(r.Context(), digest, userID, now, expires); err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{
		Name: CookieName, Value: token, Path: "/",
		Expires: expires, MaxAge: int(s.SessionMax / time.Second),
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: s.secure(r),
	})
	return nil
}

func (s *Server) clearCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{
		Name: CookieName, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: s.secure(r),
	})
}
