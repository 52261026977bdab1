package authoring

import "github.com/testautomation/ta/protocol"

// uploadFiles is the set of file ids the upload steps of steps name.
func uploadFiles(steps []protocol.Step) map[string]bool {
	out := map[string]bool{}
	for _, st := range protocol.AllSteps(steps) {
		if st.Type == "upload" {
			for _, id := range st.Files {
				out[id] = true
			}
		}
	}
	return out
}

// LiveFile reports whether the agent may read a project file for a live
// session: the session is the agent's, is running steps now, and an
// upload step of those steps names the file. projectID is the session's
// project, which the file must be of.
func (m *Manager) LiveFile(sessionID, agentID, fileID string) (projectID string, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[sessionID]
	if s == nil || s.live == nil || s.AgentID != agentID || s.status != protocol.SessionRunning || !s.live.files[fileID] {
		return "", false
	}
	return s.ProjectID, true
}
