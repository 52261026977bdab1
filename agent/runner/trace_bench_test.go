package runner

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

// BenchmarkTraceCost runs the 20 steps of BenchmarkRun20Steps with the
// trace off and at its default (failures: console and network of every
// step, a snapshot after every step held in memory) in turns, in the same
// benchmark, and reports the ratio of their times: issue 30 wants at most
// 1.10. failures/off is the median of the pairs' ratios: on a machine
// busy with other work, a pause in one run would weigh as much as the
// trace in a ratio of sums (reported too, as sum-ratio).
func BenchmarkTraceCost(b *testing.B) {
	doc := benchDoc(b)
	ctx := context.Background()
	var off, def time.Duration
	var ratios []float64
	runs := 0
	for b.Loop() {
		modes := []string{protocol.TraceOff, ""}
		if runs%2 == 1 { // neither always first
			modes[0], modes[1] = modes[1], modes[0]
		}
		var took [2]time.Duration // off, default
		for _, mode := range modes {
			start := time.Now()
			res := testBrowser.Run(ctx, protocol.Job{Version: 1, Document: doc, Trace: mode}, discard{})
			if res.Status != protocol.RunPassed {
				b.Fatalf("trace %q: %s: %s", mode, res.Status, res.Error)
			}
			if mode == protocol.TraceOff {
				took[0] = time.Since(start)
			} else {
				took[1] = time.Since(start)
			}
		}
		off, def = off+took[0], def+took[1]
		ratios = append(ratios, float64(took[1])/float64(took[0]))
		runs++
	}
	b.ReportMetric(float64(off.Microseconds())/1000/float64(runs), "off-ms/run")
	b.ReportMetric(float64(def.Microseconds())/1000/float64(runs), "failures-ms/run")
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "failures/off")
	b.ReportMetric(float64(def)/float64(off), "sum-ratio")
}
