package authoring

import (
	"context"
	"errors"
	"time"

	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/protocol"
)

// File offers (docs/files.md, "Files chosen while recording"): a file a
// person chose in a recorded page is offered by the recording's agent; the
// hub holds it in memory, tells the recording's stream (file.offered) and
// waits for the person to accept (the API stores it as a project file) or
// decline. One offer per recording waits at a time; it lapses after
// OfferWait, or when the recording ends.

// OfferWait bounds how long an offer waits for the person.
const OfferWait = 5 * time.Minute

// Errors of an offer.
var (
	ErrOfferPending  = errors.New("a file offered by this recording is still waiting for an answer")
	ErrOfferDeclined = errors.New("the person recording chose not to upload the file")
	ErrOfferExpired  = errors.New("nobody answered the offer in time")
	ErrOfferGone     = errors.New("no such file offer waiting in this session")
)

// fileOffer is a file waiting for the person's answer.
type fileOffer struct {
	id      string
	name    string
	data    []byte
	claimed bool        // an answer is being carried out (guarded by Manager.mu)
	settled chan string // the file id, or "" when declined; buffered
}

// OfferedFile is an offer being answered: its name and bytes.
type OfferedFile struct {
	ID, Name string
	Data     []byte
}

// CanOffer says whether Offer would take a file for sessionID from
// agentID now (nil), or why not, without the file: the hub asks before it
// reads up to 25 MiB of a body it would refuse.
func (m *Manager) CanOffer(sessionID, agentID string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[sessionID]
	switch {
	case s == nil || s.Kind != protocol.AuthorRecord || s.AgentID != agentID:
		return ErrNotFound
	case final(s.status):
		return ErrEnded
	case s.offer != nil:
		return ErrOfferPending
	}
	return nil
}

// Offer holds a file the agent offers for a recording of its own and
// waits for the person's answer: the new file's id when accepted.
func (m *Manager) Offer(ctx context.Context, sessionID, agentID, name string, data []byte) (string, error) {
	o := &fileOffer{id: ids.New("ofr"), name: name, data: data, settled: make(chan string, 1)}
	m.mu.Lock()
	s := m.sessions[sessionID]
	switch {
	case s == nil || s.Kind != protocol.AuthorRecord || s.AgentID != agentID:
		m.mu.Unlock()
		return "", ErrNotFound
	case final(s.status):
		m.mu.Unlock()
		return "", ErrEnded
	case s.offer != nil:
		m.mu.Unlock()
		return "", ErrOfferPending
	}
	s.offer = o
	s.push("file.offered", 0, map[string]any{"offerId": o.id, "name": name, "size": len(data)})
	s.log[len(s.log)-1].offer = o.id
	m.wakeLocked(sessionID)
	m.mu.Unlock()

	wake, stop := m.Watch(sessionID)
	defer stop()
	wait := m.cfg.OfferWait
	if wait == 0 {
		wait = OfferWait
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		select {
		case fid := <-o.settled:
			if fid == "" {
				return "", ErrOfferDeclined
			}
			return fid, nil
		case <-wake:
			m.mu.Lock()
			ended := final(s.status)
			m.mu.Unlock()
			if ended && m.lapse(s, o, "ended") {
				return "", ErrEnded
			}
		case <-t.C:
			if m.lapse(s, o, "expired") {
				return "", ErrOfferExpired
			}
		case <-ctx.Done():
			if m.lapse(s, o, "withdrawn") {
				return "", ctx.Err()
			}
		}
	}
}

// lapse ends an offer nobody is answering; false when an answer is being
// carried out (its result follows on o.settled).
func (m *Manager) lapse(s *Session, o *fileOffer, outcome string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if o.claimed {
		return false
	}
	m.settleLocked(s, o, outcome, "")
	return true
}

// settleLocked takes the offer off the session and tells the stream how it
// ended; m.mu is held.
func (m *Manager) settleLocked(s *Session, o *fileOffer, outcome, fileID string) {
	if s.offer != o {
		return
	}
	s.offer = nil
	out := s.log[:0]
	for _, e := range s.log {
		if e.Kind == "file.offered" && e.offer == o.id {
			continue // a client resuming later has nothing to answer
		}
		out = append(out, e)
	}
	s.log = out
	s.push("file.settled", 0, map[string]any{"offerId": o.id, "outcome": outcome, "fileId": strp(fileID)})
	m.wakeLocked(s.ID)
}

// ClaimOffer takes a waiting offer of the session for answering: no
// second answer and no lapse can take it meanwhile. Settle must follow.
func (m *Manager) ClaimOffer(sessionID, offerID string) (OfferedFile, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[sessionID]
	if s == nil || s.offer == nil || s.offer.id != offerID || s.offer.claimed {
		return OfferedFile{}, ErrOfferGone
	}
	s.used = m.cfg.Now()
	s.offer.claimed = true
	return OfferedFile{ID: offerID, Name: s.offer.name, Data: s.offer.data}, nil
}

// SettleOffer answers a claimed offer: fileID is the stored file's id, ""
// for declined (or when storing failed: the agent hears declined).
func (m *Manager) SettleOffer(sessionID, offerID, fileID string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[sessionID]
	if s == nil || s.offer == nil || s.offer.id != offerID {
		return
	}
	o := s.offer
	outcome := "accepted"
	if fileID == "" {
		outcome = "declined"
	}
	m.settleLocked(s, o, outcome, fileID)
	o.settled <- fileID
}
