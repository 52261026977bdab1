package api

// Schedules (issue 31, docs/schedules.md): a 5-field cron in an IANA time
// zone starts a batch of a suite, a tag or chosen tests, with an
// environment and run options, as its owner (who created it) would start
// it. Members of the project read them; Test Managers and Admins
// (access.ManageSchedules) create, change, pause and delete them, each
// change leaving an audit line. schedules_fire.go starts the batches.

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/audit"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

const (
	kindSchedule      = "sch"
	scheduleNotFound  = "no such schedule, or it is not visible to you"
	scheduleInvalid   = "the schedule is not valid"
	scheduleRunsShown = 20
)

// scheduleOptions are the run options of a schedule's batches, as POST
// /api/runs takes them.
type scheduleOptions struct {
	Headed      bool     `json:"headed"`
	Screenshots *bool    `json:"screenshots"`
	Device      string   `json:"device"`
	Trace       string   `json:"trace" enum:"on|failures|off"`
	Retries     *int     `json:"retries" minimum:"0" maximum:"3"`
	AgentID     string   `json:"agentId"`
	Labels      []string `json:"labels"`
}

// scheduleInput is POST /api/schedules and PUT /api/schedules/:id: one of
// suite ("" is Unsorted), testIds or tag.
type scheduleInput struct {
	Name          string          `json:"name"`
	Cron          string          `json:"cron"`
	Timezone      string          `json:"timezone"`
	Suite         *string         `json:"suite"`
	TestIDs       []string        `json:"testIds"`
	Tag           *string         `json:"tag"`
	EnvironmentID string          `json:"environmentId"`
	Options       scheduleOptions `json:"options"`
	// Enabled: paused when false; true when absent.
	Enabled *bool `json:"enabled"`
}

// scheduleRef names the schedule that started a batch.
type scheduleRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type scheduleRunJSON struct {
	DueAt     string  `json:"dueAt"`
	Status    string  `json:"status" enum:"started|skipped|failed"`
	BatchID   *string `json:"batchId"`
	Reason    string  `json:"reason,omitempty"`
	CreatedAt string  `json:"createdAt"`
}

type scheduleJSON struct {
	ID            string   `json:"id"`
	ProjectID     string   `json:"projectId"`
	Name          string   `json:"name"`
	Cron          string   `json:"cron"`
	Timezone      string   `json:"timezone"`
	Suite         *string  `json:"suite"`
	Tag           *string  `json:"tag"`
	TestIDs       []string `json:"testIds"`
	EnvironmentID *string  `json:"environmentId"`
	Options       struct {
		Headed      bool     `json:"headed"`
		Screenshots bool     `json:"screenshots"`
		Device      string   `json:"device,omitempty"`
		Trace       string   `json:"trace" enum:"on|failures|off"`
		Retries     int      `json:"retries"`
		AgentID     string   `json:"agentId,omitempty"`
		Labels      []string `json:"labels,omitempty"`
	} `json:"options"`
	Enabled bool `json:"enabled"`
	// NextAt is when it next starts a batch (null while paused); Next
	// lists its next five times in its zone.
	NextAt    *string  `json:"nextAt"`
	Next      []string `json:"next"`
	OwnerID   string   `json:"ownerId"`
	OwnerName *string  `json:"ownerName"`
	// LastRun is the latest due time handled; Runs (GET one only) the
	// latest ones, newest first.
	LastRun   *scheduleRunJSON  `json:"lastRun"`
	Runs      []scheduleRunJSON `json:"runs,omitempty"`
	CreatedAt string            `json:"createdAt"`
	UpdatedAt string            `json:"updatedAt"`
}

func toScheduleRunJSON(r store.ScheduleRun) scheduleRunJSON {
	return scheduleRunJSON{DueAt: r.DueAt.UTC().Format(timeFormat), Status: r.Status, BatchID: strPtr(r.BatchID), Reason: r.Reason,
		CreatedAt: r.CreatedAt.UTC().Format(timeFormat)}
}

