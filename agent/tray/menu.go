//go:build !headless

package tray

import (
	"fmt"
	"strings"

	"github.com/testautomation/ta/agent/client"
)

// Action is what a tray menu item does when picked.
type Action int

const (
	ActionNone      Action = iota // an information line
	ActionApprove                 // open the pairing page
	ActionOpenWeb                 // open the hub's web app
	ActionQuit                    // stop the agent
	ActionSeparator               // a line between groups
)

// Item is one entry of the tray menu.
type Item struct {
	Label   string
	Enabled bool
	Action  Action
}

// maxErr bounds the length of an error in the status line: tray menus do
// not wrap.
const maxErr = 80

// MenuItems is the tray menu for a state: the status line, while pairing
// an item that opens the approval page, the runs in progress, "Open web
// app" and "Quit". hub is the hub's address as given with --hub.
func MenuItems(st client.State, hub string) []Item {
	items := []Item{{Label: statusLine(st, hub)}}
	if st.Phase == "pairing" && st.PairURL != "" {
		items = append(items, Item{Label: "Approve this computer…", Enabled: true, Action: ActionApprove})
	}
	return append(items,
		Item{Label: runsLine(st.Runs)},
		Item{Action: ActionSeparator},
		Item{Label: "Open web app", Enabled: true, Action: ActionOpenWeb},
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
		return "Pairing: enter code " + st.Code
	case "connected":
		if st.Name == "" {
			return "Connected to " + hubLabel(hub)
		}
		return fmt.Sprintf("Connected to %s as %s", hubLabel(hub), st.Name)
	case "disconnected":
		if st.Err == nil {
			return "Disconnected"
		}
		return "Disconnected: " + shorten(st.Err.Error(), maxErr)
	default:
		return st.Phase
	}
}

func runsLine(n int) string {
	switch {
	case n <= 0:
		return "Idle"
	case n == 1:
		return "Running 1 test"
	default:
		return fmt.Sprintf("Running %d tests", n)
	}
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
