// Package loadtest measures one hub under load: a real hub process (built
// with go build ./hub) on a private PostgreSQL with production settings,
// real HTTP, real WebSockets. BenchmarkScale connects 1,000 idle agents
// speaking the agent protocol and 1,000 live-event subscribers, reads the
// hub's memory and goroutines, times run starts against the same hub
// without that load, and starts 200 runs at once over 20 agents.
//
// It runs only as a benchmark (make bench); go test ./... runs nothing
// here. The code lives in _test.go files: it is a tool, not part of the hub.
package loadtest
