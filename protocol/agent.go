package protocol

import (
	"encoding/json"
	"regexp"
	"strconv"
)

// Version is the agent protocol's version, bumped on every change to the
// messages below and checked at connect: a hub refuses an agent that speaks
// another version with an error message saying how to update.
//
// Version 2 added acknowledgements: run messages carry an id and the hub
// answers ack once it has stored them. Version 3 added what explains a run:
// hello's headless, run.started's headed, and a step's box and used values.
// Version 4 added authoring sessions: recording, picking and trying
// scripts (authoring.go). Version 5 added data-driven runs (a job's rows,
// row events and row results), the call of steps expanded from
// components, and grounding drafts in a page (page.ground). Version 6
// added pausing (hello's paused, the pause message), hello's os and arch,
// and welcome's update (a newer agent the hub serves). Version 7 added CI
// agents: a pairing request with an API token (PairRequest.APIToken).
// Version 8 added token rotation (token, token.saved) and the refusal of
// a second connection with a connected agent's token (error code
// agent_connected). Version 9 added a step's screenshotError, the live
// view of an authoring session (author.view, author.frame, author.input)
// and the editor's live session (kind live, live.run, live.event:
// authoring_live.go). Version 10 added the steps real suites need (dialog,
// switchTab, dragTo, mouse ...: an older agent cannot run them) and a
// job's device. Version 11 added the live view's drags and tabs (input
// kinds drag, tab and closeTab, author.input.done, a frame's tabs) and its
// file chooser (ViewFrame.FileChooser, input kind files). Version 12
// added retries (issue 31, docs/retries.md): the run.retry event, an
// event's runAttempt, an artifact's attempt, a result's flaky and
// attempts (retries.go).
const Version = 12

// Message types on the agent WebSocket (/api/agent/connect). Every message
// is one JSON text frame {"type": ..., ...}; artifact contents travel as the
// binary frame that follows an "artifact" message.
//
// The life of a connection:
//
//	agent → hub  hello      first message: protocol version, and either the
//	                        agent's token or a pairing request (hostname, OS);
//	                        whether it has no display (Headless: a headed
//	                        run goes only to an agent with one), its OS and
//	                        browser version; on a reconnect also the runs
//	                        it still holds
//	hub → agent  pairing    a short code to approve at <base_url>/pair/<code>
//	hub → agent  paired     after approval: the agent's id and token; the
//	                        agent stores the token and uses it from then on
//	hub → agent  welcome    token accepted: the agent's id and name
//	hub → agent  error      refused (bad token, wrong version, code expired);
//	                        the hub closes the connection after it
//
// One token, one connection. A hello with the token of an agent that is
// connected is answered by pinging that connection: when it answers
// within a moment, the newcomer gets error with ErrorCode
// ErrAgentConnected (the first connection is not touched, and the owner
// sees the attempt); when it does not, it was dead and the newcomer
// replaces it. A refused agent tries again with backoff: if it is the
// real one, the connection the hub still held stops answering and it gets
// in.
//
// Token rotation, while connected (its owner asks on the Agents page):
//
//	hub → agent  token        a new token (and ReqID); the agent stores it
//	                          as it stores a paired one
//	agent → hub  token.saved  the same ReqID once stored (Error if it could
//	                          not be); from then on the old token is refused.
//	                          A connection with the new token also confirms
//	                          it (the answer may be lost on the way)
//
// The life of a run:
//
//	hub → agent  assign     a run: the test document, variables, secrets,
//	                        options, and the lease in milliseconds
//	agent → hub  accept     the agent has started the run
//	agent → hub  event      a run event (Event), with a per-run Seq; the hub
//	                        stores each Seq once and drops repeats
//	agent → hub  artifact   metadata (name, content type, size, step), then
//	                        the content as one binary frame (MaxArtifact)
//	agent → hub  renew      the run is still going: every lease/3
//	agent → hub  finish     the run's result (RunResult)
//	hub → agent  cancel     stop the run; the agent finishes it as cancelled
//	hub → agent  ack        every message with an ID up to Ack is stored
//
// Delivery. accept, event, artifact and finish carry an ID, numbered 1, 2,
// ... by the agent process in the order it sends them. The hub handles a
// connection's messages in order and answers ack {Ack: n} only once every
// message up to ID n is stored (it retries while its database is away, so
// nothing it cannot store yet is acknowledged). The agent keeps every
// message until it is acknowledged and sends the unacknowledged ones again,
// in order, on its next connection; the hub takes repeats as no-ops (an
// event's Seq, an artifact's name and a run's single finish make each
// message idempotent). renew carries no ID: a lost renewal is replaced by
// the next one. A run whose finish is not acknowledged yet still counts as
// held: it is listed in hello's Runs.
//
// Limits. The hub stores at most a bounded number of events and bytes of
// events and artifacts per run and cuts long texts; a run that goes over
// ends as error and its agent is told to cancel it.
//
// A hub that cannot take a connection's messages for a while (its database
// is away) closes the connection rather than leave it unread; the agent
// reconnects and sends again.
//
// Leases. A run whose lease lapses (the agent vanished) is queued again
// once, then ends as error; leases are not judged for two leases after the
// hub's database was away. A reconnecting agent sends hello again with the
// runs it still holds: those continue and their events keep their Seq (a
// run the hub had queued again meanwhile goes back to it, unless another
// agent has it or it was cancelled: then the agent is told to cancel it);
// runs the hub had assigned to it that it does not list count as lost the
// same way.
const (
	MsgHello    = "hello"
	MsgPairing  = "pairing"
	MsgPaired   = "paired"
	MsgWelcome  = "welcome"
	MsgError    = "error"
	MsgAssign   = "assign"
	MsgAccept   = "accept"
	MsgEvent    = "event"
	MsgArtifact = "artifact"
	MsgRenew    = "renew"
	MsgFinish   = "finish"
	MsgCancel   = "cancel"
	MsgAck      = "ack"
	// MsgPause, agent to hub: Paused says whether it takes new runs (the
	// tray's Pause); runs it holds go on.
	MsgPause = "pause"
	// MsgToken (hub to agent) and MsgTokenSaved (its answer) rotate the
	// agent's token over its live connection.
	MsgToken      = "token"
	MsgTokenSaved = "token.saved"
)

