package api

import (
	"github.com/testautomation/ta/hub/authoring"
	"github.com/testautomation/ta/hub/downloads"
	"github.com/testautomation/ta/protocol"
)

// apiRoutes is the OpenAPI document's table: one entry per route of
// routes() in server.go, in its order. A route added there is added here
// too (TestOpenAPICoversRouter fails until it is): route(method, path,
// summary), .inProject() when it sits in the x-project-id group,
// .public() when publicRoutes opens it, .in(value of the Go type its
// handler decodes), .out(status, value of the Go type it writes) for each
// success answer (jsonObj{...} for a map the handler builds), .empty(204).
// Errors need nothing: every route answers the Error schema for them.
func apiRoutes() []apiRoute {
	var (
		user       = userJSON{}
		test       = testJSON{}
		run        = runJSON{}
		runStarted = jsonObj{"runId": "", "status": ""}
	)
	return []apiRoute{
		route("GET", "/openapi.json", "This document (OpenAPI 3.1)").public().out(200, schema{"type": "object"}),

		route("POST", "/auth/login", "Sign in; sets the session cookie").public().in(credentials{}).out(200, user),
		route("POST", "/auth/logout", "Sign out").empty(204),
		route("GET", "/auth/session", "The signed-in user, or null").public().out(200, orNull{user}),
		route("POST", "/auth/register", "Register and sign in").public().in(registration{}).out(201, user),
		route("POST", "/auth/forgot", "Send a password reset link (always 204)").public().in(forgotInput{}).empty(204),
		route("POST", "/auth/reset", "Set a new password with a reset token; signs out every session and revokes every API token (CI agents disconnect)").public().in(resetInput{}).empty(204),
		route("POST", "/auth/password", "Change one's password; signs out the other sessions, and with revokeTokens revokes the API tokens").in(passwordInput{}).empty(204),
		route("GET", "/context", "The caller, their organizations and projects with their role in each").out(200, contextJSON{}),
		route("GET", "/profile", "The caller's profile and recent runs").out(200, profileJSON{}),
		route("PUT", "/profile", "Change one's name").in(profileInput{}).out(200, savedProfileJSON{}),
		route("GET", "/roles", "The role to permission matrix").out(200, rolesJSON{}),
		route("GET", "/tokens", "The caller's API tokens (never their text); session only").out(200, jsonObj{"tokens": []tokenJSON{}}),
		route("POST", "/tokens", "Create an API token: its text is in this answer only; session only").in(tokenInput{}).
			out(201, tokenCreatedJSON{}),
		route("DELETE", "/tokens/{id}", "Revoke an API token: its event streams end and its CI agents disconnect within a second; session only").empty(204),

		route("GET", "/members", "Sign-in accounts (platform administrators)").out(200, jsonObj{"members": []userJSON{}}),
		route("POST", "/members", "Create a sign-in account").in(accountInput{}).out(201, user),
		route("DELETE", "/members/{id}", "Delete a sign-in account").empty(204),
		route("GET", "/storage", "Storage used per project: runs, bytes of artifacts, traces and files (platform administrators)").out(200, storageJSON{}),

		route("POST", "/orgs", "Create an organization").in(nameInput{}).out(201, orgJSON{}),
		route("PUT", "/orgs/{id}", "Rename an organization").in(nameInput{}).out(200, orgJSON{}),
		route("DELETE", "/orgs/{id}", "Delete an organization").empty(204),
		route("GET", "/orgs/{id}/members", "Organization members").out(200, jsonObj{"members": []memberJSON{}}),
		route("POST", "/orgs/{id}/members", "Invite a member").in(inviteInput{}).out(201, memberJSON{}),
		route("PUT", "/orgs/{id}/members/{userId}", "Change a member's organization role").in(roleInput{}).out(200, memberJSON{}),
		route("DELETE", "/orgs/{id}/members/{userId}", "Remove a member").empty(204),
		route("GET", "/orgs/{id}/projects", "The organization's projects").out(200, jsonObj{"projects": []projectJSON{}}),
		route("POST", "/orgs/{id}/projects", "Create a project").in(nameInput{}).out(201, projectJSON{}),

		route("GET", "/agent", "The caller's paired computers and whether an agent is needed").
			out(200, jsonObj{"agents": []agentJSON{}, "needed": false}),
		route("GET", "/agent/pending", "Computers near the caller waiting for pairing approval, without their codes").out(200, jsonObj{"pending": []pendingJSON{}}),
		route("GET", "/agent/download", "The agent installers, or with os and arch one installer").
			q("os", "desktop operating system", "linux", "windows", "macos").q("arch", "processor", "amd64", "arm64").
			q("kind", "installer kind (deb, tar.gz, exe, msi, zip)").
			out(200, jsonObj{"downloads": []downloads.File{}, "signingCertificate": orNull{downloads.SigningCertificate{}}}).file(200, "application/octet-stream", "An installer (with os and arch)"),
		route("GET", "/agent/download/certificate", "The development certificate the Windows installer is signed with, to trust it").
			file(200, "application/x-x509-ca-cert", "The certificate (PEM)"),
		route("DELETE", "/agent/{id}", "Disconnect and forget a computer").empty(204),
		route("PUT", "/agent/{id}", "Rename one of the caller's computers and set its labels").in(agentInput{}).out(200, agentJSON{}),
		route("POST", "/agent/{id}/token", "Rotate a connected computer's token: it gets a new one, the old one stops working").empty(204),
		route("GET", "/agent/pair/{code}", "A pairing request").out(200, pairingJSON{}),
		route("POST", "/agent/pair/{code}", "Approve a pairing").out(201, agentJSON{}),
		route("GET", "/agent/connect", "The agents' WebSocket; they authenticate in their first message").public().
			file(101, "application/octet-stream", "Switching to the WebSocket protocol"),
		route("GET", "/agent/files/{id}", "For agents: a project file an upload step of a run or live session they hold names (Authorization: Agent <token>)").public().
			q("run", "the run (run_...) assigned to the agent whose document uploads the file").
			q("session", "or the editor's live session (ses_...) on the agent whose steps running now upload it").
			file(200, "application/octet-stream", "The file's bytes, with its own content type"),
		route("POST", "/agent/files", "For agents: offer a file a person chose in a recording; answers once the person accepted (201) or not (409 declined, 410 offer_expired or session_ended)").public().rawBody().
			q("session", "the recording (rec_...) on the agent").q("name", "the file's name as the page saw it").
			out(201, offeredFileJSON{}),
		route("DELETE", "/environments/{id}", "Delete an environment").empty(204),
		route("DELETE", "/applications/{id}", "Delete an application").empty(204),
		route("GET", "/runs/{id}", "A run: 202 while queued or running, 200 once finished (JUnit XML with Accept: application/xml)").
			out(200, run).out(202, run).file(200, "application/xml", "JUnit XML, when the request's Accept asks for XML"),
		route("GET", "/runs/{id}/events", "The run's live events (server-sent events; Last-Event-ID resumes); ends within a second when the caller loses access").
			file(200, "text/event-stream", "Events run.started, step.started, step.retry, step.finished, artifact, log, run.finished"),
		route("GET", "/runs/{id}/artifacts/{name}", "A screenshot or other artifact of the run").
			file(200, "application/octet-stream", "The artifact, with its own content type; a trace step (trace-*.json) is JSON, a DOM snapshot (dom-*.html) sandboxed HTML").
			out(200, protocol.TraceStep{}).presigned(),
		route("GET", "/runs/{id}/rows/{row}", "One row of a data-driven run: 202 while running, 200 once finished").
			out(200, rowJSON{}).out(202, rowJSON{}),
		route("GET", "/runs/{id}/rows/{row}/artifacts/{name}", "An artifact of one row").
			file(200, "application/octet-stream", "The artifact, with its own content type; a trace step (trace-*.json) is JSON, a DOM snapshot (dom-*.html) sandboxed HTML").
			out(200, protocol.TraceStep{}).presigned(),
		route("GET", "/runs/{id}/rows/{row}/trace", "One row's trace: its steps in the order they ran (202 while the run goes on)").
			qInt("attempt", "a retried row's attempt (default 1; docs/retries.md)").out(200, traceJSON{}).out(202, traceJSON{}),
		route("GET", "/runs/{id}/trace", "The run's trace: per step execution, in the order they ran, its console, network and DOM snapshots (202 while the run goes on)").
			qInt("attempt", "a retried run's attempt (default 1; docs/retries.md)").out(200, traceJSON{}).out(202, traceJSON{}),
		route("GET", "/runs/{id}/trace.zip", "The run's trace for reading offline (a download): its trace artifacts and screenshots, run.json and index.html").
			file(200, "application/zip", "A zip: run.json, index.html, the trace artifacts and screenshots (a row's under r<N>/)"),
		route("GET", "/runs/{id}/compare", "Since it last passed: the finished run beside the last passed run of its test on its environment (or ?with=): where they diverged, changed requests, new console errors, the document's diff (409 while running, 422 for a data-driven run)").
			q("with", "compare with this run (run_...) of the same test instead").out(200, compareJSON{}),
		route("GET", "/runs/{id}/compare/pixels.png", "The pixel difference of the diverging step's screenshots: transparent where they agree, magenta where they differ (404 without both screenshots, 422 when sizes differ)").
			q("with", "compare with this run (run_...) of the same test instead").file(200, "image/png", "A PNG the size of this run's screenshot"),
		route("POST", "/runs/{id}/cancel", "Cancel a queued or running run").out(202, runStarted),
		route("GET", "/runs/{id}/junit", "The run's result as JUnit XML (a download)").
			file(200, "application/xml", "JUnit XML: a testcase per test, or per row of a data-driven run"),
		route("GET", "/batches/{id}", "A batch of runs (JUnit XML with Accept: application/xml)").out(200, batchJSON{}).
			file(200, "application/xml", "JUnit XML, when the request's Accept asks for XML"),
		route("GET", "/batches/{id}/junit", "The batch's results as JUnit XML (a download)").
			file(200, "application/xml", "JUnit XML: a testcase per test, or per row of a data-driven run"),
		route("POST", "/batches/{id}/rerun", "Run a batch's tests again, or only those that failed").in(rerunInput{}).out(201, batchStarted{}),

		route("GET", "/registry", "Step types and their parameters, locator kinds, the devices a run may emulate").
			out(200, jsonObj{"dslVersion": 0, "stepTypes": []protocol.StepType{}, "locatorKinds": []string{}, "devices": []protocol.Device{}}),
		route("POST", "/script", "A Playwright Test script of a document, or of a test's current version").
			in(docBody(false, jsonObj{"testId": "", "device": ""})).out(200, jsonObj{"language": "", "script": ""}),
		route("GET", "/record/{id}", "A recording: the steps captured so far").out(200, authoring.RecordingView{}),
		route("GET", "/record/{id}/events", "Captured steps, live (server-sent events); ends within a second when the caller loses access").file(200, "text/event-stream", "Recording events"),
		route("POST", "/record/{id}/stop", "Stop a recording").out(200, authoring.RecordingView{}),
		route("GET", "/record/{id}/preview", "A screenshot of the page where recording is").file(200, "image/png", "PNG screenshot"),
		route("GET", "/pick/{id}", "A picker session: the picked element and its locators").out(200, authoring.PickerView{}),
		route("POST", "/pick/{id}/mode", "Set the picker's mode").in(pickModeInput{}).out(200, authoring.PickerView{}),
		route("POST", "/pick/{id}/close", "Close a picker session").empty(204),
		route("GET", "/sessions/{id}/view", "An authoring session's page, live: JPEG frames as server-sent events (event frame: {seq, data (base64), width, height, pageWidth, pageHeight, scrollX, scrollY, dialog?: {type: alert|confirm|prompt|beforeunload, message, defaultPrompt?} while a JavaScript dialog is open on the page, fileChooser?: {multiple} while the page waits for a file choice, tabs: [{title, url, current}] the session's open tabs in opening order, current the one shown}; event end), a few a second, sent only while watched; ends within a second when the caller loses access").file(200, "text/event-stream", "Session view frames"),
		route("POST", "/sessions/{id}/input", "Send a click, move, wheel, key or text to an authoring session's page as real input; x and y in the last frame's pixels. Kind dialog answers the page's open JavaScript dialog: accept (OK) or not (Cancel), text the prompt's answer. Kind files answers the page's file choice with files: ids of the project's files (at most 20, one unless the choice is multiple; none cancels), which the session's agent may then fetch; a file of another project is unknown (422 at files[i]). Kind drag presses at x, y and releases at toX, toY (frame pixels), moving in between. Kinds tab and closeTab show or close the tab at index in the frame's tabs (409 tab_gone when it is not there any more)").in(viewInputRequest{}).empty(204),
		route("POST", "/sessions/{id}/files/{offerId}", "Answer a file offered by the recording (event file.offered): accept stores it as a project file you uploaded (201), else 204").
			in(offerAnswerRequest{}).out(201, projectFileJSON{}).empty(204),
		route("GET", "/sessions/{id}", "An editor's live session: its status and the marks of the steps run").out(200, authoring.LiveView{}),
		route("GET", "/sessions/{id}/events", "A live session's statuses and its steps' events, live (server-sent events, as a run's)").file(200, "text/event-stream", "Live session events"),
		route("GET", "/sessions/{id}/screenshots/{name}", "A screenshot a live session's step took").
			file(200, "application/octet-stream", "The screenshot, PNG or JPEG, with its own content type"),
		route("POST", "/sessions/{id}/run", "Run steps of the editor's document on the live session's page: stepIds, from (reusing the page), to (on a fresh page)").
			in(liveRunDoc{}).out(202, authoring.LiveView{}),
		route("POST", "/sessions/{id}/close", "Close a live session and its page").empty(204),

		route("POST", "/record/start", "Start recording in the browser of the caller's agent").inProject().
			in(recordStartRequest{}).out(201, authoring.RecordingView{}),
		route("POST", "/pick/start", "Start an element picker; with sessionId and stepId, on a live session's page where that step happens").inProject().in(pickStartRequest{}).out(201, authoring.PickerView{}),
		route("POST", "/sessions", "Open an editor's live session: a page kept open on the caller's agent, closed after 10 idle minutes").inProject().
			in(liveStartRequest{}).out(201, authoring.LiveView{}),
		route("POST", "/scripts/try", "Run a code snippet in the browser of the caller's agent").inProject().
			in(tryRequest{}).out(200, protocol.TryResult{}),
		route("GET", "/dashboard", "The project's figures").inProject().out(200, dashboardJSON{}),
		route("GET", "/environments", "The project's environments").inProject().out(200, jsonObj{"environments": []environmentJSON{}}),
		route("POST", "/environments", "Create (201) or update (200, with id) an environment").inProject().
			in(environmentBody{}).out(201, environmentJSON{}).out(200, environmentJSON{}),
		route("GET", "/secrets", "The project's secret inventory (names, never values)").inProject().out(200, jsonObj{"secrets": []secretJSON{}}),
		route("POST", "/secrets", "Set a secret: 201 new, 200 replaced").inProject().in(secretBody{}).
			out(201, secretJSON{}).out(200, secretJSON{}),
		route("GET", "/webhooks", "The project's webhooks (Test Manager, Admin)").inProject().out(200, jsonObj{"webhooks": []webhookJSON{}}),
		route("POST", "/webhooks", "Create (201, with its signing secret, shown once) or update (200, with id) a webhook").inProject().
			in(webhookBody{}).out(201, webhookJSON{}).out(200, webhookJSON{}),
		route("DELETE", "/webhooks/{id}", "Delete a webhook").empty(204),
		route("GET", "/webhooks/{id}/deliveries", "The webhook's latest deliveries, newest first").
			out(200, jsonObj{"deliveries": []deliveryJSON{}}),
		route("POST", "/webhooks/{id}/secret", "Rotate the signing secret (the new one is in this answer only)").
			out(200, jsonObj{"id": "", "secret": ""}),
		route("POST", "/webhooks/{id}/test", "Send a ping delivery now").out(202, jsonObj{"deliveryId": ""}),
		route("GET", "/schedules", "The project's schedules, by name, each with its next five times and latest due time handled").inProject().
			out(200, jsonObj{"schedules": []scheduleJSON{}}),
		route("POST", "/schedules", "Create a schedule (Test Manager, Admin); its owner is the caller").inProject().
			in(scheduleInput{}).out(201, scheduleJSON{}),
		route("POST", "/schedules/preview", "The next five times of a cron in a time zone, or the issues with them").inProject().
			in(previewInput{}).out(200, previewJSON{}),
		route("GET", "/schedules/{id}", "A schedule with its latest due times handled").out(200, scheduleJSON{}),
		route("PUT", "/schedules/{id}", "Change, pause or enable a schedule (Test Manager, Admin); its owner stays").
			in(scheduleInput{}).out(200, scheduleJSON{}),
		route("DELETE", "/schedules/{id}", "Delete a schedule; its batches stay").empty(204),
		route("GET", "/applications", "The project's applications").inProject().out(200, jsonObj{"applications": []applicationJSON{}}),
		route("POST", "/applications", "Create (201) or update (200, with id) an application").inProject().
			in(applicationBody{}).out(201, applicationJSON{}).out(200, applicationJSON{}),
		route("GET", "/runs", "Runs in the project, newest first").inProject().
			q("testId", "only this test's runs").q("batchId", "only this batch's runs").
			q("status", "only runs in this status", "queued", "running", "passed", "failed", "error", "cancelled").paged().
			out(200, runListJSON{}),
		route("POST", "/runs", "Start a run of a test, or a batch (testIds or suite)").inProject().in(runRequest{}).
			out(201, oneOf{runStarted, batchStarted{}}),
		route("GET", "/tests", "Tests the caller can see in the project").inProject().
			q("q", "search in name, suite and tags").q("suite", "only this suite").q("unsorted", "1: only tests without a suite").
			q("visibility", "whose tests", "all", "shared", "private", "mine").
			q("sort", "order (passRate: lowest first; -flakiness: flakiest first)", "name", "-name", "savedAt", "-savedAt", "passRate", "-passRate", "flakiness", "-flakiness").
			q("flaky", "1: only tests called flaky now", "1", "true", "0", "false").q("quarantined", "1: only quarantined tests", "1", "true", "0", "false").paged().
			out(200, testListJSON{}),
		route("POST", "/tests", "Create a test from a document (version 1, Draft)").inProject().
			in(docBody(true, jsonObj{"visibility": ""})).out(201, test),
		route("POST", "/tests/import", "Import a DSL document of any version, or a Selenium IDE project (.side)").inProject().
			q("environmentId", "Write literal values equal to this environment's secrets as ${secrets.NAME}").
			in(schema{"type": "object", "description": "A DSL document (version 1 or 2) or a .side project"}).
			out(201, jsonObj{"test": test, "version": 0, "migratedFrom": schema{"type": []string{"integer", "string", "null"}},
				"tests": []importedJSON{}, "skipped": []protocol.Skipped{}, "secretsReplaced": 0}),
		route("GET", "/suites", "The project's suites").inProject().out(200, jsonObj{"suites": []suiteJSON{}}),
		route("POST", "/language/generate", "Draft steps from plain language").inProject().
			in(generateRequest{}).out(200, generateResponse{}),
		route("GET", "/language/examples", "The project's learned examples").inProject().out(200, jsonObj{"examples": []exampleJSON{}}),
		route("POST", "/language/examples", "Add a learned example").inProject().in(exampleBody{}).out(201, exampleJSON{}),
		route("GET", "/components", "The project's components").inProject().out(200, jsonObj{"components": []componentSummaryJSON{}}),
		route("POST", "/components", "Create a component from a test's steps, or from scratch").inProject().
			in(componentBody{}).out(201, jsonObj{"component": componentJSON{}, "test": orNull{jsonObj{"id": "", "version": 0}}}),
		route("POST", "/suites", "Add a suite").inProject().in(nameInput{}).out(201, suiteJSON{}),
		route("PUT", "/suites/{name}", "Rename a suite; its tests move").inProject().in(nameInput{}).
			out(200, jsonObj{"name": "", "moved": 0}),
		route("DELETE", "/suites/{name}", "Delete an empty suite").inProject().empty(204),
		route("GET", "/settings", "The project's suite list").inProject().out(200, jsonObj{"modules": []string{}}),
		route("POST", "/settings", "Set the project's suite list").inProject().in(settingsInput{}).out(200, jsonObj{"modules": []string{}}),
		route("GET", "/test-data", "The project's test data sets").inProject().out(200, jsonObj{"dataSets": []dataSetSummaryJSON{}}),
		route("POST", "/test-data", "Create (201) or replace (200, with id) a data set; JSON or CSV").inProject().
			in(dataTableBody{}).orCSV().out(201, dataSetJSON{}).out(200, dataSetJSON{}),
		route("GET", "/data-pools", "The project's data pools").inProject().out(200, jsonObj{"dataPools": []dataPoolSummaryJSON{}}),
		route("POST", "/data-pools", "Create (201) or replace (200, with id) a data pool; JSON or CSV").inProject().
			in(dataTableBody{}).orCSV().out(201, dataPoolJSON{}).out(200, dataPoolJSON{}),
		route("GET", "/files", "The project's files, for upload steps").inProject().out(200, jsonObj{"files": []projectFileJSON{}}),
		route("POST", "/files", "Upload a file (the raw body, at most 25 MiB) named by ?name=").inProject().rawBody().
			q("name", "the file's name as pages see it: no / or \\, no control characters").out(201, projectFileJSON{}),

		route("DELETE", "/language/examples/{id}", "Delete a learned example").empty(204),
		route("GET", "/components/{id}", "A component with its versions and usages").out(200, componentJSON{}),
		route("PUT", "/components/{id}", "Change a component's name or description").in(componentUpdateInput{}).out(200, componentJSON{}),
		route("DELETE", "/components/{id}", "Delete a component nobody calls").empty(204),
		route("POST", "/components/{id}/versions", "Publish a new version").in(componentVersionBody{}).out(201, componentVersionJSON{}),
		route("GET", "/components/{id}/versions/{version}", "One version of a component").out(200, componentVersionJSON{}),
		route("GET", "/components/{id}/impact", "What upgrading each caller would change").
			out(200, jsonObj{"latestVersion": 0, "callers": []callerJSON{}}),
		route("POST", "/components/{id}/upgrade", "Upgrade chosen callers to the latest version").in(upgradeInput{}).
			out(200, jsonObj{"results": []upgradeResultJSON{}}),
		route("GET", "/test-data/{id}", "A data set, as JSON or with format=csv as a download").q("format", "answer format", "json", "csv").
			out(200, dataSetJSON{}).file(200, "text/csv", "The data set as CSV"),
		route("DELETE", "/test-data/{id}", "Delete a data set").empty(204),
		route("GET", "/data-pools/{id}", "A data pool with its records").out(200, dataPoolJSON{}),
		route("DELETE", "/data-pools/{id}", "Delete a data pool").empty(204),
		route("POST", "/data-pools/{id}/reset", "Release leases of finished runs and restore consumed records").out(200, dataPoolJSON{}),
		route("GET", "/files/{id}", "A file's name, size, checksum and uploader").out(200, projectFileJSON{}),
		route("GET", "/files/{id}/content", "A file's bytes, as a download").file(200, "application/octet-stream", "The file, with its own content type").presigned(),
		route("DELETE", "/files/{id}", "Delete a file (its uploader, Test Managers, Admins); upload steps naming it then fail").empty(204),
		route("GET", "/tests/{id}", "A test's current version with owner, visibility and can (ETag)").out(200, test),
		route("PUT", "/tests/{id}", "Save a Draft, or change the status (If-Match)").
			in(docBody(false, jsonObj{"status": "", "note": ""})).out(200, test),
		route("DELETE", "/tests/{id}", "Delete a test and all its versions").empty(204),
		route("POST", "/tests/{id}/validate", "Validate a document without saving").in(docBody(false, jsonObj{})).out(200, validationJSON{}),
		route("POST", "/tests/{id}/revisions", "Start a new Draft revision of a Ready test").in(noteInput{}).out(201, test),
		route("POST", "/tests/{id}/duplicate", "Copy the test into a new Draft owned by the caller").in(duplicateInput{}).out(201, test),
		route("PUT", "/tests/{id}/sharing", "Change visibility or hand the test over").in(sharingInput{}).out(200, test),
		route("GET", "/tests/{id}/versions", "Version history").out(200, jsonObj{"versions": []versionJSON{}}),
		route("GET", "/tests/{id}/versions/{version}", "One version with its document").out(200, versionJSON{}),
		route("POST", "/tests/{id}/versions/{version}/restore", "Restore a version as a new Draft version").out(201, test),
		route("GET", "/tests/{id}/history", "The test's last 100 finished runs, pass and flaky rates, flaky call, duration trend").out(200, testHistoryJSON{}),
		route("PUT", "/tests/{id}/quarantine", "Quarantine the test: its failures fail no batch (Test Manager, Admin)").in(quarantineInput{}).out(200, test),
		route("DELETE", "/tests/{id}/quarantine", "Lift the test's quarantine (Test Manager, Admin)").out(200, test),

		route("PUT", "/projects/{id}", "Rename a project").in(nameInput{}).out(200, projectJSON{}),
		route("DELETE", "/projects/{id}", "Delete a project").empty(204),
		route("GET", "/projects/{id}/members", "Project members").out(200, jsonObj{"members": []projectMemberJSON{}}),
		route("PUT", "/projects/{id}/members/{userId}", "Set a member's project role").in(roleInput{}).out(200, projectMemberJSON{}),
		route("DELETE", "/projects/{id}/members/{userId}", "Remove a member's project role").empty(204),
	}
}

