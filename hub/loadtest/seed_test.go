package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/auth"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

const password = "load test password"

// world is what the test seeds: accounts, a project, agents with tokens.
type world struct {
	st      *store.Store
	project string
	// lat starts the timed runs (its warm agent answers them) and is the
	// session every subscriber shares; live owns the runs subscribers
	// watch (it has no agent, so they stay queued); burst starts the 200.
	lat, live, burst  string // user ids
	latEmail          string
	liveEmail         string
	burstEmail        string
	warm              string   // lat's agent token
	idle, burstAgents []string // tokens
}

// seed prepares the database before the hub starts: the accounts and
// their organization through the store, and the agents as the hub's own
// pairing makes them (a pairing code, approved: an agent with a token
// digest).
func seed(b *testing.B, pool *pgxpool.Pool, idleAgents, idleUsers, burstAgents int) *world {
	ctx := context.Background()
	if err := store.Migrate(ctx, pool); err != nil {
		b.Fatal(err)
	}
	w := &world{st: store.New(pool)}
	hash, err := auth.DefaultHasher.Hash(password)
	if err != nil {
		b.Fatal(err)
	}
	user := func(name, hash string) (string, string) {
		email := fmt.Sprintf("%s@load.test", name)
		u, err := w.st.CreateUser(ctx, store.NewUser{ID: ids.New(ids.User), Email: email, Name: name, PasswordHash: hash})
		if err != nil {
			b.Fatal(err)
		}
		return u.ID, email
	}
	w.lat, w.latEmail = user("latency", hash)
	w.live, w.liveEmail = user("live", hash)
	w.burst, w.burstEmail = user("burst", hash)
	org, err := w.st.CreateOrg(ctx, ids.New("org"), "Load", w.lat)
	if err != nil {
		b.Fatal(err)
	}
	for _, u := range []string{w.live, w.burst} {
		if err := w.st.AddOrgMember(ctx, org.ID, u, access.Tester); err != nil {
			b.Fatal(err)
		}
	}
	p, err := w.st.CreateProject(ctx, ids.New("prj"), org.ID, "Load")
	if err != nil {
		b.Fatal(err)
	}
	w.project = p.ID
	owners := make([]string, idleUsers)
	for i := range owners {
		owners[i], _ = user(fmt.Sprintf("idle%d", i), "x") // never signs in
	}
	w.warm = pairAgents(b, w.st, []string{w.lat})[0]
	idleOwners := make([]string, idleAgents)
	for i := range idleOwners {
		idleOwners[i] = owners[i%len(owners)]
	}
	w.idle = pairAgents(b, w.st, idleOwners)
	burstOwners := make([]string, burstAgents)
	for i := range burstOwners {
		burstOwners[i] = w.burst
	}
	w.burstAgents = pairAgents(b, w.st, burstOwners)
	// Settle what seeding wrote, so that neither side of the comparison
	// pays for it: statistics, and dirty pages flushed now rather than by
	// a checkpoint in the middle of a measurement.
	for _, sql := range []string{"VACUUM ANALYZE", "CHECKPOINT"} {
		if _, err := pool.Exec(ctx, sql); err != nil {
			b.Fatal(err)
		}
	}
	return w
}

// pairAgents pairs one agent per owner, as an approved pairing code
// does, and returns their tokens.
func pairAgents(b *testing.B, st *store.Store, owners []string) []string {
	tokens := make([]string, len(owners))
	var wg sync.WaitGroup
	work := make(chan int)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				ctx := context.Background()
				now := time.Now()
				code := ids.New("lt") // unique; the store does not read it
				if err := st.CreatePairing(ctx, store.Pairing{Code: code, Hostname: fmt.Sprintf("load-%d", i), OS: "linux",
					CreatedAt: now, ExpiresAt: now.Add(time.Minute)}); err != nil {
					b.Error(err)
					continue
				}
				token, digest := auth.NewToken()
				if _, err := st.ApprovePairing(ctx, code, ids.New("agt"), owners[i], digest, now); err != nil {
					b.Error(err)
					continue
				}
				tokens[i] = token
			}
		}()
	}
	for i := range owners {
		work <- i
	}
	close(work)
	wg.Wait()
	if b.Failed() {
		b.FailNow()
	}
	return tokens
}

// client is one signed-in browser.
type client struct {
	base string
	http *http.Client
}

func login(b *testing.B, base, email string, transport http.RoundTripper) *client {
	jar, _ := cookiejar.New(nil)
	c := &client{base: base, http: &http.Client{Jar: jar, Transport: transport}}
	if status, body := c.do("POST", "/api/auth/login", "", map[string]string{"email": email, "password": password}); status != 200 {
		b.Fatalf("sign in as %s: %d %s", email, status, body)
	}
	return c
}

// do sends a JSON request in the project (when given) and answers the
// status and body; a transport error is status 0.
func (c *client) do(method, path, project string, body any) (int, []byte) {
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, c.base+path, rd)
	req.Header.Set("Content-Type", "application/json")
	if project != "" {
		req.Header.Set("x-project-id", project)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, []byte(err.Error())
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

// createTest makes the one-step test every run runs.
func (c *client) createTest(b *testing.B, project string) string {
	status, body := c.do("POST", "/api/tests", project, map[string]any{"dsl": 2, "name": "Load", "steps": []map[string]any{
		{"id": "s1", "type": "navigate", "url": "https://example.com/"}}})
	var out struct{ ID string }
	if status != 201 || json.Unmarshal(body, &out) != nil || out.ID == "" {
		b.Fatalf("create test: %d %s", status, body)
	}
	return out.ID
}

// startRun posts a run and answers its id.
func (c *client) startRun(project, testID string) (string, error) {
	status, body := c.do("POST", "/api/runs", project, map[string]any{"testId": testID, "screenshots": false})
	var out struct{ RunID string }
	if status != 201 || json.Unmarshal(body, &out) != nil || out.RunID == "" {
		return "", fmt.Errorf("POST /api/runs: %d %s", status, body)
	}
	return out.RunID, nil
}
