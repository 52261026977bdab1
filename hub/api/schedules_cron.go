package api

import (
	"fmt"
	"strings"
	"time"
	_ "time/tzdata" // every IANA zone loads on every machine, whatever it has installed

	"github.com/robfig/cron/v3"
)

// scheduleNextCount is how many of a schedule's next times answers list.
const scheduleNextCount = 5

// cronTimes is a schedule's cron read in its time zone.
type cronTimes struct {
	spec *cron.SpecSchedule
}

// parseCron reads a 5-field cron (minute hour day-of-month month
// day-of-week) in the IANA zone tz, adding to issues what is wrong with
// either. Descriptors (@daily, @every 1h) and TZ= prefixes are refused:
// the fields say when and the timezone field says where, nothing else
// (docs/schedules.md).
func parseCron(issues *issueList, expr, tz string, now time.Time) (cronTimes, bool) {
	n := len(*issues)
	loc, locOK := loadZone(tz)
	if !locOK {
		issues.add("timezone", "unknown", fmt.Sprintf("%q is not an IANA time zone such as Europe/Paris or UTC", tz))
	}
	expr = strings.TrimSpace(expr)
	var spec *cron.SpecSchedule
	switch fields := strings.Fields(expr); {
	case expr == "":
		issues.add("cron", "required", "cron is required, e.g. 30 2 * * 1-5 (02:30 on weekdays)")
	case strings.HasPrefix(expr, "@") || strings.Contains(strings.ToUpper(fields[0]), "TZ="):
		issues.add("cron", "format", "write the 5 fields minute hour day-of-month month day-of-week, e.g. 0 3 * * *; name the zone in timezone")
	case len(fields) != 5:
		issues.add("cron", "fields", fmt.Sprintf("a cron has 5 fields (minute hour day-of-month month day-of-week), not %d", len(fields)))
	default:
		s, err := cron.ParseStandard(expr)
		if err != nil {
			issues.add("cron", "format", "the cron is not valid: "+err.Error())
			break
		}
		spec = s.(*cron.SpecSchedule)
		if locOK {
			spec.Location = loc
			if spec.Next(now).IsZero() {
				issues.add("cron", "never", "this cron matches no date, e.g. the 31st of a month of 30 days")
			}
		}
	}
	return cronTimes{spec}, len(*issues) == n
}

// loadZone loads an IANA zone by name; "" and "Local" (the hub's own
// zone, which differs between machines) are refused.
func loadZone(tz string) (*time.Location, bool) {
	if tz == "" || tz == "Local" || strings.TrimSpace(tz) != tz {
		return nil, false
	}
	loc, err := time.LoadLocation(tz)
	return loc, err == nil
}

// next is the first time after t; the zero time when there is none.
func (c cronTimes) next(t time.Time) time.Time { return c.spec.Next(t) }

// nextN lists the n times after t, in the schedule's zone.
func (c cronTimes) nextN(t time.Time, n int) []time.Time {
	out := make([]time.Time, 0, n)
	for len(out) < n {
		t = c.spec.Next(t)
		if t.IsZero() {
			break
		}
		out = append(out, t.In(c.spec.Location))
	}
	return out
}

// formatTimes writes times as RFC 3339 with their zone's offset, so a
// reader sees the wall-clock time of the schedule's zone.
func formatTimes(ts []time.Time) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Format(time.RFC3339)
	}
	return out
}