// Bodies the handlers read field by field (to tell an absent field from
// null and to answer every issue at once); these types only describe them.

type environmentBody struct {
	ID            string             `json:"id,omitempty" doc:"an existing environment to update; absent: create"`
	Name          string             `json:"name" openapi:"required"`
	Variables     map[string]string  `json:"variables,omitempty"`
	Secrets       map[string]*string `json:"secrets,omitempty" doc:"secret values to set; null deletes one"`
	ApplicationID *string            `json:"applicationId,omitempty" doc:"\"\" removes the application"`
	Protected     *bool              `json:"protected,omitempty"`
}

type webhookBody struct {
	ID      string   `json:"id,omitempty" doc:"an existing webhook to update; absent: create"`
	Name    string   `json:"name" openapi:"required"`
	URL     string   `json:"url" openapi:"required" doc:"http or https address that receives the signed POST"`
	Events  []string `json:"events,omitempty" doc:"run.finished and/or batch.finished (default both)"`
	Format  *string  `json:"format,omitempty" enum:"json|slack"`
	Enabled *bool    `json:"enabled,omitempty"`
}

type applicationBody struct {
	ID          string `json:"id,omitempty"`
	Name        string `json:"name" openapi:"required"`
	BaseURL     string `json:"baseUrl" openapi:"required"`
	Description string `json:"description,omitempty"`
}

