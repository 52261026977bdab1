package ci

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/protocol"
)

// Run runs the command and returns its exit code. ctx ending (Ctrl-C)
// cancels the runs it started.
func Run(ctx context.Context, o Options, env Env) int {
	c := &command{o: o, env: env, api: newHubAPI(o.Hub, o.Token, o.HubWait).with(o.Hubs), out: newPrinter(env.Out, env.Terminal)}
	code, err := c.run(ctx)
	if err != nil {
		c.out.fail(err)
	}
	return code
}

type command struct {
	o   Options
	env Env
	api *hubAPI
	out *printer

	project   project
	agentID   string // the ephemeral agent's, "" with --remote
	stopAgent func()
}

type project struct {
	ID, Name, Org string
}

func (c *command) run(ctx context.Context) (int, error) {
	// The deadline is the command's own; Ctrl-C is ctx ending.
	wctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	if err := c.chooseProject(wctx); err != nil {
		return ExitError, err
	}
	envID, envName, err := c.environment(wctx)
	if err != nil {
		return ExitError, err
	}
	dataSetID, err := c.dataSet(wctx)
	if err != nil {
		return ExitError, err
	}
	if !c.o.Remote {
		if err := c.startAgent(wctx); err != nil {
			return ExitError, err
		}
		defer c.removeAgent()
	}
	started, err := c.start(wctx, envID, dataSetID)
	if err != nil {
		return ExitError, err
	}
	c.out.header(c.describe(envName, len(started.runs)), started.batchURL)
	results := c.followAll(wctx, started.runs)
	interrupted := wctx.Err() != nil
	if interrupted {
		why := "interrupted"
		if ctx.Err() == nil {
			why = "--timeout " + c.o.Timeout.String() + " passed"
		}
		c.out.line(why + ": cancelling the runs that have not finished")
		c.cancelAll(results)
	}
	c.out.summary(results)
	var lost, refused error
	for _, r := range results {
		var gone *hubGoneError
		var ae *apiError
		switch err := r.get().err; {
		case errors.As(err, &gone):
			lost = err
		case errors.As(err, &ae) && ae.Status == 401:
			refused = err // revoked or expired while the runs went on
		}
	}
	if c.o.JUnit != "" {
		if err := c.writeJUnit(results); err != nil {
			return ExitError, err
		}
		c.out.line("JUnit report: " + c.o.JUnit)
	}
	if lost != nil {
		return ExitError, fmt.Errorf("%w: the runs' results are unknown; see them on the hub once it is back", lost)
	}
	if refused != nil {
		return ExitError, fmt.Errorf("the hub stopped taking this command's API token: %w", refused)
	}
	return exitCode(results, interrupted), nil
}

// exitCode: 2 when a run could not complete (error, cancelled, unknown),
// else 1 when a test failed, else 0. A run that ended failed or in error
// while its test was quarantined counts as passed (docs/history.md).
func exitCode(results []*runState, interrupted bool) int {
	code := ExitPassed
	if interrupted {
		return ExitError
	}
	for _, r := range results {
		s := r.get()
		switch {
		case s.quarantined() && (s.status == protocol.RunFailed || s.status == protocol.RunError):
		case s.status == protocol.RunPassed:
		case s.status == protocol.RunFailed:
			code = max(code, ExitFailed)
		default:
			return ExitError
		}
	}
	return code
}

func (c *command) describe(envName string, n int) string {
	what := ""
	switch {
	case c.o.suiteSet:
		what = fmt.Sprintf("suite %q", c.o.Suite)
		if c.o.Suite == "" {
			what = "the Unsorted tests"
		}
	case c.o.tagSet:
		what = fmt.Sprintf("tag %q", c.o.Tag)
	default:
		what = fmt.Sprintf("%d chosen test(s)", len(c.o.Tests))
	}
	where := fmt.Sprintf("here (headless Chromium, %d at a time)", c.o.Parallel)
	if c.o.Remote {
		where = "on your paired agents"
	}
	against := ""
	if envName != "" {
		against = fmt.Sprintf(" against %q", envName)
	}
	return fmt.Sprintf("%d run(s) of %s in project %q%s, %s", n, what, c.project.Name, against, where)
}

