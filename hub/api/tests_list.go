package api

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/store"
)

const (
	defaultPage = 100
	maxPage     = 500
)

var visibilityFilters = []string{"all", "shared", "private", "mine"}

func encodeCursor(c *store.Cursor) *string {
	if c == nil {
		return nil
	}
	data, _ := json.Marshal([2]string{c.Key, c.ID})
	s := base64.RawURLEncoding.EncodeToString(data)
	return &s
}

func decodeCursor(s string) (*store.Cursor, bool) {
	data, err := base64.RawURLEncoding.DecodeString(s)
	var kv [2]string
	if err != nil || json.Unmarshal(data, &kv) != nil || kv[1] == "" || strings.ContainsRune(kv[0]+kv[1], 0) {
		return nil, false
	}
	return &store.Cursor{Key: kv[0], ID: kv[1]}, true
}

// pageParams reads the limit and cursor of a paged list.
func pageParams(q url.Values, issues *issueList) (limit int, after *store.Cursor) {
	limit = defaultPage
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > maxPage {
			issues.add("limit", "range", "limit must be a number from 1 to 500")
		}
		limit = n
	}
	if c := q.Get("cursor"); c != "" {
		var ok bool
		if after, ok = decodeCursor(c); !ok {
			issues.add("cursor", "format", "cursor is not one this list gave out")
		}
	}
	return limit, after
}

// listInProject answers { key: [...] }: the header project's records,
// loaded and shown as the API shows them, for every member.
func listInProject[R, J any](s *Server, w http.ResponseWriter, r *http.Request, key string,
	load func(ctx context.Context, projectID string) ([]R, error), show func(R) J) {
	sc := headerScope(r)
	if !allow(w, sc, access.ViewProject) {
		return
	}
	rows, err := load(r.Context(), sc.Project.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := make([]J, 0, len(rows))
	for _, row := range rows {
		out = append(out, show(row))
	}
	writeJSON(w, http.StatusOK, map[string]any{key: out})
}

// flagParam reads a yes/no filter: 1 or true, 0 or false, or absent.
func flagParam(q url.Values, key string, issues *issueList) bool {
	switch q.Get(key) {
	case "", "0", "false":
		return false
	case "1", "true":
		return true
	}
	issues.add(key, "enum", key+" must be 1, true, 0 or false")
	return false
}

type testListJSON struct {
	Tests      []testJSON `json:"tests"`
	Total      int        `json:"total"`
	NextCursor *string    `json:"nextCursor"`
}

// listTests answers the project's tests the caller can see, filtered,
// sorted and paged by cursor.
func (s *Server) listTests(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.ViewProject) {
		return
	}
	u, _ := currentUser(r)
	q := r.URL.Query()
	query := store.TestQuery{ProjectID: sc.Project.ID, UserID: u.ID, Q: strings.TrimSpace(q.Get("q")),
		Visibility: q.Get("visibility"), Sort: q.Get("sort")}
	var issues issueList
	issues.queryText("q", query.Q)
	issues.queryText("suite", q.Get("suite"))
	if query.Visibility == "" {
		query.Visibility = "all"
	} else if !slices.Contains(visibilityFilters, query.Visibility) {
		issues.add("visibility", "enum", "visibility must be all, shared, private or mine")
	}
	if query.Sort == "" {
		query.Sort = "name"
	} else if !slices.Contains(store.TestSorts, query.Sort) {
		issues.add("sort", "enum", "sort must be name, -name, savedAt, -savedAt, passRate, -passRate, flakiness or -flakiness")
	}
	query.Flaky = flagParam(q, "flaky", &issues)
	query.Quarantined = flagParam(q, "quarantined", &issues)
	if suite, unsorted := q.Get("suite"), q.Get("unsorted"); suite != "" && unsorted != "" {
		issues.add("unsorted", "conflict", "use suite or unsorted, not both")
	} else if unsorted == "1" || unsorted == "true" {
		none := ""
		query.Suite = &none
	} else if suite != "" {
		query.Suite = &suite
	}
	query.Limit, query.After = pageParams(q, &issues)
	if len(issues) > 0 {
		writeIssues(w, "the list query is not valid", issues)
		return
	}
	tests, total, next, err := s.store.ListTests(r.Context(), query)
	if errors.Is(err, store.ErrBadCursor) {
		writeIssues(w, "the list query is not valid", issueList{{Path: "cursor", Code: "format", Message: "cursor does not fit this sort order"}})
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := make([]testJSON, 0, len(tests))
	for _, t := range tests {
		out = append(out, toTestJSON(t, canOnTest(sc, u.ID, t)))
	}
	writeJSON(w, http.StatusOK, testListJSON{out, total, encodeCursor(next)})
}
