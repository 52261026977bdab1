package api

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

// ScheduleInterval is how often every hub looks for due schedules; a
// schedule created or changed on this hub wakes it at once.
const ScheduleInterval = 15 * time.Second

// RunSchedules starts the batches of due schedules until ctx ends. Every
// hub runs it: FireSchedules claims each due time with a row lock, so
// however many hubs look at once, each due time starts one batch.
func (s *Server) RunSchedules(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := s.FireSchedules(ctx, s.Now()); err != nil && ctx.Err() == nil {
			s.log.Warn("schedules", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.schedWake:
		}
	}
}

// FireSchedules handles every schedule due at now (the tests' fake clock
// calls it directly) and answers what it did. Each due time is claimed,
// decided and written in one transaction (store.FireDueSchedules): the
// batch and its runs, the record of the due time and the next time.
func (s *Server) FireSchedules(ctx context.Context, now time.Time) ([]store.Firing, error) {
	fired, err := s.store.FireDueSchedules(ctx, now, func(ctx context.Context, c store.Schedule) (store.Firing, error) {
		return s.fireSchedule(ctx, c, now)
	})
	if s.Dispatch != nil {
		kicked := map[string]bool{}
		for _, f := range fired {
			if f.Batch != nil && !kicked[f.Batch.UserID] {
				kicked[f.Batch.UserID] = true
				go s.Dispatch.Kick(context.WithoutCancel(ctx), f.Batch.UserID)
			}
		}
	}
	return fired, err
}

// maxMissedCount bounds the count of missed times a skip reports.
const maxMissedCount = 10000

// fireSchedule decides one due time of c at now. A due time less than one
// period late (the period is the cron's interval at that time: the next
// time after it minus it) starts its batch; later than that the hub was
// down over it, and it is recorded skipped. Either way the next time is
// the first after now, so missed times never pile up into a burst.
func (s *Server) fireSchedule(ctx context.Context, c store.Schedule, now time.Time) (store.Firing, error) {
	f := store.Firing{Run: store.ScheduleRun{DueAt: c.NextAt, CreatedAt: now}}
	var issues issueList
	times, ok := parseCron(&issues, c.Cron, c.Timezone, now)
	if !ok { // stored valid; a zone database change could still break it
		f.Run.Status, f.Run.Reason = "failed", "the cron or time zone is no longer valid: "+issues[0].Message
		f.NextAt = now.Add(24 * time.Hour)
		return f, nil
	}
	f.NextAt = times.next(now)
	if f.NextAt.IsZero() {
		f.NextAt = now.Add(24 * time.Hour)
	}
	if after := times.next(c.NextAt); !after.IsZero() && !now.Before(c.NextAt.Add(after.Sub(c.NextAt))) {
		missed := 0
		for t := c.NextAt; !t.IsZero() && !t.After(now) && missed < maxMissedCount; t = times.next(t) {
			missed++
		}
		f.Run.Status = "skipped"
		f.Run.Reason = fmt.Sprintf("no hub was running at %s: %d time(s) missed; a missed time runs only when less than one period late",
			c.NextAt.In(times.spec.Location).Format(time.RFC3339), missed)
		return f, nil
	}
	b, reason, err := s.planScheduled(ctx, c, now)
	if err != nil {
		return f, err
	}
	if reason != "" {
		f.Run.Status, f.Run.Reason = "failed", reason
		return f, nil
	}
	f.Run.Status, f.Batch = "started", &b.batch
	f.Runs = b.runs
	return f, nil
}

type scheduledBatch struct {
	batch store.Batch
	runs  []store.Run
}

// planScheduled plans c's batch as its owner would start it now, or says
// why it cannot start: the owner is gone or no longer may run tests, the
// target has no test the owner can run, or a test cannot run (every
// reason, as POST /api/runs would list them; nothing half-starts).
func (s *Server) planScheduled(ctx context.Context, c store.Schedule, now time.Time) (scheduledBatch, string, error) {
	if c.UserID == "" {
		return scheduledBatch{}, "its owner's account was deleted: a Test Manager may create it again as theirs", nil
	}
	p, role, err := s.store.ProjectRole(ctx, c.ProjectID, c.UserID)
	if err != nil && err != store.ErrNotFound {
		return scheduledBatch{}, "", err
	}
	if err != nil || !access.Allows(role, access.RunTests) {
		return scheduledBatch{}, fmt.Sprintf("its owner %s is no longer a member of the project allowed to run tests", ownerName(c)), nil
	}
	b := store.Batch{ID: ids.New(kindBatch), ProjectID: c.ProjectID, UserID: c.UserID, EnvironmentID: c.EnvironmentID, Headed: c.Headed,
		Screenshots: c.Screenshots, Device: c.Device, Trace: c.Trace, Retries: c.Retries, Source: c.Target, CreatedAt: now}
	path, testIDs := "testIds", c.TestIDs
	switch c.Target {
	case "suite":
		b.Suite, path = c.Suite, "tests"
		testIDs, err = s.store.SuiteTestIDs(ctx, c.ProjectID, c.UserID, c.Suite, maxBatchTests+1)
	case "tag":
		b.Tag, path = c.Tag, "tests"
		testIDs, err = s.store.TagTestIDs(ctx, c.ProjectID, c.UserID, c.Tag, maxBatchTests+1)
	}
	if err != nil {
		return scheduledBatch{}, "", err
	}
	if len(testIDs) == 0 {
		return scheduledBatch{}, fmt.Sprintf("its %s has no test its owner can run", c.Target), nil
	}
	// Stored ids were checked when saved; one moved out of reach since is
	// just unknown, with nobody's request to audit.
	owner := principal{userID: c.UserID, sc: scope{Project: p, Role: role}}
	plan, err := s.planBatch(ctx, owner, b, path, testIDs, agentChoice{c.AgentID, c.Labels})
	if err != nil {
		return scheduledBatch{}, "", err
	}
	if len(plan.issues) > 0 {
		reasons := make([]string, 0, len(plan.issues))
		for _, is := range plan.issues {
			reasons = append(reasons, is.Message)
		}
		return scheduledBatch{}, plan.message + ": " + strings.Join(reasons, "; "), nil
	}
	return scheduledBatch{batch: b, runs: plan.runs}, "", nil
}

func ownerName(c store.Schedule) string {
	if c.UserName != "" {
		return fmt.Sprintf("%q", c.UserName)
	}
	return c.UserID
}