// toScheduleJSON answers a schedule; visible filters its test ids to the
// tests the reader can see (nil: all).
func toScheduleJSON(c store.Schedule, now time.Time, visible map[string]string) scheduleJSON {
	out := scheduleJSON{ID: c.ID, ProjectID: c.ProjectID, Name: c.Name, Cron: c.Cron, Timezone: c.Timezone, TestIDs: []string{},
		EnvironmentID: strPtr(c.EnvironmentID), Enabled: c.Enabled, Next: []string{}, OwnerID: c.UserID, OwnerName: strPtr(c.UserName),
		CreatedAt: c.CreatedAt.UTC().Format(timeFormat), UpdatedAt: c.UpdatedAt.UTC().Format(timeFormat)}
	switch c.Target {
	case "suite":
		suite := c.Suite
		out.Suite = &suite
	case "tag":
		out.Tag = strPtr(c.Tag)
	default:
		for _, id := range c.TestIDs {
			if visible == nil || visible[id] == c.ProjectID {
				out.TestIDs = append(out.TestIDs, id)
			}
		}
	}
	o := &out.Options
	o.Headed, o.Screenshots, o.Device, o.Trace, o.Retries, o.AgentID, o.Labels = c.Headed, c.Screenshots, c.Device, c.Trace, c.Retries, c.AgentID, c.Labels
	if c.Enabled {
		out.NextAt = timePtr(&c.NextAt)
		var issues issueList
		if times, ok := parseCron(&issues, c.Cron, c.Timezone, now); ok {
			out.Next = formatTimes(times.nextN(now, scheduleNextCount))
		}
	}
	if c.Last != nil {
		last := toScheduleRunJSON(*c.Last)
		out.LastRun = &last
	}
	return out
}

// checkSchedule checks a schedule body for the caller (sc) and the
// schedule's owner, answering the record to store (without id, times and
// owner) or the issues. Test ids must name tests of this project both can
// see; the agent must be one of the owner's.
func (s *Server) checkSchedule(r *http.Request, sc scope, in scheduleInput, owner string) (store.Schedule, issueList, error) {
	var issues issueList
	c := store.Schedule{Name: strings.TrimSpace(in.Name), Cron: strings.TrimSpace(in.Cron), Timezone: in.Timezone, EnvironmentID: in.EnvironmentID,
		Headed: in.Options.Headed, Screenshots: in.Options.Screenshots == nil || *in.Options.Screenshots, Device: in.Options.Device,
		Retries: runRequest{Retries: in.Options.Retries}.retries(), AgentID: in.Options.AgentID, Labels: in.Options.Labels, Enabled: in.Enabled == nil || *in.Enabled}
	issues.name("name", c.Name)
	parseCron(&issues, c.Cron, c.Timezone, s.Now())
	targets := 0
	if in.Suite != nil {
		targets++
		c.Target, c.Suite = "suite", *in.Suite
		if c.Suite != "" { // "" is Unsorted
			issues.suite("suite", c.Suite)
		}
	}
	if in.Tag != nil {
		targets++
		c.Target, c.Tag = "tag", strings.TrimSpace(*in.Tag)
		if c.Tag == "" || len(c.Tag) > 100 || !utf8.ValidString(c.Tag) || strings.IndexFunc(c.Tag, invisible) >= 0 {
			issues.add("tag", "invalid", "name a tag of at most 100 characters, without control characters")
		}
	}
	if in.TestIDs != nil {
		targets++
		c.Target = "tests"
		if err := s.checkScheduleTests(r, sc, &c, in.TestIDs, owner, &issues); err != nil {
			return c, nil, err
		}
	}
	switch {
	case targets == 0:
		issues.add("suite", "required", "send one of suite, testIds or tag: what the schedule runs")
	case targets > 1:
		issues.add("testIds", "exclusive", "send one of suite, testIds or tag, not several")
	}
	if c.EnvironmentID != "" {
		e, err := getByID(r.Context(), kindEnvironment, c.EnvironmentID, s.store.Environment)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return c, nil, err
		}
		if err != nil || !s.bodyRecord(r, sc, e.ProjectID) { // another project's: refused and audited
			issues.add("environmentId", "unknown", "no such environment in this project")
		}
	}
	if c.Device != "" {
		if _, ok := protocol.DeviceByName(c.Device); !ok {
			issues.add("options.device", "unknown", fmt.Sprintf("unknown device %q: use one of %s", c.Device, strings.Join(protocol.DeviceNames(), ", ")))
		}
	}
	if mode, ok := protocol.TraceMode(in.Options.Trace); ok {
		c.Trace = mode
	} else {
		issues.add("options.trace", "enum", fmt.Sprintf("trace must be one of %s", strings.Join(protocol.TraceModes, ", ")))
	}
	if in.Options.Retries != nil && (*in.Options.Retries < 0 || *in.Options.Retries > maxRetries) {
		issues.add("options.retries", "range", "retries must be 0 to 3")
	}
	choice, err := s.checkChoice(r.Context(), owner, c.AgentID, c.Labels, c.Headed)
	if err != nil {
		return c, nil, err
	}
	for _, is := range choice {
		is.Path = "options." + is.Path
		issues = append(issues, is)
	}
	return c, issues, nil
}