// ErrAgentConnected is the error code of a hello refused because another
// connection with the same token is connected and answering.
const ErrAgentConnected = "agent_connected"

// MaxArtifact bounds one artifact's size (a full-page screenshot).
const MaxArtifact = 16 << 20

// MaxMessage bounds one JSON message (a document with its secrets).
const MaxMessage = 4 << 20

// Message is the envelope of every JSON frame; Type says which fields are
// set.
type Message struct {
	Type string `json:"type"`
	// ID numbers the agent's run messages that the hub acknowledges
	// (accept, event, artifact, finish); 0 on the others.
	ID int64 `json:"id,omitempty"`
	// Ack, in ack: every message with an ID up to this one is stored.
	Ack int64 `json:"ack,omitempty"`

	// hello
	Protocol int          `json:"protocol,omitempty"`
	Token    string       `json:"token,omitempty"` // also in paired and token
	Pair     *PairRequest `json:"pair,omitempty"`
	Agent    string       `json:"agent,omitempty"`    // the agent's build version
	Parallel int          `json:"parallel,omitempty"` // runs it takes at once
	// Headless: this agent has no display: headed runs run without a
	// window (the run.started event's Headed says so per run).
	Headless bool `json:"headless,omitempty"`
	// Runs lists the runs the agent is still running (on a reconnect); the
	// hub takes back the ones assigned to it that it does not list.
	Runs []string `json:"runs,omitempty"`
	// Paused (hello, pause): the agent takes no new runs for now.
	Paused bool `json:"paused,omitempty"`
	// OS and Arch of the agent's build (GOOS with darwin as macos, GOARCH).
	OS   string `json:"os,omitempty"`
	Arch string `json:"arch,omitempty"`
	// Browser, in hello: the version of the Chromium the agent drives
	// ("Chrome/131.0.6778.85"), shown on the Agents page. Optional, so no
	// version bump: an older agent leaves it out and shows none.
	Browser string `json:"browser,omitempty"`
	// Update, in welcome: a newer agent this hub serves for the agent's
	// OS and architecture.
	Update *AgentUpdate `json:"update,omitempty"`

	// pairing
	Code string `json:"code,omitempty"`
	URL  string `json:"url,omitempty"`

	// paired, welcome
	AgentID string `json:"agentId,omitempty"`
	Name    string `json:"name,omitempty"`

	// error; token.saved when the token could not be stored
	Error     string `json:"error,omitempty"`
	ErrorCode string `json:"errorCode,omitempty"`

	// run messages
	RunID  string     `json:"runId,omitempty"`
	Job    *Job       `json:"job,omitempty"`    // assign
	Event  *Event     `json:"event,omitempty"`  // event
	Result *RunResult `json:"result,omitempty"` // finish
	// artifact; also author.preview's answer, before its PNG frame
	Artifact *ArtifactInfo `json:"artifact,omitempty"`

	// authoring messages (authoring.go)
	Session  string         `json:"session,omitempty"` // rec_... or pck_...
	ReqID    string         `json:"reqId,omitempty"`   // author.preview, script.try, token and their answers
	Start    *AuthorStart   `json:"start,omitempty"`   // author.start
	Status   string         `json:"status,omitempty"`  // author.status
	Captured *Captured      `json:"captured,omitempty"`
	Picked   *Picked        `json:"picked,omitempty"`
	Mode     string         `json:"mode,omitempty"` // author.mode
	Try      *TryRequest    `json:"try,omitempty"`
	Tried    *TryResult     `json:"tried,omitempty"`    // script.result
	Ground   *GroundRequest `json:"ground,omitempty"`   // page.ground
	Grounded *GroundResult  `json:"grounded,omitempty"` // page.grounded
	// the live view (authoring_view.go)
	View    *ViewToggle `json:"view,omitempty"`    // author.view
	Frame   *ViewFrame  `json:"frame,omitempty"`   // author.frame
	Input   *ViewInput  `json:"input,omitempty"`   // author.input
	LiveRun *LiveRun    `json:"liveRun,omitempty"` // live.run (authoring_live.go)
}

