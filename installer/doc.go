// Package installer will build the desktop agent's installers per operating
// system for the hub to serve at GET /api/agent/download.
package installer