// chooseProject finds the project: --project by id or name among the
// token's projects, else the only one.
func (c *command) chooseProject(ctx context.Context) error {
	var cx struct {
		User struct {
			Email string `json:"email"`
		} `json:"user"`
		Organizations []struct {
			Name     string `json:"name"`
			Projects []struct {
				ID   string `json:"id"`
				Name string `json:"name"`
			} `json:"projects"`
		} `json:"organizations"`
	}
	if err := c.api.do(ctx, "GET", "/api/context", nil, &cx); err != nil {
		return describeAPI(err)
	}
	var all, match []project
	for _, o := range cx.Organizations {
		for _, p := range o.Projects {
			pr := project{ID: p.ID, Name: p.Name, Org: o.Name}
			all = append(all, pr)
			if c.o.Project != "" && (p.ID == c.o.Project || strings.EqualFold(p.Name, c.o.Project)) {
				match = append(match, pr)
			}
		}
	}
	if c.o.Project == "" {
		match = all
	}
	switch {
	case len(all) == 0:
		return errors.New("this token reaches no project: is its user a member of one?")
	case len(match) == 1:
		c.project = match[0]
		c.api.project = match[0].ID
		return nil
	case len(match) == 0:
		return fmt.Errorf("no project %q for this token; it reaches: %s", c.o.Project, names(all))
	case c.o.Project == "":
		return fmt.Errorf("this token reaches %d projects (%s): name one with --project", len(all), names(all))
	}
	return fmt.Errorf("%d projects are called %q (%s): use the project's id with --project", len(match), c.o.Project, names(match))
}

func names(ps []project) string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%q (%s, %s)", p.Name, p.ID, p.Org))
	}
	return strings.Join(out, ", ")
}

// named is a record with an id and a name.
type named struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// pick finds a record by id, by exact name, then by name ignoring case;
// none or several is an error naming what exists.
func pick(kind, want string, all []named) (named, error) {
	var exact, folded []named
	for _, r := range all {
		switch {
		case r.ID == want || r.Name == want:
			exact = append(exact, r)
		case strings.EqualFold(r.Name, want):
			folded = append(folded, r)
		}
	}
	if len(exact) == 0 {
		exact = folded
	}
	switch len(exact) {
	case 1:
		return exact[0], nil
	case 0:
		var have []string
		for _, r := range all {
			have = append(have, fmt.Sprintf("%q", r.Name))
		}
		if len(have) == 0 {
			return named{}, fmt.Errorf("no %s %q: this project has none", kind, want)
		}
		return named{}, fmt.Errorf("no %s %q in this project; there are: %s", kind, want, strings.Join(have, ", "))
	}
	var ids []string
	for _, r := range exact {
		ids = append(ids, fmt.Sprintf("%q (%s)", r.Name, r.ID))
	}
	return named{}, fmt.Errorf("%d %ss match %q: %s; use the id", len(exact), kind, want, strings.Join(ids, ", "))
}

func (c *command) environment(ctx context.Context) (id, name string, err error) {
	if c.o.Environment == "" {
		return "", "", nil
	}
	var list struct {
		Environments []named `json:"environments"`
	}
	if err := c.api.do(ctx, "GET", "/api/environments", nil, &list); err != nil {
		return "", "", describeAPI(err)
	}
	e, err := pick("environment", c.o.Environment, list.Environments)
	return e.ID, e.Name, err
}

func (c *command) dataSet(ctx context.Context) (string, error) {
	if c.o.DataSet == "" {
		return "", nil
	}
	var list struct {
		DataSets []named `json:"dataSets"`
	}
	if err := c.api.do(ctx, "GET", "/api/test-data", nil, &list); err != nil {
		return "", describeAPI(err)
	}
	d, err := pick("test data set", c.o.DataSet, list.DataSets)
	return d.ID, err
}

// startAgent joins the hub as an ephemeral agent and waits until the hub
// has welcomed it.
func (c *command) startAgent(ctx context.Context) error {
	runner, stopBrowser, err := c.env.Local(ctx)
	if err != nil {
		return fmt.Errorf("start the browser for the tests: %w", err)
	}
	dir, err := os.MkdirTemp("", "ta-agent-ci-")
	if err != nil {
		stopBrowser()
		return err
	}
	logOut := c.env.AgentLog
	if logOut == nil {
		logOut = io.Discard
	}
	welcomed := make(chan string, 1)
	cl := client.New(client.Config{HubURL: c.o.Hub, Hubs: c.o.Hubs, ConfigDir: dir, Hostname: c.env.Hostname, OS: c.env.OS, Arch: c.env.Arch,
		Version: c.env.Version, Parallel: c.o.Parallel, Headless: true, Runner: runner, APIToken: c.o.Token,
		Logger: slog.New(slog.NewTextHandler(logOut, nil)),
		OnState: func(s client.State) {
			if s.Phase == "connected" && s.AgentID != "" {
				select {
				case welcomed <- s.AgentID:
				default:
				}
			}
		}})
	actx, stop := context.WithCancel(context.WithoutCancel(ctx))
	var runErr error
	exited := make(chan struct{}) // closed when cl.Run has returned runErr
	go func() { runErr = cl.Run(actx); close(exited) }()
	c.stopAgent = func() {
		stop()
		<-exited
		stopBrowser()
		os.RemoveAll(dir)
	}
	fail := func(err error) error {
		c.stopAgent()
		c.stopAgent = nil
		return err
	}
	wait := time.NewTimer(c.o.HubWait)
	defer wait.Stop()
	select {
	case c.agentID = <-welcomed:
		return nil
	case <-exited:
		return fail(fmt.Errorf("join the hub as a CI agent: %w", runErr))
	case <-wait.C:
		return fail(fmt.Errorf("join the hub as a CI agent: the hub at %s did not welcome it within %s", c.o.Hub, c.o.HubWait))
	case <-ctx.Done():
		return fail(ctx.Err())
	}
}