// PairRequest describes a computer asking to be paired.
type PairRequest struct {
	Hostname string `json:"hostname"`
	OS       string `json:"os"`
	// APIToken: a CI command's agent (agent ci) pairs with an API token
	// instead of a code: the hub answers paired at once, and the agent
	// takes only the runs pinned to it.
	APIToken string `json:"apiToken,omitempty"`
}

// AgentUpdate is a newer agent: its version and the hub page to get it.
type AgentUpdate struct {
	Version string `json:"version"`
	URL     string `json:"url"`
}

// Job is everything an agent needs to run a test.
type Job struct {
	RunID     string            `json:"runId"`
	TestID    string            `json:"testId"`
	Version   int               `json:"version"`
	Document  Document          `json:"document"`
	Variables map[string]string `json:"variables,omitempty"` // environment variables, data row
	Secrets   map[string]string `json:"secrets,omitempty"`   // ${secrets.NAME}; only inside this run
	// Screenshots after every step when true; false keeps failure
	// screenshots only.
	Screenshots bool  `json:"screenshots"`
	Headed      bool  `json:"headed"`
	LeaseMs     int64 `json:"leaseMs"`
	// Device names the profile (devices.go) every page of the run
	// emulates; "" is the agent's desktop window.
	Device string `json:"device,omitempty"`
	// FirstSeq is the Seq of the run's first event in this attempt: a run
	// queued again after its agent vanished continues the numbering.
	FirstSeq int64 `json:"firstSeq"`
	// Trace is the run option trace (trace.go): TraceOn, TraceFailures
	// or TraceOff; "" is TraceFailures.
	Trace string `json:"trace,omitempty"`
	// Retries is the run option retries (0 to 3): how many times the agent
	// runs the test again, in a fresh context, after it failed.
	Retries int `json:"retries,omitempty"`
	// Rows makes the run data-driven: the document runs once per row, each
	// in a fresh browser context, its values read as ${column} (over the
	// environment's variables), at most the agent's parallel slots at once.
	Rows []DataRow `json:"rows,omitempty"`
}

// DataRow is one row of a data-driven run: Row is its 0-based index in the
// data set.
type DataRow struct {
	Row    int               `json:"row"`
	Values map[string]string `json:"values"`
}

// RowArtifact is the name a data-driven run's row stores an artifact
// under: rows name their screenshots alike, so each gets the row's prefix.
func RowArtifact(row int, name string) string { return "r" + strconv.Itoa(row) + "-" + name }

// ArtifactInfo describes the binary frame that follows an artifact message.
type ArtifactInfo struct {
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	Size        int64  `json:"size"`
	Step        *int   `json:"step,omitempty"`
	Row         *int   `json:"row,omitempty"` // the row of a data-driven run; Name is then RowArtifact's
	// Attempt is the attempt (2 and up) of a retried run that made it;
	// Name then has AttemptArtifact's prefix (retries.go).
	Attempt int `json:"attempt,omitempty"`
}

var artifactName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// ValidArtifactName reports whether name is safe as a file name in a run's
// folder: letters, digits, dot, dash and underscore, no leading dot.
func ValidArtifactName(name string) bool { return artifactName.MatchString(name) }

// Encode marshals a message.
func (m Message) Encode() ([]byte, error) { return json.Marshal(m) }
