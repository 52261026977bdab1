// Package protocol is the wire contract shared by the hub and the desktop
// agent. It does no I/O and imports neither the hub nor the agent: both
// sides compile against the same types, so they cannot drift apart.
//
// # The test document
//
// A test is a JSON document in the DSL, version DSLVersion (2):
//
//	{ "dsl": 2, "name": "Sign in", "suite": "Accounts", "tags": ["smoke"],
//	  "variables": { "user": "alice" },
//	  "steps": [
//	    { "id": "s1", "type": "navigate", "url": "${baseUrl}/login" },
//	    { "id": "s2", "type": "fill", "value": "${user}",
//	      "target": { "locators": [ { "kind": "label", "value": "Email" },
//	                                { "kind": "css", "value": "#email" } ] } } ] }
//
// A Step is flat in JSON: id, type, description and timeoutMs beside the
// parameters of its type. Registry lists every step type with its
// parameters; it is the single source for validation, GET /api/registry,
// the web editor and the agent. A Target holds ranked locators (best
// first, as LocatorKinds ranks the kinds); the agent tries the fallbacks
// when the first fails and reports which one healed the step.
//
// Strings interpolate ${name} (test variables, environment variables,
// data-set columns) and ${secrets.NAME}; see References and Interpolate.
// In a script step's code a reference stands for the value itself, passed
// as an argument (ScriptSource), as Selenium IDE does.
//
// A document may bind data (DataBinding): "data": {"set": "tds_..."} runs
// the test once per row of a test data set, {"pool": "dpl_...", "mode":
// "lease" or "consume"} gives each run one record of a data pool; ${column}
// reads the row or record. The hub checks the ids at save.
//
// # Reading documents
//
// Parse reads version 1 (the legacy, Selenium-IDE-like shape) or 2,
// migrates to 2, normalises (trimmed names, assigned step ids) and
// validates. Document.Validate checks a typed document. Both return every
// Issue at once, each named by its JSON path with a machine code, ordered
// by path, so the hub can answer 422 with all of them. ImportSide converts
// a Selenium IDE project (.side), one document per test, leaving out (and
// listing as Skipped) the commands it cannot convert. RenderPlaywright
// renders a document as a Playwright Test script in TypeScript.
//
// # Agent messages
//
// Run events (Event, with their kinds and a per-run Seq), run results
// (RunResult) and every message on the agent's WebSocket are here too:
// agent.go tells the whole life of a connection and of a run (pairing,
// assign, accept, events, artifacts, renew, finish, cancel, ack), how
// delivery survives reconnects and hub or database outages, and Version,
// which the hub checks at connect.
package protocol