// checkScheduleTests checks chosen test ids: tests of this project that
// the caller and the owner can see, at most a batch's worth.
func (s *Server) checkScheduleTests(r *http.Request, sc scope, c *store.Schedule, testIDs []string, owner string, issues *issueList) error {
	if len(testIDs) == 0 {
		issues.add("testIds", codeEmptyBatch, "choose at least one test")
		return nil
	}
	if len(testIDs) > maxBatchTests {
		issues.add("testIds", "too_many", fmt.Sprintf("a batch runs at most %d tests", maxBatchTests))
		return nil
	}
	// Only well-formed ids reach the query (a NUL is no text PostgreSQL
	// takes); the others are unknown like any missing test.
	valid := make([]string, 0, len(testIDs))
	for _, id := range testIDs {
		if ids.Valid(ids.Test, id) {
			valid = append(valid, id)
		}
	}
	mine, err := s.store.VisibleTestProjects(r.Context(), valid, currentUserID(r))
	if err != nil {
		return err
	}
	owners := mine
	if owner != currentUserID(r) {
		if owners, err = s.store.VisibleTestProjects(r.Context(), valid, owner); err != nil {
			return err
		}
	}
	seen := map[string]bool{}
	for i, id := range testIDs {
		project, ok := mine[id]
		if ok && !s.bodyRecord(r, sc, project) { // another project's: refused and audited
			ok = false
		}
		if !ok || owners[id] != sc.Project.ID {
			issues.add(fmt.Sprintf("testIds[%d]", i), "unknown", fmt.Sprintf("no test %q in this project, or it is not visible to you", id))
		}
		if !seen[id] && ids.Valid(ids.Test, id) {
			seen[id] = true
			c.TestIDs = append(c.TestIDs, id)
		}
	}
	return nil
}

func (s *Server) listSchedules(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.ViewProject) {
		return
	}
	list, err := s.store.ListSchedules(r.Context(), sc.Project.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	var testIDs []string
	for _, c := range list {
		testIDs = append(testIDs, c.TestIDs...)
	}
	visible, err := s.store.VisibleTestProjects(r.Context(), testIDs, currentUserID(r))
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := make([]scheduleJSON, 0, len(list))
	for _, c := range list {
		out = append(out, toScheduleJSON(c, s.Now(), visible))
	}
	writeJSON(w, http.StatusOK, map[string]any{"schedules": out})
}

// loadSchedule resolves /schedules/{id} for a member of its project.
func (s *Server) loadSchedule(w http.ResponseWriter, r *http.Request) (store.Schedule, scope, bool) {
	return loadVisible(s, w, r, kindSchedule, chi.URLParam(r, "id"), scheduleNotFound, s.store.GetSchedule,
		func(c store.Schedule) string { return c.ProjectID },
		func(store.Schedule) (bool, string) { return false, "" })
}

func (s *Server) getSchedule(w http.ResponseWriter, r *http.Request) {
	c, _, ok := s.loadSchedule(w, r)
	if !ok {
		return
	}
	s.writeSchedule(w, r, http.StatusOK, c.ID)
}

// writeSchedule answers the stored schedule id with its latest due times.
func (s *Server) writeSchedule(w http.ResponseWriter, r *http.Request, status int, id string) {
	c, err := s.store.GetSchedule(r.Context(), id)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	runs, err := s.store.ScheduleRuns(r.Context(), id, scheduleRunsShown)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	visible, err := s.store.VisibleTestProjects(r.Context(), c.TestIDs, currentUserID(r))
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if len(runs) > 0 {
		c.Last = &runs[0]
	}
	out := toScheduleJSON(c, s.Now(), visible)
	out.Runs = make([]scheduleRunJSON, 0, len(runs))
	for _, run := range runs {
		out.Runs = append(out.Runs, toScheduleRunJSON(run))
	}
	writeJSON(w, status, out)
}

