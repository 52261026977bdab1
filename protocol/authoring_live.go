package protocol

// The editor's live session (DESIGN.md, "Agents chosen, live view,
// step-by-step runs"): an authoring session (Session ses_...) of kind live
// that keeps a page open on the agent so the editor can run steps on it
// one at a time, as Playwright's UI mode and Katalon's "run from here" do.
//
//	hub → agent  author.start   AuthorStart{Kind: live}: an incognito
//	                            context with about:blank; status ready
//	hub → agent  live.run       LiveRun: the steps to run (already chosen
//	                            and components expanded by the hub) with
//	                            the variables and secrets they use, and
//	                            whether to open a fresh page first
//	agent → hub  live.event     Event: the run's events as a run emits them
//	                            (run.started, step.started, step.finished,
//	                            log, run.finished), secrets masked; a
//	                            screenshot's bytes follow a live.event whose
//	                            Artifact names it, as one binary frame
//	hub → agent  author.stop    closes the page (as for the other kinds)
//
// The page stays as the steps left it, so the next live.run goes on from
// there; a picker (AuthorStart.Recording = the live session) picks in it.
// The hub keeps the session's status: ready, running, then ready again or
// paused at a failed step when the run asked to pause on a failure.
const (
	MsgLiveRun   = "live.run"
	MsgLiveEvent = "live.event"
)

// AuthorLive is the kind of the editor's live session.
const AuthorLive = "live"

// Statuses only a live session has.
const (
	SessionRunning = "running"
	SessionPaused  = "paused"
)

// LiveRun asks a live session's agent to run steps on its page. Document
// holds only the steps to run; Fresh replaces the page with a new one
// (a fresh incognito context at about:blank) before the first step.
// Variables set by earlier runs on the same page are kept unless Fresh.
type LiveRun struct {
	Document  Document          `json:"document"`
	Fresh     bool              `json:"fresh"`
	Variables map[string]string `json:"variables"`
	Secrets   map[string]string `json:"secrets"`
	// Screenshots asks for a screenshot after each step, as a run's.
	Screenshots bool `json:"screenshots"`
}

// MaxLiveSteps bounds the steps of one live.run.
const MaxLiveSteps = 500
