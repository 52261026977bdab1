package author

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/protocol"
)

// File choosers in the live view: a page's <input type=file>, clicked,
// opens the browser's file chooser, which the screencast does not show
// (and a headless browser has none). So while the view is on the page's
// choosers are intercepted (Page.setInterceptFileChooserDialog): the
// frames carry the waiting choice, the web shows it over the picture,
// and the person answers with project files (input kind files), which the
// agent fetches for the session and sets on the input. A recording then
// records an upload of those files at once: they are project files
// already, so nothing is offered (session_upload.go). When nobody
// watches, nothing is intercepted: a headed recording keeps the
// browser's own chooser and the offer.

// chooserTimeout bounds fetching the chosen files and setting them.
const chooserTimeout = 2 * time.Minute

// pendingChooser is a file choice a watched page waits for.
type pendingChooser struct {
	node  proto.DOMBackendNodeID // the <input type=file>
	shown *protocol.ViewFileChooser
}

// interceptChoosers turns the interception of the page's file choosers on
// (while its screencast runs) or off.
func (m *Manager) interceptChoosers(ctx context.Context, pg *pageState, on bool) {
	if err := (proto.PageSetInterceptFileChooserDialog{Enabled: on}).Call(pg.page.Context(ctx)); err != nil {
		m.log.Info("file chooser interception", "on", on, "err", err)
	}
}

// chooserOpened keeps the page's file choice and sends the page's last
// picture again with it at once: the click that opened it may change
// nothing the picture shows.
func (m *Manager) chooserOpened(pg *pageState, c *cast, e *proto.PageFileChooserOpened) {
	if e.BackendNodeID == 0 { // showOpenFilePicker: no input to set files on
		m.log.Info("a file chooser without an <input type=file> is not shown in the view")
		return
	}
	shown := &protocol.ViewFileChooser{Multiple: e.Mode == proto.PageFileChooserOpenedModeSelectMultiple}
	m.showChooser(pg, c, &pendingChooser{node: e.BackendNodeID, shown: shown})
}

// showChooser sets the cast's pending choice (nil: none) and sends the
// last picture again with it to the page's watchers.
func (m *Manager) showChooser(pg *pageState, c *cast, ch *pendingChooser) {
	m.broadcast(c, func() (protocol.ViewFrame, bool) {
		if m.views.of[pg] != c {
			return protocol.ViewFrame{}, false
		}
		c.chooser = ch
		c.last.FileChooser = nil
		if ch != nil {
			c.last.FileChooser = ch.shown
		}
		return c.last, true
	})
}

// chooseFiles answers the page's pending file choice: no files cancel it;
// else the session's project files are fetched and set on the input, as
// a person choosing them would (input and change fire).
func (m *Manager) chooseFiles(pg *pageState, session string, in protocol.ViewInput) {
	m.views.mu.Lock()
	c := m.views.of[pg]
	var ch *pendingChooser
	if c != nil {
		ch = c.chooser
	}
	m.views.mu.Unlock()
	if ch == nil {
		m.log.Info("view input", "session", session, "kind", in.Kind, "err", "the page asks for no file")
		return
	}
	m.showChooser(pg, c, nil)
	if len(in.Files) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(pg.ctx, chooserTimeout)
	defer cancel()
	if err := m.setChosen(ctx, pg, session, ch, in.Files); err != nil {
		m.log.Info("view input", "session", session, "kind", in.Kind, "err", err)
	}
}

func (m *Manager) setChosen(ctx context.Context, pg *pageState, session string, ch *pendingChooser, ids []string) error {
	if !ch.shown.Multiple && len(ids) > 1 {
		return errors.New("the page asks for one file")
	}
	s, err := m.session(session)
	if err != nil {
		return err
	}
	fetch, ok := s.sink.(client.AuthorFileFetcher)
	if !ok {
		return errors.New("this agent cannot fetch project files for the session")
	}
	paths := make([]string, 0, len(ids))
	for _, id := range ids {
		p, err := fetch.FetchFile(ctx, session, id)
		if err != nil {
			return err
		}
		paths = append(paths, p)
	}
	// Known before the files are set: the change they fire is recorded
	// as an upload of these ids (givenFiles).
	m.views.mu.Lock()
	if m.views.given == nil {
		m.views.given = map[string]string{}
	}
	for i, p := range paths {
		m.views.given[p] = ids[i]
	}
	m.views.mu.Unlock()
	if err := (proto.DOMSetFileInputFiles{Files: paths, BackendNodeID: ch.node}).Call(pg.page.Context(ctx)); err != nil {
		return fmt.Errorf("setting the chosen files: %w", err)
	}
	return nil
}

// givenFiles is the project file ids of chosen files when every one was
// set through the view (chooseFiles).
func (m *Manager) givenFiles(chosen []chosenFile) ([]string, bool) {
	m.views.mu.Lock()
	defer m.views.mu.Unlock()
	ids := make([]string, 0, len(chosen))
	for _, f := range chosen {
		id, ok := m.views.given[f.path]
		if !ok {
			return nil, false
		}
		ids = append(ids, id)
	}
	return ids, len(ids) > 0
}
