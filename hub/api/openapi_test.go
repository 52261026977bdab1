package api

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestOpenAPICoversRouter walks the router: every route under /api is in
// the document, and the document has no route the router lacks.
func TestOpenAPICoversRouter(t *testing.T) {
	srv, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	for _, rt := range walkRoutes(t, srv.Handler(nil)) {
		if strings.HasPrefix(rt.pattern, "/api/") {
			served[rt.key()] = true
		}
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(OpenAPIDocument(), &doc); err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for path, item := range doc.Paths {
		for method := range item {
			documented[strings.ToUpper(method)+" "+path] = true
		}
	}
	var missing, gone []string
	for k := range served {
		if !documented[k] {
			missing = append(missing, k)
		}
	}
	for k := range documented {
		if !served[k] {
			gone = append(gone, k)
		}
	}
	slices.Sort(missing)
	slices.Sort(gone)
	for _, k := range missing {
		t.Errorf("route %s is not in the OpenAPI document: add it to apiRoutes (openapi_routes.go)", k)
	}
	for _, k := range gone {
		t.Errorf("the OpenAPI document has %s, which the router does not serve: remove it from apiRoutes", k)
	}
	if len(served) < 80 {
		t.Errorf("the walk found only %d routes under /api", len(served))
	}
}

// TestOpenAPIDocumentValid checks the document with an OpenAPI 3.1
// validator (libopenapi-validator, against the specification's schema).
func TestOpenAPIDocumentValid(t *testing.T) {
	doc, err := libopenapi.NewDocument(OpenAPIDocument())
	if err != nil {
		t.Fatal(err)
	}
	if v := doc.GetVersion(); !strings.HasPrefix(v, "3.1") {
		t.Fatalf("openapi version %q, want 3.1.x", v)
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		t.Fatalf("building the validator: %v", errs)
	}
	ok, verrs := v.ValidateDocument()
	for _, e := range verrs {
		t.Errorf("invalid OpenAPI 3.1: %s: %s", e.Message, e.Reason)
		for _, se := range e.SchemaValidationErrors {
			t.Errorf("  at %s (%s): %s", se.FieldPath, se.KeywordLocation, se.Reason)
		}
	}
	if !ok && len(verrs) == 0 {
		t.Error("the validator refused the document without saying why")
	}
	// Every reference resolves, and every schema compiles as JSON Schema 2020-12.
	var parsed struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(OpenAPIDocument(), &parsed); err != nil {
		t.Fatal(err)
	}
	oa := openAPIChecks()
	for name := range parsed.Components.Schemas {
		if _, err := oa.compile("#/components/schemas/" + name); err != nil {
			t.Errorf("schema %s: %v", name, err)
		}
	}
}

// TestOpenAPIServed: the document is public, JSON and OpenAPI 3.1.
func TestOpenAPIServed(t *testing.T) {
	h := newHarness(t)
	r := h.client().do("GET", "/api/openapi.json", nil).want(t, 200)
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	var doc struct {
		OpenAPI string         `json:"openapi"`
		Paths   map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(r.body, &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.1.") || doc.Paths["/api/tests/{id}"] == nil {
		t.Errorf("not the OpenAPI 3.1 document: openapi %q, %d paths", doc.OpenAPI, len(doc.Paths))
	}
}

// TestOpenAPIResponseCheckFails shows the response check can fail: a
// field the document lacks, a missing one and an undocumented status.
func TestOpenAPIResponseCheckFails(t *testing.T) {
	oa := openAPIChecks()
	user := `{"id":"usr_1","name":"A","email":"a@example.com","platformAdmin":false,"createdAt":"2026-01-01T00:00:00.000Z"}`
	for _, c := range []struct {
		method, path string
		status       int
		body         string
		ok           bool
	}{
		{"GET", "/api/auth/session", 200, user, true},
		{"GET", "/api/auth/session", 200, "null", true},
		{"GET", "/api/auth/session", 200, strings.Replace(user, `"id"`, `"token":"x","id"`, 1), false},
		{"GET", "/api/auth/session", 200, `{"id":"usr_1"}`, false},
		{"GET", "/api/auth/session", 201, user, false},
		{"GET", "/api/tests/tc_1", 404, `{"error":"no such test","code":"not_found"}`, true},
		{"GET", "/api/tests/tc_1", 404, `{"error":"no such test"}`, false},
		{"GET", "/api/no/such/route", 404, `{"error":"no such API route","code":"not_found"}`, true},
	} {
		hdr := http.Header{"Content-Type": {"application/json"}}
		err := oa.check(c.method, c.path, response{status: c.status, header: hdr, body: []byte(c.body)})
		if (err == nil) != c.ok {
			t.Errorf("%s %s %d %s: error %v, want ok %v", c.method, c.path, c.status, c.body, err, c.ok)
		}
	}
}

// openAPICheck validates real answers against the document.
type openAPICheck struct {
	doc      map[string]any
	compiler *jsonschema.Compiler
	router   chi.Routes
	mu       sync.Mutex
	compiled map[string]*jsonschema.Schema
}

const openAPIURL = "mem://openapi.json"

var openAPIChecks = sync.OnceValue(func() *openAPICheck {
	raw, err := jsonschema.UnmarshalJSON(bytes.NewReader(OpenAPIDocument()))
	if err != nil {
		panic(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(openAPIURL, raw); err != nil {
		panic(err)
	}
	oa := &openAPICheck{doc: raw.(map[string]any), compiler: c, compiled: map[string]*jsonschema.Schema{}}
	// The document's paths as a chi router, so an answer is matched to
	// its route exactly as the hub matched its request.
	r := chi.NewRouter()
	for path, item := range oa.doc["paths"].(map[string]any) {
		for method := range item.(map[string]any) {
			r.MethodFunc(strings.ToUpper(method), path, func(http.ResponseWriter, *http.Request) {})
		}
	}
	oa.router = r
	return oa
})

func (oa *openAPICheck) compile(pointer string) (*jsonschema.Schema, error) {
	oa.mu.Lock()
	defer oa.mu.Unlock()
	if s, ok := oa.compiled[pointer]; ok {
		return s, nil
	}
	frag := strings.ReplaceAll(url.PathEscape(pointer[1:]), "%2F", "/")
	s, err := oa.compiler.Compile(openAPIURL + "#" + frag)
	if err != nil {
		return nil, err
	}
	oa.compiled[pointer] = s
	return s, nil
}

func pointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// check answers why a response does not conform to the document, or nil.
func (oa *openAPICheck) check(method, path string, r response) error {
	path, _, _ = strings.Cut(path, "?")
	rctx := chi.NewRouteContext()
	var pointer string
	if oa.router.Match(rctx, method, path) {
		pattern := rctx.RoutePattern()
		op := oa.doc["paths"].(map[string]any)[pattern].(map[string]any)[strings.ToLower(method)].(map[string]any)
		base := "#/paths/" + pointerEscape(pattern) + "/" + strings.ToLower(method) + "/responses/"
		code := strconv.Itoa(r.status)
		resp, ok := op["responses"].(map[string]any)[code].(map[string]any)
		switch {
		case ok:
			pointer = base + code
		case r.status >= 400:
			pointer, resp = "#/components/responses/Error", oa.doc["components"].(map[string]any)["responses"].(map[string]any)["Error"].(map[string]any)
		default:
			return fmt.Errorf("status %d is not documented for %s %s", r.status, method, pattern)
		}
		return oa.checkBody(pointer, resp, r)
	}
	if r.status < 400 {
		return fmt.Errorf("%s %s answered %d but is not in the document", method, path, r.status)
	}
	resp := oa.doc["components"].(map[string]any)["responses"].(map[string]any)["Error"].(map[string]any)
	return oa.checkBody("#/components/responses/Error", resp, r)
}

func (oa *openAPICheck) checkBody(pointer string, resp map[string]any, r response) error {
	content, _ := resp["content"].(map[string]any)
	ct := r.header.Get("Content-Type")
	if len(content) == 0 {
		if len(r.body) > 0 {
			return fmt.Errorf("status %d is documented without a body, got %q", r.status, clip(r.body))
		}
		return nil
	}
	mt, _, _ := mime.ParseMediaType(ct)
	if _, ok := content[mt]; !ok {
		if _, any := content["application/octet-stream"]; any && mt != "application/json" {
			return nil // an artifact or download of its own type
		}
		return fmt.Errorf("content type %q is not documented for status %d", ct, r.status)
	}
	if mt != "application/json" {
		return nil
	}
	s, err := oa.compile(pointer + "/content/application~1json/schema")
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(r.body))
	if err != nil {
		return fmt.Errorf("the body is not JSON: %v", err)
	}
	if err := s.Validate(v); err != nil {
		return fmt.Errorf("%v\nbody: %s", err, clip(r.body))
	}
	return nil
}

func clip(b []byte) string {
	if len(b) > 2000 {
		return string(b[:2000]) + "..."
	}
	return string(b)
}

// checkOpenAPI fails the test when an answer it received through the
// harness does not conform to the OpenAPI document.
func checkOpenAPI(t testing.TB, method, path string, r response) {
	t.Helper()
	if !strings.HasPrefix(path, "/api/") || strings.HasPrefix(path, "/api/probe") {
		return // the harness's own probe route
	}
	if _, bench := t.(*testing.B); bench {
		return // benchmarks time the hub, not the document check (tests cover the same answers)
	}
	if err := openAPIChecks().check(method, path, r); err != nil {
		t.Errorf("openapi: %s %s answered %d not as the document says: %v", method, path, r.status, err)
	}
}

var updateOpenAPI = flag.Bool("update-openapi", false, "write the OpenAPI document to web/src/api/openapi.json")

// openAPIFile is the document as the web app's types are generated from
// it (npm run api-types makes web/src/api/schema.d.ts).
const openAPIFile = "../../web/src/api/openapi.json"

// TestOpenAPIFileCurrent fails when the checked-in copy of the document is
// stale. Refresh it with
//
//	go test ./hub/api -run TestOpenAPIFileCurrent -update-openapi && (cd web && npm run api-types)
func TestOpenAPIFileCurrent(t *testing.T) {
	if *updateOpenAPI {
		if err := os.WriteFile(openAPIFile, OpenAPIDocument(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(openAPIFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, OpenAPIDocument()) {
		t.Errorf("%s is stale: run go test ./hub/api -run TestOpenAPIFileCurrent -update-openapi, then (cd web && npm run api-types)", openAPIFile)
	}
}
