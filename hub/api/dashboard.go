package api

import (
	"net/http"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/store"
)

type countsJSON struct {
	Total    int     `json:"total"`
	Passed   int     `json:"passed"`
	Failed   int     `json:"failed"`
	PassRate float64 `json:"passRate"` // passed / total, 0 with no runs
}

func toCounts(c store.RunCounts) countsJSON {
	out := countsJSON{Total: c.Total, Passed: c.Passed, Failed: c.Failed}
	if c.Total > 0 {
		out.PassRate = float64(c.Passed) / float64(c.Total)
	}
	return out
}

type figureJSON struct {
	TestID        string `json:"testId"`
	Name          string `json:"name"`
	Runs          int    `json:"runs"`
	Failures      int    `json:"failures"`
	AvgDurationMs int64  `json:"avgDurationMs"`
}

type dayJSON struct {
	Day string `json:"day"`
	countsJSON
}

type dashboardJSON struct {
	TestsByStatus map[string]int `json:"testsByStatus"`
	Last7Days     countsJSON     `json:"last7Days"`
	Last30Days    countsJSON     `json:"last30Days"`
	RunsPerDay    []dayJSON      `json:"runsPerDay"`
	Slowest       []figureJSON   `json:"slowest"`
	MostFailing   []figureJSON   `json:"mostFailing"`
	// Flakiest: the tests called flaky now first, then by flaky rate over
	// their last 100 runs (docs/history.md); at most 5.
	Flakiest []flakyFigureJSON `json:"flakiest"`
}

// flakyFigureJSON is one test in the dashboard's flakiest list.
type flakyFigureJSON struct {
	TestID      string   `json:"testId"`
	Name        string   `json:"name"`
	Flaky       bool     `json:"flaky"`
	FlakyRate   *float64 `json:"flakyRate"`
	PassRate    *float64 `json:"passRate"`
	Quarantined bool     `json:"quarantined"`
}

// dashboard answers the project's figures, counting only what the caller
// can see.
func (s *Server) dashboard(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.ViewProject) {
		return
	}
	d, err := s.store.ProjectDashboard(r.Context(), sc.Project.ID, currentUserID(r), s.Now())
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := dashboardJSON{TestsByStatus: d.TestsByStatus, Last7Days: toCounts(d.Last7), Last30Days: toCounts(d.Last30),
		RunsPerDay: []dayJSON{}, Slowest: []figureJSON{}, MostFailing: []figureJSON{}}
	for _, pd := range d.PerDay {
		out.RunsPerDay = append(out.RunsPerDay, dayJSON{pd.Day, toCounts(pd.RunCounts)})
	}
	for _, f := range d.Slowest {
		out.Slowest = append(out.Slowest, figureJSON(f))
	}
	for _, f := range d.MostFailing {
		out.MostFailing = append(out.MostFailing, figureJSON(f))
	}
	flakiest, err := s.store.FlakiestTests(r.Context(), sc.Project.ID, currentUserID(r), 5)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out.Flakiest = []flakyFigureJSON{}
	for _, t := range flakiest {
		h := toListHistory(t.History)
		if h == nil { // gone between the two queries
			continue
		}
		out.Flakiest = append(out.Flakiest, flakyFigureJSON{TestID: t.ID, Name: t.Name, Flaky: h.Flaky, FlakyRate: h.FlakyRate, PassRate: h.PassRate,
			Quarantined: t.Quarantine != nil})
	}
	writeJSON(w, http.StatusOK, out)
}
