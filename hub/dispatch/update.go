package dispatch

import (
	"strings"

	"github.com/testautomation/ta/protocol"
)

// update tells a connecting agent about a newer agent this hub serves for
// its OS and architecture; nil when there is none, or its version is not
// known (a development build).
func (h *Hub) update(hello protocol.Message) *protocol.AgentUpdate {
	if h.Latest == nil || hello.OS == "" || hello.Arch == "" {
		return nil
	}
	latest := h.Latest(hello.OS, hello.Arch)
	if latest == "" || !protocol.NewerVersion(latest, hello.Agent) {
		return nil
	}
	return &protocol.AgentUpdate{Version: latest, URL: strings.TrimRight(h.BaseURL, "/") + "/agents"}
}