type secretBody struct {
	EnvironmentID string `json:"environmentId" openapi:"required"`
	Name          string `json:"name" openapi:"required"`
	Value         string `json:"value" openapi:"required"`
}

type dataTableBody struct {
	ID        string              `json:"id,omitempty"`
	Name      string              `json:"name" openapi:"required"`
	Columns   []string            `json:"columns,omitempty"`
	Rows      []map[string]string `json:"rows,omitempty"`
	Protected *bool               `json:"protected,omitempty" doc:"only Test Managers and Admins may set it, or change a protected set or pool; runs on protected environments use only protected data; absent keeps it"`
}

type componentBody struct {
	Name        string               `json:"name" openapi:"required"`
	Description string               `json:"description,omitempty"`
	Inputs      []componentInputJSON `json:"inputs,omitempty"`
	TestID      string               `json:"testId,omitempty" doc:"the source test, with stepIds"`
	StepIDs     []string             `json:"stepIds,omitempty" doc:"a contiguous range of the source test's steps"`
	Steps       []protocol.Step      `json:"steps,omitempty" doc:"the steps, for a component made from scratch"`
}

type componentVersionBody struct {
	Steps  []protocol.Step      `json:"steps" openapi:"required"`
	Inputs []componentInputJSON `json:"inputs,omitempty"`
	Note   string               `json:"note,omitempty"`
}

type exampleBody struct {
	Text  string          `json:"text" openapi:"required"`
	Steps []protocol.Step `json:"steps" openapi:"required"`
}
