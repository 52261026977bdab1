//go:build !headless

package tray

import (
	"fmt"
	"strings"

	"github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/protocol"
)

// Action is what a tray menu item does when picked.
type Action int

const (
	ActionNone      Action = iota // an information line
	ActionOpen                    // open Item.URL in the browser (pairing page, a run, an update)
	ActionOpenWeb                 // open the hub's web app
	ActionPause                   // stop taking new runs
	ActionResume                  // take runs again
	ActionAutostart               // toggle starting at login
	ActionQuit                    // stop the agent
	ActionSeparator               // a line between groups
)

// Item is one entry of the tray menu; Children make a submenu.
type Item struct {
	Label    string
	Enabled  bool
	Action   Action
	URL      string
	Checked  bool
	Children []Item
}

// equal compares items with their submenus.
func equal(a, b []Item) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Label != y.Label || x.Enabled != y.Enabled || x.Action != y.Action || x.URL != y.URL || x.Checked != y.Checked || !equal(x.Children, y.Children) {
			return false
		}
	}
	return true
}

// maxErr bounds the length of an error in the status line, maxName a
// test's name: tray menus do not wrap.
const (
	maxErr  = 80
	maxName = 48
)

// Options are what the menu shows beside the client's state.
type Options struct {
	Hub       string // the hub's address
	Autostart bool   // offer "Start at login"
	AtLogin   bool   // it is on
}

// MenuItems is the tray menu for a state: the status line; while pairing,
// the code and "Open pairing page"; the runs in progress (each opens its
// run page) or Idle/Paused; the last runs; Pause or Resume; Open web app;
// Start at login; a newer agent when the hub has one; Quit.
func MenuItems(st client.State, o Options) []Item {
	if st.Hub != "" {
		o.Hub = st.Hub // with several hubs, the one connected to now
	}
	items := []Item{{Label: statusLine(st, o.Hub)}}
	if st.Phase == "pairing" && st.PairURL != "" {
		items = append(items, Item{Label: "Open pairing page…", Enabled: true, Action: ActionOpen, URL: st.PairURL})
	}
	for _, r := range st.Current {
		items = append(items, Item{Label: progressLine(r), Enabled: true, Action: ActionOpen, URL: runURL(o.Hub, r.RunID)})
	}
	if len(st.Current) == 0 {
		line := "Idle"
		if st.Runs > 0 { // runs the tray has no detail of
			line = runsLine(st.Runs)
		} else if st.Paused {
			line = "Paused: taking no runs"
		}
		items = append(items, Item{Label: line})
	}
	if len(st.Recent) > 0 {
		recent := Item{Label: "Recent runs", Enabled: true}
		for _, r := range st.Recent {
			recent.Children = append(recent.Children, Item{Label: statusMark(r.Status) + " " + shorten(r.Test, maxName), Enabled: true,
				Action: ActionOpen, URL: runURL(o.Hub, r.RunID)})
		}
		items = append(items, recent)
	}
	items = append(items, Item{Action: ActionSeparator})
	if st.Paused {
		items = append(items, Item{Label: "Resume taking runs", Enabled: true, Action: ActionResume})
	} else {
		items = append(items, Item{Label: "Pause taking runs", Enabled: true, Action: ActionPause})
	}
	items = append(items, Item{Label: "Open web app", Enabled: true, Action: ActionOpenWeb})
	if o.Autostart {
		items = append(items, Item{Label: "Start at login", Enabled: true, Action: ActionAutostart, Checked: o.AtLogin})
	}
	if u := st.Update; u != nil && u.URL != "" {
		items = append(items, Item{Label: "Update available: version " + u.Version + "…", Enabled: true, Action: ActionOpen, URL: u.URL})
	}
	return append(items,
		Item{Action: ActionSeparator},
		Item{Label: "Quit", Enabled: true, Action: ActionQuit},
	)
}

func statusLine(st client.State, hub string) string {
	switch st.Phase {
	case "":
		return "Starting…"
	case "connecting":
		return "Connecting…"
	case "pairing":
		if st.Code == "" {
			return "Pairing…"
		}
		return "Waiting for approval: code " + st.Code
	case "connected":
		if st.Name == "" {
			return "Connected to " + hubLabel(hub)
		}
		return fmt.Sprintf("Connected to %s as %s", hubLabel(hub), st.Name)
	case "disconnected":
		if st.Err == nil {
			return "Offline"
		}
		return "Offline: " + shorten(st.Err.Error(), maxErr)
	default:
		return st.Phase
	}
}

// progressLine is a run in progress: "Checkout: step 2 of 5".
func progressLine(r client.RunProgress) string {
	name := shorten(r.Test, maxName)
	if name == "" {
		name = "A test"
	}
	unit := "step"
	if r.Rows {
		unit = "row"
	}
	switch {
	case r.Total > 0 && r.Done > 0:
		return fmt.Sprintf("%s: %s %d of %d", name, unit, min(r.Done, r.Total), r.Total)
	default:
		return name + ": starting"
	}
}

func statusMark(status string) string {
	switch status {
	case protocol.RunPassed:
		return "✓"
	case protocol.RunFailed:
		return "✗"
	case protocol.RunCancelled:
		return "–"
	default:
		return "!"
	}
}

func runsLine(n int) string {
	if n == 1 {
		return "Running 1 test"
	}
	return fmt.Sprintf("Running %d tests", n)
}

// hubLabel is the hub's address without the scheme and trailing slash:
// "https://ta.example.com/" shows as "ta.example.com".
func hubLabel(hub string) string {
	s := hub
	for _, p := range []string{"https://", "http://"} {
		s = strings.TrimPrefix(s, p)
	}
	if s = strings.TrimRight(s, "/"); s == "" {
		return hub
	}
	return s
}

// webURL is the web app's address: the hub's root.
func webURL(hub string) string { return strings.TrimRight(hub, "/") + "/" }

// runURL is a run's page in the web app.
func runURL(hub, runID string) string { return strings.TrimRight(hub, "/") + "/runs/" + runID }

// shorten keeps the end of a long one-line message (where the cause is,
// as in "… dial tcp 127.0.0.1:9: connect: connection refused").
func shorten(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return "…" + string(r[len(r)-max+1:])
}
