package webhooks

import (
	"strings"
	"testing"
)

// Slack's one-line summary of a batch says how many of its runs were
// quarantined, and says nothing of quarantine when none was.
func TestSlackSummaryCountsQuarantined(t *testing.T) {
	b := &BatchPayload{BatchID: "bat_1", Status: "passed", Passed: 2, Failed: 1, Total: 3, URL: "https://hub/batches/bat_1",
		Counts: map[string]int{"passed": 2, "failed": 1, "quarantined": 1}}
	text := slackMessage(Payload{Project: ProjectRef{Name: "Shop"}, Batch: b}).Text
	if !strings.HasPrefix(text, "✅ Batch of 3 runs passed in Shop: 2 passed, 1 did not (1 quarantined) <") {
		t.Errorf("with a quarantined run: %q", text)
	}
	b.Counts["quarantined"], b.Status = 0, "failed"
	if text := slackMessage(Payload{Project: ProjectRef{Name: "Shop"}, Batch: b}).Text; strings.Contains(text, "quarantined") {
		t.Errorf("without: %q", text)
	}
}
