package runner

import (
	"context"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

// BenchmarkTraceCost runs the 20 steps of BenchmarkRun20Steps with the
// trace off and at its default (failures: console and network of every
// step, a snapshot after every step held in memory) in turns, in the same
// benchmark, and reports the ratio of their times: issue 30 wants at most
// 1.10.
func BenchmarkTraceCost(b *testing.B) {
	doc := benchDoc(b)
	ctx := context.Background()
	var off, def time.Duration
	runs := 0
	for b.Loop() {
		modes := []string{protocol.TraceOff, ""}
		if runs%2 == 1 { // neither always first
			modes[0], modes[1] = modes[1], modes[0]
		}
		for _, mode := range modes {
			start := time.Now()
			res := testBrowser.Run(ctx, protocol.Job{Version: 1, Document: doc, Trace: mode}, discard{})
			if res.Status != protocol.RunPassed {
				b.Fatalf("trace %q: %s: %s", mode, res.Status, res.Error)
			}
			if mode == protocol.TraceOff {
				off += time.Since(start)
			} else {
				def += time.Since(start)
			}
		}
		runs++
	}
	b.ReportMetric(float64(off.Microseconds())/1000/float64(runs), "off-ms/run")
	b.ReportMetric(float64(def.Microseconds())/1000/float64(runs), "failures-ms/run")
	b.ReportMetric(float64(def)/float64(off), "failures/off")
}
