package client

import (
	"context"

	"github.com/testautomation/ta/protocol"
)

// AuthorFileFetcher is offered by an AuthorSink that can fetch project
// files for a session's page: files a person chose through the live view
// (protocol input kind files), which the hub granted to the session. It
// answers the file's local path; the files of a session are removed when
// it ends (or its connection does).
type AuthorFileFetcher interface {
	FetchFile(ctx context.Context, session, id string) (string, error)
}

// FetchFile is AuthorFileFetcher for the sessions the hub starts: GET
// /api/agent/files/:id?session= with the agent's token, as a live
// session's upload steps fetch theirs (files.go).
func (s liveSink) FetchFile(ctx context.Context, session, id string) (string, error) {
	return s.c.sessionFiles(session).FetchFile(ctx, id)
}

// sessionFiles is the files of one authoring session, made on first use.
func (c *Client) sessionFiles(session string) *runFiles {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.authorFiles == nil {
		c.authorFiles = map[string]*runFiles{}
	}
	f := c.authorFiles[session]
	if f == nil {
		f = &runFiles{c: c, for_: "session", id: session}
		c.authorFiles[session] = f
	}
	return f
}

// dropSessionFiles removes the files of a session that ended, or of every
// session (all: the connection ended, and its sessions with it).
func (c *Client) dropSessionFiles(session string, all bool) {
	c.mu.Lock()
	var gone []*runFiles
	for id, f := range c.authorFiles {
		if all || id == session {
			gone = append(gone, f)
			delete(c.authorFiles, id)
		}
	}
	c.mu.Unlock()
	for _, f := range gone {
		f.remove()
	}
}

// sessionEnded reports whether a session status is final.
func sessionEnded(status string) bool {
	switch status {
	case protocol.SessionStopped, protocol.SessionClosed, protocol.SessionError:
		return true
	}
	return false
}
