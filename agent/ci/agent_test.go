package ci

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/protocol"
)

// A hub that refuses the CI agent's token ends startAgent with its reason
// (it used to wait forever for the agent it had already seen end). The
// hub here only answers the connection: a real hub refuses the same token
// on the REST routes first, so the command never gets this far with it.
func TestStartAgentRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer ws.CloseNow()
		if _, _, err := ws.Read(r.Context()); err != nil {
			return
		}
		data, _ := json.Marshal(protocol.Message{Type: protocol.MsgError, ErrorCode: "unauthorized", Error: "API token refused: this API token was revoked"})
		_ = ws.Write(r.Context(), websocket.MessageText, data)
	}))
	defer srv.Close()
	stopped := false
	c := &command{o: Options{Hub: srv.URL, Token: "tat_x", Parallel: 1, HubWait: 30 * time.Second},
		env: Env{Local: func(context.Context) (client.Runner, func(), error) { return nil, func() { stopped = true }, nil }}}
	done := make(chan error, 1)
	go func() { done <- c.startAgent(t.Context()) }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "this API token was revoked") || !stopped || c.stopAgent != nil {
			t.Fatalf("startAgent: %v (browser stopped %v)", err, stopped)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("startAgent did not return after the hub refused the token")
	}
}