// nextAt is when an enabled schedule next starts, counted from now: a
// schedule created, changed or enabled never fires for a time already past.
func (s *Server) nextAt(c store.Schedule) time.Time {
	var issues issueList
	times, _ := parseCron(&issues, c.Cron, c.Timezone, s.Now())
	return times.next(s.Now())
}

func (s *Server) createSchedule(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.ManageSchedules) {
		return
	}
	var in scheduleInput
	if !decode(w, r, &in) {
		return
	}
	c, issues, err := s.checkSchedule(r, sc, in, currentUserID(r))
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if len(issues) > 0 {
		writeIssues(w, scheduleInvalid, issues)
		return
	}
	now := s.Now()
	c.ID, c.ProjectID, c.UserID, c.CreatedAt, c.UpdatedAt = ids.New(kindSchedule), sc.Project.ID, currentUserID(r), now, now
	c.NextAt = s.nextAt(c)
	if err := s.store.CreateSchedule(r.Context(), c); err != nil {
		s.internal(w, r, err)
		return
	}
	s.auditSchedule(r, "schedule_created", c)
	s.wakeSchedules()
	s.writeSchedule(w, r, http.StatusCreated, c.ID)
}

func (s *Server) updateSchedule(w http.ResponseWriter, r *http.Request) {
	old, sc, ok := s.loadSchedule(w, r)
	if !ok || !allow(w, sc, access.ManageSchedules) {
		return
	}
	var in scheduleInput
	if !decode(w, r, &in) {
		return
	}
	c, issues, err := s.checkSchedule(r, sc, in, old.UserID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if len(issues) > 0 {
		writeIssues(w, scheduleInvalid, issues)
		return
	}
	c.ID, c.ProjectID, c.UserID, c.UpdatedAt = old.ID, old.ProjectID, old.UserID, s.Now()
	c.NextAt = s.nextAt(c)
	if err := s.store.UpdateSchedule(r.Context(), c); errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, codeNotFound, scheduleNotFound)
		return
	} else if err != nil {
		s.internal(w, r, err)
		return
	}
	s.auditSchedule(r, "schedule_updated", c)
	s.wakeSchedules()
	s.writeSchedule(w, r, http.StatusOK, c.ID)
}

func (s *Server) deleteSchedule(w http.ResponseWriter, r *http.Request) {
	c, sc, ok := s.loadSchedule(w, r)
	if !ok || !allow(w, sc, access.ManageSchedules) {
		return
	}
	if err := s.store.DeleteSchedule(r.Context(), c.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, r, err)
		return
	}
	s.auditSchedule(r, "schedule_deleted", c)
	w.WriteHeader(http.StatusNoContent)
}

// auditSchedule writes the audit line of a change to a schedule.
func (s *Server) auditSchedule(r *http.Request, event string, c store.Schedule) {
	s.audit(r, audit.Entry{Event: event, User: currentUserID(r), RecordProject: c.ProjectID, HeaderProject: c.ProjectID, Record: c.ID})
}

// previewInput is POST /api/schedules/preview.
type previewInput struct {
	Cron     string `json:"cron"`
	Timezone string `json:"timezone"`
}

type previewJSON struct {
	Next []string `json:"next"`
}

// previewSchedule answers the next five times of a cron in a zone, as the
// schedule form shows them while one types, or the issues with them.
func (s *Server) previewSchedule(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.ViewProject) {
		return
	}
	var in previewInput
	if !decode(w, r, &in) {
		return
	}
	var issues issueList
	times, ok := parseCron(&issues, in.Cron, in.Timezone, s.Now())
	if !ok {
		writeIssues(w, scheduleInvalid, issues)
		return
	}
	writeJSON(w, http.StatusOK, previewJSON{Next: formatTimes(times.nextN(s.Now(), scheduleNextCount))})
}

// wakeSchedules tells this hub's scheduler loop to look now.
func (s *Server) wakeSchedules() {
	select {
	case s.schedWake <- struct{}{}:
	default:
	}
}
