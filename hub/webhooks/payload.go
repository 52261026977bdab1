package webhooks

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// Events a webhook may subscribe to; Ping is sent on request only.
const (
	RunFinished   = "run.finished"
	BatchFinished = "batch.finished"
	Ping          = "ping"
)

// Events lists the events a webhook may subscribe to.
var Events = []string{RunFinished, BatchFinished}

// Formats of a webhook's body.
const (
	FormatJSON  = "json"
	FormatSlack = "slack"
)

// Header names of a delivery.
const (
	HeaderEvent     = "X-TA-Event"
	HeaderDelivery  = "X-TA-Delivery"
	HeaderSignature = "X-TA-Signature-256"
	UserAgent       = "ta-hub-webhooks"
)

// Sign is the value of X-TA-Signature-256 for body: "sha256=" and the hex
// HMAC-SHA256 of the exact bytes with the webhook's secret (GitHub's
// scheme). A receiver computes the same and compares in constant time.
func Sign(secret string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// Verify reports whether signature is body's signature with secret.
func Verify(secret string, body []byte, signature string) bool {
	return hmac.Equal([]byte(Sign(secret, body)), []byte(signature))
}

// Payload is the JSON body of a delivery in the json format.
type Payload struct {
	Event      string        `json:"event"`
	DeliveryID string        `json:"deliveryId"`
	SentAt     string        `json:"sentAt"`
	Project    ProjectRef    `json:"project"`
	Run        *RunPayload   `json:"run,omitempty"`
	Batch      *BatchPayload `json:"batch,omitempty"`
	Webhook    *WebhookRef   `json:"webhook,omitempty"` // ping only
}

// ProjectRef names the project.
type ProjectRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// WebhookRef names the webhook a ping tests.
type WebhookRef struct {
	ID string `json:"id"`
}

// RunPayload is a finished run. Passed and Total count steps (rows for a
// data-driven run), as GET /api/runs/:id does.
type RunPayload struct {
	RunID      string  `json:"runId"`
	TestID     string  `json:"testId"`
	TestName   string  `json:"testName"`
	Status     string  `json:"status"`
	Passed     int     `json:"passed"`
	Total      int     `json:"total"`
	DurationMs int64   `json:"durationMs"`
	StartedAt  *string `json:"startedAt"`
	FinishedAt *string `json:"finishedAt"`
	URL        string  `json:"url"`
	Error      string  `json:"error,omitempty"` // masked by the hub like everywhere
	// Quarantined: the test was quarantined when the run ended, so its
	// failure fails no batch (docs/history.md).
	Quarantined bool `json:"quarantined"`
	Flaky       bool `json:"flaky"` // it failed, then passed on a retry (docs/retries.md)
	// Result is the run's step results as GET /api/runs/:id has them: a
	// tree when the test has blocks (docs/flow.md).
	Result RunResult `json:"result"`
}

// RunResult is a finished run's step results. A result larger than
// MaxResultBytes is left out (Omitted says so): the run's page has it.
type RunResult struct {
	Steps   []protocol.StepResult `json:"steps"`
	Omitted bool                  `json:"omitted,omitempty"`
}

// MaxResultBytes bounds the step results a delivery carries: a loop of
// thousands of iterations would otherwise make a body receivers refuse.
const MaxResultBytes = 512 << 10

// BatchPayload is a finished batch: passed when every run passed or was
// quarantined, else failed (as GET /api/batches/:id says); Counts has each
// final status and how many runs were quarantined.
type BatchPayload struct {
	BatchID string         `json:"batchId"`
	Status  string         `json:"status"`
	Passed  int            `json:"passed"`
	Failed  int            `json:"failed"` // runs that did not pass
	Total   int            `json:"total"`
	Counts  map[string]int `json:"counts"`
	URL     string         `json:"url"`
	Runs    []BatchRun     `json:"runs"`
	// Schedule names the schedule that started the batch; null when a
	// person or a pipeline did.
	Schedule *ScheduleRef `json:"schedule"`
}

// ScheduleRef names a schedule.
type ScheduleRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// BatchRun is one run of a batch.
type BatchRun struct {
	RunID    string `json:"runId"`
	TestName string `json:"testName"`
	Status   string `json:"status"`
	URL      string `json:"url"`
	// Quarantined: its failure does not fail the batch.
	Quarantined bool `json:"quarantined"`
}

const timeFormat = "2006-01-02T15:04:05.000Z07:00"

func stamp(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.UTC().Format(timeFormat)
	return &s
}

// errGone says the run or batch a delivery reports no longer exists.
var errGone = errors.New("the run or batch was deleted before it could be delivered")

// payload builds a delivery's JSON payload from the stored run or batch.
func (w *Worker) payload(ctx context.Context, d store.ClaimedDelivery, now time.Time) (Payload, error) {
	p := Payload{Event: d.Event, DeliveryID: d.ID, SentAt: now.UTC().Format(timeFormat), Project: ProjectRef{ID: d.ProjectID, Name: d.ProjectName}}
	switch d.Event {
	case Ping:
		p.Webhook = &WebhookRef{ID: d.WebhookID}
	case RunFinished:
		r, err := w.Store.Run(ctx, d.Subject)
		if errors.Is(err, store.ErrNotFound) || err == nil && r.ProjectID != d.ProjectID {
			return p, errGone
		}
		if err != nil {
			return p, err
		}
		p.Run = &RunPayload{RunID: r.ID, TestID: r.TestID, TestName: r.TestName, Status: r.Status, Passed: r.Passed, Total: r.Total,
			DurationMs: r.DurationMs, StartedAt: stamp(r.StartedAt), FinishedAt: stamp(r.FinishedAt), URL: w.BaseURL + "/runs/" + r.ID, Error: r.Error,
			Quarantined: r.Quarantined, Flaky: r.Flaky, Result: RunResult{Steps: []protocol.StepResult{}}}
		switch {
		case len(r.Result) > MaxResultBytes:
			p.Run.Result.Omitted = true
		case len(r.Result) > 0:
			// Stored by the hub: the result the run's page shows.
			if steps := []protocol.StepResult(nil); json.Unmarshal(r.Result, &steps) == nil && steps != nil {
				p.Run.Result.Steps = steps
			}
		}
	case BatchFinished:
		runs, err := w.Store.BatchWebhookRuns(ctx, d.Subject)
		if err != nil {
			return p, err
		}
		if len(runs) == 0 || runs[0].ProjectID != d.ProjectID {
			return p, errGone
		}
		b := &BatchPayload{BatchID: d.Subject, Total: len(runs), URL: w.BaseURL + "/batches/" + d.Subject, Runs: []BatchRun{},
			Counts: map[string]int{protocol.RunPassed: 0, protocol.RunFailed: 0, protocol.RunError: 0, protocol.RunCancelled: 0, "quarantined": 0}}
		excused := 0 // quarantined runs that did not pass
		for _, r := range runs {
			b.Counts[r.Status]++
			if r.Quarantined {
				b.Counts["quarantined"]++
				if r.Status != protocol.RunPassed {
					excused++
				}
			}
			b.Runs = append(b.Runs, BatchRun{RunID: r.ID, TestName: r.TestName, Status: r.Status, URL: w.BaseURL + "/runs/" + r.ID, Quarantined: r.Quarantined})
		}
		b.Passed = b.Counts[protocol.RunPassed]
		b.Failed = b.Total - b.Passed
		b.Status = protocol.RunPassed
		if b.Failed > excused {
			b.Status = protocol.RunFailed
		}
		batch, err := w.Store.GetBatch(ctx, d.Subject)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return p, err
		}
		if batch.ScheduleID != "" {
			b.Schedule = &ScheduleRef{ID: batch.ScheduleID, Name: batch.ScheduleName}
		}
		p.Batch = b
	default:
		return p, fmt.Errorf("unknown event %q", d.Event)
	}
	return p, nil
}

