package author

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/protocol"
	"github.com/ysmood/gson"
)

// Files chosen in a recorded page: an upload step replays the choice with
// project files, so each chosen file is offered to the hub
// (client.AuthorFiles: it asks the person, then stores it) and the step
// names the ids it answers. The offer may wait for the person: its place
// in the recording is kept (its Seq) while the recording goes on.

// maxUploadFile is the hub's limit for one project file (25 MiB).
const maxUploadFile = 25 << 20

// offerTimeout bounds the wait for the person's answer.
const offerTimeout = 5 * time.Minute

// chosenFile is a file of an <input type=file> and its path on this
// computer.
type chosenFile struct{ name, path string }

func (r *recorder) upload(ctx context.Context, pg *pageState, rep fullReport, ctxID proto.RuntimeExecutionContextID) {
	r.mu.Lock()
	s := r.s
	r.mu.Unlock()
	chosen, err := pg.chosenFiles(ctx, ctxID, rep.Handle)
	if err != nil {
		s.m.log.Info("a file chosen in the page is not recorded", "err", err)
		return
	}
	if ids, ok := s.m.givenFiles(chosen); ok {
		// Project files chosen through the live view: nothing to offer.
		if t := r.resolve(ctx, pg, rep, ctxID); t != nil {
			seq, id := r.reserve(pg, rep.Handle, ctxID)
			s.sink.Step(s.id, protocol.Captured{Seq: seq, Step: protocol.Step{ID: id, Type: "upload", Target: t, Files: ids}})
		}
		return
	}
	files, ok := s.sink.(client.AuthorFiles)
	if !ok {
		s.m.log.Info("a file chosen in the page is not recorded: the hub takes no files from this agent", "files", rep.Names)
		return
	}
	t := r.resolve(ctx, pg, rep, ctxID)
	if t == nil {
		return
	}
	seq, id := r.reserve(pg, rep.Handle, ctxID)
	go func() {
		octx, cancel := context.WithTimeout(pg.ctx, offerTimeout)
		defer cancel()
		var ids []string
		for _, f := range chosen {
			data, err := readChosen(f.path)
			if err == nil {
				var fid string
				if fid, err = files.OfferFile(octx, s.id, f.name, data); err == nil {
					ids = append(ids, fid)
					continue
				}
			}
			s.m.log.Info("a file chosen in the page is not recorded", "file", f.name, "err", err)
			return
		}
		s.sink.Step(s.id, protocol.Captured{Seq: seq, Step: protocol.Step{ID: id, Type: "upload", Target: t, Files: ids}})
	}()
}

// readChosen reads a chosen file, refusing one above maxUploadFile.
func readChosen(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxUploadFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxUploadFile {
		return nil, fmt.Errorf("larger than %d MiB, the limit of a project file", maxUploadFile>>20)
	}
	return data, nil
}

// reserve takes the next step's Seq and id for a step sent later, after
// the switchTab to pg when it is not the current tab.
func (r *recorder) reserve(pg *pageState, handle int, ctxID proto.RuntimeExecutionContextID) (int, string) {
	r.flushPending()
	r.mu.Lock()
	if sw, ok := r.switchTo(pg); ok {
		r.mu.Unlock()
		r.add(sw, 0, 0)
		r.mu.Lock()
	}
	defer r.mu.Unlock()
	r.seq++
	id := "s" + strconv.Itoa(r.seq)
	// Kept as the last step, so that a fill after it is a new step.
	r.last = append(r.last, capturedStep{seq: r.seq, step: protocol.Step{ID: id, Type: "upload"}, handle: handle, ctxID: ctxID, pg: pg})
	if len(r.last) > keepLast {
		r.last = r.last[1:]
	}
	r.lastAt = time.Now()
	return r.seq, id
}

// chosenFiles is the names and paths of the files an <input type=file>
// holds (DOM.getFileInfo gives a File's path).
func (pg *pageState) chosenFiles(ctx context.Context, ctxID proto.RuntimeExecutionContextID, handle int) ([]chosenFile, error) {
	obj, _, err := pg.element(ctx, ctxID, handle)
	if err != nil {
		return nil, err
	}
	p := pg.page.Context(ctx)
	defer func() { _ = proto.RuntimeReleaseObject{ObjectID: obj}.Call(p) }()
	var names []string
	if err := callJSON(ctx, pg.page, obj, `function () { return [...(this.files || [])].map(f => f.name); }`, &names); err != nil {
		return nil, err
	}
	if len(names) == 0 || len(names) > 10 {
		return nil, fmt.Errorf("%d files chosen: an upload step takes 1 to 10", len(names))
	}
	out := make([]chosenFile, 0, len(names))
	for i, name := range names {
		res, err := proto.RuntimeCallFunctionOn{ObjectID: obj, FunctionDeclaration: `function (i) { return this.files[i]; }`,
			Arguments: []*proto.RuntimeCallArgument{{Value: gson.New(i)}}}.Call(p)
		if err != nil {
			return nil, err
		}
		if res.ExceptionDetails != nil || res.Result.ObjectID == "" {
			return nil, errors.New("the chosen file is gone")
		}
		info, err := proto.DOMGetFileInfo{ObjectID: res.Result.ObjectID}.Call(p)
		_ = proto.RuntimeReleaseObject{ObjectID: res.Result.ObjectID}.Call(p)
		if err != nil {
			return nil, fmt.Errorf("the path of %s: %w", name, err)
		}
		out = append(out, chosenFile{name: name, path: info.Path})
	}
	return out, nil
}
