// Package agent will be the desktop agent: a Fyne tray application (with a
// --headless mode) that pairs with the hub over /api/agent/connect and drives
// a local Chromium with go-rod to run, record and pick. It becomes a command
// (`go run ./agent`) with the agent issue.
package agent
