// Package runner runs one test document in Chromium and reports what
// happens as protocol events. It is the agent's engine: the connection code
// receives a protocol.Job from the hub, calls Browser.Run with an Emitter
// that forwards events and artifacts over the WebSocket, and sends the
// RunResult back. It knows nothing about Fyne or the network.
//
// # Browser and runs
//
// Launch starts one warm headless Chromium (found by FindBrowser, never
// downloaded) and keeps a spare incognito browser context with a page ready,
// so a run starts in milliseconds. Every run gets its own incognito context,
// so runs never share cookies or storage; Run is safe to call from several
// goroutines at once (the agent's --parallel). A run whose job asks for a
// headed browser launches a separate visible Chromium when Options.CanHead
// says a display exists, and otherwise runs headless with a warning log
// event.
//
// The runner speaks the DevTools protocol through go-rod's cdp client and
// proto types on its own thin session layer (session.go) rather than
// rod.Page: rod's Browser.Call keeps the parameters of every call in a map
// for the life of the browser, which would leak memory per run and keep
// typed secret values alive after the run.
//
// # Steps
//
// Every step type of protocol.Registry runs. A target's locators are tried
// in order on every attempt; one counts only when it matches exactly one
// element, and a fallback that does so while the first does not heals the
// step (StepResult.HealedBy, and a warn log naming both). Role locators go
// through Chromium's accessibility tree (Accessibility.queryAXTree); the
// others through one page function (locate.go, js.go). target.frame
// locators are entered in order, outermost first. Before acting, the
// element must pass Playwright's actionability checks for the action:
// attached, visible, stable (the same box in two consecutive animation
// frames), enabled, editable (fill) and receiving the pointer event at its
// centre (actionability.go). While a click, dblclick, check, uncheck or
// hover dispatches its mouse events, listeners in the element's window stop
// any that would reach another element (it moved or was covered after the
// checks), and the attempt is retried, as Playwright's hit target
// interception does (intercept.go): a step never passes on a click the
// element did not get. Assertions poll like Playwright's expect.
// Failures that waiting cannot fix (an invalid regex, a checkbox to fill,
// an unknown variable) fail the step at once.
//
// A step that fails for its own reasons is followed by a probe of the page;
// a page that no longer answers ends the run as error. So do a crashed
// renderer, a browser that exits, and a run exceeding its overall bound
// (Options.MaxRunTime, by default the sum of the step timeouts plus a
// minute).
//
// # Events
//
// A run emits, in order:
//
//	run.started    Version (job.Version), Total (number of steps)
//	log            warn: a headed run on an agent without a display
//	per step, while the run goes on:
//	  step.started   Index, StepID, StepType
//	  step.retry     Attempt, Error: an action that missed its element, acting again
//	  log            warn: which locator healed the step; info: a dialog dismissed
//	  artifact       the step's screenshot (after Emitter.Artifact got the bytes)
//	  step.finished  Status passed or failed, DurationMs, Error, HealedBy, Screenshot, Box, Used
//	per step after a failure, a cancellation or a browser crash:
//	  step.finished  Status skipped (no step.started)
//	artifact       a trace's (see Traces): any time after its step, before run.finished
//	run.finished   Status, Passed, Total, DurationMs, Error
//
// Index is the step's 0-based position in the document. RunResult.Steps has
// every step, skipped ones included. The step that was running when the run
// was cancelled is reported skipped with the error "run cancelled"; when the
// browser crashed it is failed with the reason, and the run's status is
// error.
//
// Retries: a step polls until it succeeds or its timeout (step.Timeout())
// passes. Waiting for the element, for it to be actionable or for an
// assertion to hold is auto-waiting, as in Playwright, and no retry. A real
// retry is an attempt that acted on the page and failed (a click or hover
// whose events missed the element, see intercept.go): the first emits
// step.retry with Attempt 2 at once; after that at most one step.retry per
// second, each numbering the attempt that starts. StepResult.Attempts is
// the last attempt's number.
//
// Box: a step with a target reports where the element was when it was
// last found or, for an action, acted on (CSS pixels of the viewport, with
// the viewport's size and the device pixel ratio), so the run page draws
// it on the step's screenshot. When the step has a screenshot the element
// is measured again right before it, and a step whose element went away
// (it navigated) reports no box; a failed step's element outside the
// viewport is scrolled into view for its failure screenshot. Used: the values the step used after
// interpolation (url, value, key, expected, ms, name), secrets masked.
//
// # Where a run may go
//
// A run opens only http: and https: pages and about:blank
// (protocol.CheckOpenURL). A navigate step to anything else, after
// interpolation and resolution against the baseUrl, fails before the
// browser is asked; every tab also fails requests for file: addresses and
// redirects of documents to refused addresses (Fetch interception), and
// reads what Chromium refused a page itself (guard.go). Such a refusal
// fails the step that was running, "<what> <address> refused: a test may
// only open http:, https: and about:blank pages" (one that comes after the
// last step ended, from a timer or a slow redirect, is blocked all the
// same, but no step is left to report it).
//
// # Artifacts
//
// With job.Screenshots a viewport JPEG follows every passed step, named
// step-NNN-ID.jpg where NNN is the 1-based step number (the step's Index
// plus one) and ID the sanitised step id; a failed step always gets
// step-NNN-ID-failure.png. The capture overlaps the start of the next
// step, whose changes to the page wait for it (overlap in screenshot.go),
// so it shows the page as its own step left it. A screenshot step's own capture is named after
// its name parameter or its id (sanitised, ".png" added, "-2", "-3" ... on
// a clash) and stands in for the after-step screenshot. Artifact names pass
// protocol.ValidArtifactName.
//
// # Traces
//
// job.Trace (docs/trace.md; "" is failures) records, per step execution,
// the console and network of every page of the run and a DOM snapshot
// after the step, sent as trace-NNN-ID.json and dom-NNN-ID.html artifacts
// (protocol.TraceArtifact, SnapshotArtifact): with on all of it, with
// failures the snapshots only of a failed step and the steps held before
// it, with off nothing (trace.go).
//
// # Variables and secrets
//
// ${name} resolves, highest precedence first, to a value set by an earlier
// setVariable or script assign step, then job.Variables (the environment and
// data row), then the document's own variables. ${secrets.NAME} resolves
// to job.Secrets. An unknown reference fails its step at once, naming it.
// A navigate URL that is not absolute after interpolation is resolved
// against the baseUrl variable when there is one, and otherwise fails.
// Every secret value is replaced by *** in every string the runner emits:
// event fields, errors, log lines, artifact names and the result.
package runner