// removeAgent deletes the ephemeral agent from the hub and stops it.
func (c *command) removeAgent() {
	if c.stopAgent == nil {
		return
	}
	if c.agentID != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		api := *c.api
		api.wait = 5 * time.Second
		var ae *apiError
		err := api.do(ctx, "DELETE", "/api/agent/"+url.PathEscape(c.agentID), nil, nil)
		// A refused token: the hub removed its CI agents with it.
		if err != nil && !(errors.As(err, &ae) && ae.Status == 401) {
			c.out.line("note: the hub did not remove this CI agent (" + err.Error() + "); it removes it by itself within an hour")
		}
		cancel()
	}
	c.stopAgent()
}

type started struct {
	runs     []*runState
	batchURL string
}

// start starts the runs: one batch, or with --data-set one data-driven
// run per test.
func (c *command) start(ctx context.Context, envID, dataSetID string) (started, error) {
	var out started
	body := map[string]any{"screenshots": c.o.Screenshots}
	if c.o.TraceMode != "" { // "" (Options not from ParseFlags): the hub's default
		body["trace"] = c.o.TraceMode
	}
	if c.o.Retries > 0 {
		body["retries"] = c.o.Retries
	}
	if envID != "" {
		body["environmentId"] = envID
	}
	if c.agentID != "" {
		body["agentId"] = c.agentID
	}
	if dataSetID != "" {
		for _, id := range c.o.Tests {
			b := map[string]any{"testId": id, "dataSetId": dataSetID}
			for k, v := range body {
				b[k] = v
			}
			var res struct {
				RunID string `json:"runId"`
			}
			if err := c.api.do(ctx, "POST", "/api/runs", b, &res); err != nil {
				c.cancelAll(out.runs)
				return out, fmt.Errorf("start the run of %s: %w", id, describeAPI(err))
			}
			out.runs = append(out.runs, &runState{id: res.RunID, testID: id, status: protocol.RunQueued})
		}
		return out, nil
	}
	switch {
	case c.o.suiteSet:
		body["suite"] = c.o.Suite
	case c.o.tagSet:
		body["tag"] = c.o.Tag
	default:
		body["testIds"] = c.o.Tests
	}
	var res struct {
		BatchID string `json:"batchId"`
		Runs    []struct {
			RunID  string `json:"runId"`
			TestID string `json:"testId"`
		} `json:"runs"`
	}
	if err := c.api.do(ctx, "POST", "/api/runs", body, &res); err != nil {
		return out, fmt.Errorf("start the tests: %w", describeAPI(err))
	}
	for _, r := range res.Runs {
		out.runs = append(out.runs, &runState{id: r.RunID, testID: r.TestID, status: protocol.RunQueued})
	}
	out.batchURL = c.pageURL("/batches/" + res.BatchID)
	return out, nil
}

func (c *command) pageURL(path string) string { return strings.TrimRight(c.o.Hub, "/") + path }

// cancelAll asks the hub to cancel every run not final yet.
func (c *command) cancelAll(runs []*runState) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	api := *c.api
	api.wait = 5 * time.Second
	var wg sync.WaitGroup
	for _, r := range runs {
		if protocol.Final(r.get().status) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := api.do(ctx, "POST", "/api/runs/"+r.id+"/cancel", nil, nil); err != nil {
				c.out.line(fmt.Sprintf("could not cancel %s: %v", r.id, err))
				return
			}
			// A running run ends when its agent has stopped it: wait for
			// that (briefly), so this command's agent is not removed
			// while it still holds the run.
			var st struct {
				Status string `json:"status"`
			}
			for range 75 {
				if err := api.do(ctx, "GET", "/api/runs/"+r.id, nil, &st); err != nil || protocol.Final(st.Status) {
					break
				}
				time.Sleep(200 * time.Millisecond)
			}
			r.update(func(r *runState) {
				switch {
				case protocol.Final(r.status):
				case protocol.Final(st.Status):
					r.status = st.Status
				default:
					r.status = protocol.RunCancelled
				}
			})
		}()
	}
	wg.Wait()
}

// describeAPI adds what to do to the hub's refusals that need it.
func describeAPI(err error) error {
	var ae *apiError
	if errors.As(err, &ae) && ae.Status == 401 {
		return fmt.Errorf("%w (the API token was refused: create a new one in the hub's Profile page)", err)
	}
	return err
}
