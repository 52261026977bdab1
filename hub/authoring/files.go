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

// LiveFile reports whether the agent may read a project file for a
// session: the session is the agent's and either has not ended and was
// granted the file (a person chose it through the session's view), or is
// the editor's live session running steps now, an upload step of which
// names the file. projectID is the session's project, which the file
// must be of.
func (m *Manager) LiveFile(sessionID, agentID, fileID string) (projectID string, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[sessionID]
	if s == nil || s.AgentID != agentID {
		return "", false
	}
	granted := s.granted[fileID] && !final(s.status)
	running := s.live != nil && s.status == protocol.SessionRunning && s.live.files[fileID]
	if !granted && !running {
		return "", false
	}
	return s.ProjectID, true
}

// grantFiles lets the session's agent fetch project files a person chose
// through the session's view (input kind files), for as long as the
// session lasts.
func (m *Manager) grantFiles(s *Session, ids []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.granted == nil {
		s.granted = map[string]bool{}
	}
	for _, id := range ids {
		s.granted[id] = true
	}
}

// chooserIssues checks a files input against the file choice the last
// frame showed: there must be one, and one that takes one file gets at
// most one.
func chooserIssues(shown *protocol.ViewFileChooser, files []string) []protocol.Issue {
	switch {
	case shown == nil:
		return []protocol.Issue{{Path: "", Code: protocol.CodeConflict, Message: "the page asks for no file now"}}
	case !shown.Multiple && len(files) > 1:
		return []protocol.Issue{{Path: "files", Code: protocol.CodeTooLong, Message: "the page asks for one file: choose one"}}
	}
	return nil
}
