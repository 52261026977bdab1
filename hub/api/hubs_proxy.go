package api

// Authoring across hubs (docs/several-hubs.md). A recording, picker or
// live session lives in the memory of the hub holding its agent: a
// request for it that reaches another hub (a load balancer sends requests
// anywhere) is passed to that hub, streams included, with the caller's
// own cookies and headers, so the hub that serves it checks it exactly as
// it would a direct one. A new session goes to the hub of the user's
// agent. One hop at most: a passed request carries hopHeader and is
// served where it lands.

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"

	"github.com/go-chi/chi/v5"
)

// hopHeader marks a request another hub passed on.
const hopHeader = "X-Ta-Hub-Hop"

// codeHubUnreachable: the hub holding a session did not answer.
const codeHubUnreachable = "hub_unreachable"

// authorRoute serves an authoring request here or passes it on.
func (s *Server) authorRoute(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.Dispatch == nil || r.Header.Get(hopHeader) != "" {
			next.ServeHTTP(w, r)
			return
		}
		target, err := s.authorTarget(r)
		if err != nil {
			s.log.Warn("where does this authoring request go", "path", r.URL.Path, "err", err)
		}
		if target == "" {
			next.ServeHTTP(w, r)
			return
		}
		s.passTo(w, r, target)
	})
}

// authorTarget is the address of the hub to pass the request to, "" to
// serve it here.
func (s *Server) authorTarget(r *http.Request) (string, error) {
	id := chi.URLParam(r, "id")
	if id == "" && r.Method == http.MethodPost && r.URL.Path == "/api/pick/start" {
		id = pickOn(r) // a picker on a recording's or live session's page goes where that is
	}
	if id != "" {
		if _, _, _, here := s.authoring.Owner(id); here {
			return "", nil
		}
		target, ok, err := s.store.SessionHub(r.Context(), id, s.Dispatch.ID())
		if err != nil || !ok {
			return "", err
		}
		return target, nil
	}
	target, local, ok := s.Dispatch.AuthorHub(currentUserID(r))
	if local || !ok {
		return "", nil
	}
	return target, nil
}

// pickOn reads the recording or live session a picker start names, and
// puts the body back for the handler.
func pickOn(r *http.Request) string {
	data, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	r.Body = io.NopCloser(bytes.NewReader(data))
	if err != nil {
		return ""
	}
	var in struct {
		RecordingID string `json:"recordingId"`
		SessionID   string `json:"sessionId"`
	}
	_ = json.Unmarshal(data, &in)
	if in.RecordingID != "" {
		return in.RecordingID
	}
	return in.SessionID
}

// passTo sends the request to the hub at target and streams its answer
// back.
func (s *Server) passTo(w http.ResponseWriter, r *http.Request, target string) {
	u, err := url.Parse(target)
	if err != nil {
		writeError(w, http.StatusServiceUnavailable, codeHubUnreachable, "the hub holding this session has no usable address")
		return
	}
	p := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(u)
			pr.Out.Host = pr.In.Host // the other hub checks the host the caller addressed
			pr.Out.Header.Set(hopHeader, s.Dispatch.ID())
		},
		FlushInterval: -1, // event streams and live views go out as they come
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			s.log.Warn("pass an authoring request to another hub", "hub", target, "path", r.URL.Path, "err", err)
			writeError(w, http.StatusServiceUnavailable, codeHubUnreachable,
				"the hub holding this session did not answer; try again in a moment")
		},
	}
	p.ServeHTTP(w, r)
}

// noteSession records that a session lives on this hub.
func (s *Server) noteSession(r *http.Request, id string) {
	if s.Dispatch == nil {
		return
	}
	if err := s.store.PutSessionRoute(r.Context(), id, s.Dispatch.ID()); err != nil {
		s.log.Warn("record where an authoring session lives", "session", id, "err", err)
	}
}
