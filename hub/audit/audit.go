// Package audit appends security-relevant refusals to <data>/audit.log as
// JSON lines, one per event, for an operator to read or ship elsewhere.
package audit

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"
)

// Entry is one audited event.
type Entry struct {
	Time          time.Time `json:"time"`
	Event         string    `json:"event"`
	User          string    `json:"user"`
	Method        string    `json:"method"`
	Path          string    `json:"path"`
	RecordProject string    `json:"recordProject"`
	HeaderProject string    `json:"headerProject"`
	Org           string    `json:"org,omitempty"`    // an organization the user is not in
	Record        string    `json:"record,omitempty"` // the record a change is about (schedules)
}

// Log writes entries to one file.
type Log struct {
	path string
	mu   sync.Mutex // serialises writes so lines never interleave
}

// Open returns a Log appending to path (created 0600 on first write).
func Open(path string) *Log { return &Log{path: path} }

// Write appends one entry as a JSON line.
func (l *Log) Write(e Entry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("audit: %w", err)
	}
	return f.Close()
}
