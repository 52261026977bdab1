// Package langtest is a local OpenAI-compatible chat-completions server for
// tests: it records every request and replays canned answers.
package langtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// Reply is one canned answer. Content is the assistant message of a 200
// answer; Status other than 200 answers an error with Body (or a generic
// error object).
type Reply struct {
	Status  int
	Content string
	Body    string
	Header  http.Header
	Delay   time.Duration
}

// Request is one request the server received.
type Request struct {
	Auth string
	Body map[string]any
	Raw  string
}

// Server is the fake provider.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	replies  []Reply
	requests []Request
	// Default answers when no canned reply is queued.
	Default func(req Request) Reply
}

// New starts a fake provider; its base URL is URL()+"/v1".
func New() *Server {
	f := &Server{}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	return f
}

// BaseURL is what HUB_LLM_BASE_URL is set to.
func (f *Server) BaseURL() string { return f.URL + "/v1" }

// Queue adds replies, answered in order.
func (f *Server) Queue(r ...Reply) {
	f.mu.Lock()
	f.replies = append(f.replies, r...)
	f.mu.Unlock()
}

// Requests returns the requests received so far.
func (f *Server) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.requests...)
}

func (f *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
		http.Error(w, `{"error":{"message":"no such route"}}`, http.StatusNotFound)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	req := Request{Auth: r.Header.Get("Authorization"), Raw: string(raw)}
	_ = json.Unmarshal(raw, &req.Body)
	f.mu.Lock()
	f.requests = append(f.requests, req)
	var rep Reply
	switch {
	case len(f.replies) > 0:
		rep = f.replies[0]
		f.replies = f.replies[1:]
	case f.Default != nil:
		rep = f.Default(req)
	default:
		rep = Reply{Content: `{"steps":[]}`}
	}
	f.mu.Unlock()
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, vs := range rep.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if rep.Status != 0 && rep.Status != http.StatusOK {
		w.WriteHeader(rep.Status)
		body := rep.Body
		if body == "" {
			body = fmt.Sprintf(`{"error":{"message":"fake provider error %d","type":"error"}}`, rep.Status)
		}
		_, _ = io.WriteString(w, body)
		return
	}
	if rep.Body != "" {
		_, _ = io.WriteString(w, rep.Body)
		return
	}
	model, _ := req.Body["model"].(string)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-fake", "object": "chat.completion", "created": time.Now().Unix(), "model": model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": rep.Content}}},
		"usage": map[string]any{"prompt_tokens": len(raw) / 4, "completion_tokens": len(rep.Content) / 4, "total_tokens": (len(raw) + len(rep.Content)) / 4},
	})
}
