package junit

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/testautomation/ta/protocol"
)

// Retries (docs/retries.md) are reported as Maven Surefire reports its
// reruns, which CI servers read (Jenkins' JUnit plugin, GitLab, the
// Surefire-format reporters of GitHub Actions): a case that passed after
// failing keeps no <failure> but has one <flakyFailure> per failed
// attempt; a case that failed every attempt has its last attempt's
// <failure> and a <rerunFailure> per attempt before it. Each holds the
// failing step and its error as <failure> would (message), the step's
// whole error in <stackTrace>, and in <system-out> which attempt it was
// and its failure's screenshot.
type xmlRerun struct {
	Message    string `xml:"message,attr"`
	Type       string `xml:"type,attr"`
	StackTrace string `xml:"stackTrace"`
	SystemOut  string `xml:"system-out,omitempty"`
}

// reruns gives a case's flaky and rerun failures from its attempts.
func (run Run) reruns(row int, status string, attempts []protocol.AttemptResult) (flaky, rerun []xmlRerun) {
	if len(attempts) < 2 || (status != protocol.RunPassed && status != protocol.RunFailed) {
		return nil, nil
	}
	var out []xmlRerun
	for _, a := range attempts[:len(attempts)-1] {
		if a.Status != protocol.RunFailed {
			continue // only a failure is retried (the hub checks it)
		}
		out = append(out, run.rerun(row, a, len(attempts)))
	}
	if status == protocol.RunPassed {
		return out, nil
	}
	return nil, out
}

func (run Run) rerun(row int, a protocol.AttemptResult, of int) xmlRerun {
	lines := []string{fmt.Sprintf("Attempt %d of %d failed", a.Attempt, of)}
	message, trace := cleanText(a.Error), cleanText(a.Error)
	if failing, found := protocol.FirstFailure(a.Steps); found {
		numbers := protocol.RunStepNumbers(run.Document, a.Steps)
		where := fmt.Sprintf("step %s (%s %s)%s", numbers[failing.Index], failing.Type, failing.ID, protocol.IterationText(failing.Iteration))
		message = cleanText(where + ": " + firstLine(cmp.Or(failing.Error, a.Error)))
		trace = cleanText(where + " failed:\n" + cmp.Or(failing.Error, a.Error))
		if run.Attachment != nil {
			if shot := run.Attachment(row, failing); shot != "" {
				lines = append(lines, "[[ATTACHMENT|"+cleanText(shot)+"]]")
			}
		}
	}
	return xmlRerun{Message: cleanAttr(cmp.Or(message, "the test failed")), Type: "failed", StackTrace: trace,
		SystemOut: cleanText(strings.Join(lines, "\n"))}
}
