package runner

import (
	"context"
	"fmt"
	"regexp"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// FileFetcher is what the runner needs of its caller to run upload steps:
// the agent's client fetches a project file of the run from the hub into
// a private folder and answers its local path. The runner finds it on the
// Emitter it is given (client's per-run emitter implements it); a caller
// without it cannot run upload steps.
type FileFetcher interface {
	FetchFile(ctx context.Context, fileID string) (path string, err error)
}

// fileIDRe is a project file id: a step names files by id only, so a
// document can never make the agent read a path of its own choosing.
var fileIDRe = regexp.MustCompile(`^fil_[a-z0-9]{1,64}$`)

// uploadChecks: a file input is often hidden behind a styled button, so
// it needs only to be attached and enabled (as Playwright's setInputFiles).
var uploadChecks = checks{Enabled: true}

func init() { stepFuncs["upload"] = upload }

// upload fetches the step's files, then sets them on the target file
// input (DOM.setFileInputFiles), which fires its input and change events
// as a person choosing them would.
func upload(s *stepRun, ctx context.Context, st protocol.Step) error {
	if len(st.Files) == 0 {
		return permanent("the upload step names no file")
	}
	fetch, ok := s.r.out.emit.(FileFetcher)
	if !ok {
		return permanent("this agent cannot fetch project files here, so it cannot upload")
	}
	paths := make([]string, len(st.Files))
	for i, id := range st.Files {
		if !fileIDRe.MatchString(id) {
			return permanent("%q is not a project file id (fil_...)", clip(id, 40))
		}
		p, err := fetch.FetchFile(ctx, id)
		if err != nil {
			return permanent("%v", err)
		}
		paths[i] = p
	}
	return s.poll(ctx, "for the file input", func(ctx context.Context) error {
		el, err := s.resolve(ctx, st.Target)
		if err != nil {
			return err
		}
		if _, err := s.ready(ctx, el, uploadChecks); err != nil {
			return err
		}
		v, err := callValue(ctx, s.r.tab.sess, el.obj, fileInputJS, len(paths))
		if err != nil {
			return err
		}
		if err := outcomeOf(v); err != nil {
			return err
		}
		s.r.flush()
		if err := (proto.DOMSetFileInputFiles{Files: paths, ObjectID: el.obj}).Call(s.r.sess(ctx)); err != nil {
			return fmt.Errorf("could not set the files: %w", err)
		}
		s.mark(ctx, el)
		return nil
	})
}

// fileInputJS checks that the element is a file input that takes n files.
const fileInputJS = `function (n) {
	const tag = this.tagName ? this.tagName.toLowerCase() : 'node';
	if (tag !== 'input' || String(this.type).toLowerCase() !== 'file') {
		const type = tag === 'input' ? ' type=' + this.type : '';
		return '!the target is <' + tag + type + '>, not a file input (<input type=file>)';
	}
	if (n > 1 && !this.multiple) {
		return '!the file input takes one file (it has no multiple attribute), and the step uploads ' + n;
	}
	return true;
}`
