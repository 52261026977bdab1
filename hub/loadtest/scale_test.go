package loadtest

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// knob is an environment override of a figure of the load, for trying the
// tool out small (LOADTEST_AGENTS=50 ...).
func knob(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// BenchmarkScale is issue 15's load on one hub (see the package comment).
// It prints a table: each figure under load beside the same figure of the
// same hub, in the same run, before the load was connected. Targets: hub
// RSS under 300 MB, run start p99 under 50 ms. Run it once: -benchtime 1x.
func BenchmarkScale(b *testing.B) {
	var (
		agents      = knob("LOADTEST_AGENTS", 1000)
		subs        = knob("LOADTEST_SUBSCRIBERS", 1000)
		liveRuns    = knob("LOADTEST_LIVE_RUNS", 100)
		idleUsers   = knob("LOADTEST_IDLE_USERS", 100)
		samples     = knob("LOADTEST_SAMPLES", 300)
		interval    = time.Duration(knob("LOADTEST_INTERVAL_MS", 250)) * time.Millisecond
		burstRuns   = knob("LOADTEST_BURST_RUNS", 200)
		burstAgents = knob("LOADTEST_BURST_AGENTS", 20)
		profiles    = os.Getenv("LOADTEST_PROFILES") // a folder: the hub's heap and goroutine profiles under load
	)
	const warmup, width = 10, 64
	files := raiseFileLimit(b)
	dir := tempDir(b)
	dbURL := startDatabase(b, dir)
	pool, err := pgxpool.New(context.Background(), dbURL)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Close)
	w := seed(b, pool, agents, idleUsers, burstAgents)
	var pgVersion string
	if err := pool.QueryRow(context.Background(), "SHOW server_version").Scan(&pgVersion); err != nil {
		b.Fatal(err)
	}
	loadAvgStart := loadAvg()
	hub := startHub(b, dir, dbURL)
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel) // before the hub stops: the agents and streams end first
	transport := &http.Transport{MaxIdleConnsPerHost: width, DisableCompression: true}
	lat := login(b, hub.url, w.latEmail, transport)
	live := login(b, hub.url, w.liveEmail, transport)
	bc := login(b, hub.url, w.burstEmail, transport)
	testID := lat.createTest(b, w.project)
	idleHub := hub.stats(b)
	if profiles != "" {
		hub.saveProfiles(b, profiles, "idle")
	}

	warm, err := connectAgents(ctx, hub.url, []string{w.warm}, 1, 1)
	if err != nil {
		b.Fatal(err)
	}
	timer := newStartTimer(warm[0])
	anchor := timer.measure(b, lat, w.project, testID, samples, warmup, interval)

	runs := make([]string, liveRuns)
	for i := range runs {
		if runs[i], err = live.startRun(w.project, testID); err != nil {
			b.Fatal(err)
		}
	}
	loadStart := time.Now()
	idle, err := connectAgents(ctx, hub.url, w.idle, 1, width)
	if err != nil {
		b.Fatalf("connecting %d agents: %v", agents, err)
	}
	agentsIn := time.Since(loadStart)
	watchers, err := subscribe(ctx, lat, runs, subs, width)
	if err != nil {
		b.Fatalf("opening %d event streams: %v", subs, err)
	}
	loadIn := time.Since(loadStart)
	time.Sleep(2 * time.Second)
	loaded := hub.stats(b)
	if profiles != "" {
		hub.saveProfiles(b, profiles, "loaded")
	}
	under := timer.measure(b, lat, w.project, testID, samples, warmup, interval)
	measured := hub.stats(b)
	if slow := knob("LOADTEST_SLOW", 0); slow > 0 { // ms: list the samples slower than this
		hubStart := anchor.at[0]
		for _, side := range []struct {
			name string
			l    latencies
		}{{"no load", anchor}, {"loaded", under}} {
			for i, d := range side.l.started {
				if d > time.Duration(slow)*time.Millisecond {
					fmt.Printf("slow (%s): t+%.1fs post %v assign %v started %v\n", side.name, side.l.at[i].Sub(hubStart).Seconds(),
						side.l.post[i].Round(time.Millisecond/10), side.l.assign[i].Round(time.Millisecond/10), d.Round(time.Millisecond/10))
				}
			}
		}
		fmt.Printf("load connected at t+%.1fs\n", loadStart.Sub(hubStart).Seconds())
	}

	burstConns, err := connectAgents(ctx, hub.url, w.burstAgents, 1, width)
	if err != nil {
		b.Fatal(err)
	}
	br := burst(b, bc, pool, w.burst, w.project, testID, burstRuns, 3*time.Minute)
	var burstAssigns int64
	for _, a := range burstConns {
		burstAssigns += a.assigns.Load()
	}
	end := hub.stats(b)
	if profiles != "" {
		hub.saveProfiles(b, profiles, "end")
	}
	idleLeft, watchersLeft := connected(idle), watchers.open.Load()
	var idleAssigns int64
	for _, a := range idle {
		idleAssigns += a.assigns.Load()
	}

	mb := func(n int64) string { return fmt.Sprintf("%.0f MB", float64(n)/(1<<20)) }
	ms := func(d []time.Duration) string { return fmt.Sprintf("%.1f / %.1f ms", pct(d, 50), pct(d, 99)) }
	loadName := fmt.Sprintf("%d agents + %d SSE", agents, subs)
	fmt.Printf("\nOne hub under load: the hub binary as a child process; PostgreSQL %s, a private cluster with durable commits; %d CPUs\n",
		pgVersion, runtime.NumCPU())
	fmt.Printf("shared with whatever else runs here: load average %s at the start, %s at the end\n", loadAvgStart, loadAvg())
	fmt.Printf("child hub: HUB_MAX_CONNS_PER_ADDR=0 (all load comes from 127.0.0.1), open-file limit %d; %d idle agents of %d users, %d subscribers on %d queued runs\n",
		files, agents, idleUsers, subs, liveRuns)
	fmt.Printf("load connected in %.1f s (agents %.1f s); run starts: %d timed after %d warm-up, one every %s, each side\n\n",
		loadIn.Seconds(), agentsIn.Seconds(), samples, warmup, interval)
	fmt.Printf("| %-38s | %-18s | %-28s | %-11s |\n", "figure", "no load (anchor)", loadName, "target")
	fmt.Printf("|%s|%s|%s|%s|\n", dashes(40), dashes(20), dashes(30), dashes(13))
	row := func(name, a, l, t string) { fmt.Printf("| %-38s | %-18s | %-28s | %-11s |\n", name, a, l, t) }
	row("hub RSS (VmRSS)", mb(idleHub.RSS), mb(loaded.RSS)+", after timing "+mb(measured.RSS), "< 300 MB")
	row("  of which anonymous (RssAnon)", mb(idleHub.Anon), mb(loaded.Anon)+", after timing "+mb(measured.Anon), "")
	row("  Go heap live / goroutine stacks", mb(idleHub.Heap)+" / "+mb(idleHub.Stacks), mb(loaded.Heap)+" / "+mb(loaded.Stacks), "")
	row("hub goroutines", strconv.Itoa(idleHub.Goroutines), strconv.Itoa(loaded.Goroutines), "")
	row("hub open files", strconv.Itoa(idleHub.Files), strconv.Itoa(loaded.Files), "")
	row("POST /api/runs answered p50 / p99", ms(anchor.post), ms(under.post), "")
	row("POST to assign at the agent p50 / p99", ms(anchor.assign), ms(under.assign), "p99 < 50 ms")
	row("POST to run.started on SSE p50 / p99", ms(anchor.started), ms(under.started), "p99 < 50 ms")
	fmt.Printf("(RSS is as the system sees it: with no load it still holds pages of the three sign-ins just before, 32 MB of scrypt each,\n")
	fmt.Printf(" which Go returns to the system slowly; the heap is measured after a collection)\n")
	fmt.Printf("(p99 of %d samples is the %s slowest: a stall of the machine shows there first, on either side)\n", samples, ordinal(samples-int(float64(samples)*0.99+0.5)+1))
	fmt.Printf("\nBurst, with the load above still connected: %d runs posted at once over %d agents (one run at a time each)\n",
		br.runs, burstAgents)
	fmt.Printf("  accepted %d/%d, finished passed %d, finished otherwise %d, still queued or running %d, assigns %d (one per run: %d)\n",
		br.accepted, br.runs, br.passed, br.other, br.open, burstAssigns, br.runs)
	fmt.Printf("  wall time, first POST to last finish: %.2f s (all POSTs answered in %.2f s)\n", br.wall.Seconds(), br.posted.Seconds())
	fmt.Printf("  hub RSS after %s (anonymous %s), peak over the whole run (VmHWM) %s, goroutines %d\n", mb(end.RSS), mb(end.Anon), mb(end.Peak), end.Goroutines)
	fmt.Printf("  still connected at the end: %d/%d idle agents (runs given to them: %d), %d/%d event streams\n\n",
		idleLeft, agents, idleAssigns, watchersLeft, subs)

	b.ReportMetric(float64(loaded.RSS)/(1<<20), "rss-MB")
	b.ReportMetric(float64(end.Peak)/(1<<20), "peak-rss-MB")
	b.ReportMetric(float64(loaded.Goroutines), "goroutines")
	b.ReportMetric(pct(under.assign, 99), "assign-p99-ms")
	b.ReportMetric(pct(anchor.assign, 99), "anchor-assign-p99-ms")
	b.ReportMetric(pct(under.started, 99), "started-p99-ms")
	b.ReportMetric(pct(anchor.started, 99), "anchor-started-p99-ms")
	b.ReportMetric(float64(br.passed), "burst-passed")
	b.ReportMetric(br.wall.Seconds(), "burst-s")
	if br.passed != br.runs || idleLeft != agents || watchersLeft != int64(subs) || idleAssigns != 0 {
		b.Errorf("lost: %d of %d burst runs did not pass; %d agents and %d streams of %d and %d dropped; idle agents got %d runs",
			br.runs-br.passed, br.runs, agents-idleLeft, int64(subs)-watchersLeft, agents, subs, idleAssigns)
	}
}

// loadAvg is the machine's 1, 5 and 15 minute load averages.
func loadAvg() string {
	data, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return strconv.Itoa(n) + "th"
}

func dashes(n int) string {
	s := make([]byte, n)
	for i := range s {
		s[i] = '-'
	}
	return string(s)
}