// body renders a payload in the webhook's format.
func body(format string, p Payload) ([]byte, error) {
	if format == FormatSlack {
		return json.Marshal(slackMessage(p))
	}
	return json.Marshal(p)
}

// slack is a Slack incoming-webhook message: text is the one-line summary
// (shown in notifications), blocks the same as a section.
type slack struct {
	Text   string       `json:"text"`
	Blocks []slackBlock `json:"blocks,omitempty"`
}

type slackBlock struct {
	Type string    `json:"type"`
	Text slackText `json:"text"`
}

type slackText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

var statusIcon = map[string]string{protocol.RunPassed: "✅", protocol.RunFailed: "❌", protocol.RunError: "⚠️", protocol.RunCancelled: "⏹️"}

// slackEscape escapes what Slack's mrkdwn gives a meaning to.
func slackEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

func slackMessage(p Payload) slack {
	project := slackEscape(p.Project.Name)
	var text string
	switch {
	case p.Run != nil:
		r := p.Run
		text = fmt.Sprintf("%s Run of %s %s in %s: %d/%d passed in %s <%s|Open the run>", statusIcon[r.Status], slackEscape(r.TestName), r.Status,
			project, r.Passed, r.Total, (time.Duration(r.DurationMs) * time.Millisecond).Round(100*time.Millisecond), r.URL)
	case p.Batch != nil:
		b := p.Batch
		quarantined := ""
		if n := b.Counts["quarantined"]; n > 0 {
			quarantined = fmt.Sprintf(" (%d quarantined)", n)
		}
		by := ""
		if b.Schedule != nil {
			by = " (schedule " + slackEscape(b.Schedule.Name) + ")"
		}
		text = fmt.Sprintf("%s Batch of %d runs%s %s in %s: %d passed, %d did not%s <%s|Open the batch>", statusIcon[b.Status], b.Total, by, b.Status,
			project, b.Passed, b.Failed, quarantined, b.URL)
	default:
		text = "Webhook test from " + project + ": this webhook works."
	}
	return slack{Text: text, Blocks: []slackBlock{{Type: "section", Text: slackText{Type: "mrkdwn", Text: text}}}}
}
