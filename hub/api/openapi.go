package api

import (
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/testautomation/ta/protocol"
)

// The OpenAPI 3.1 document of the API (GET /api/openapi.json) is built
// once from apiRoutes (openapi_routes.go) and the handlers' Go types
// (openapi_schema.go). Tests keep it true: every route of the router is in
// it and nothing else (openapi_test.go), and every JSON answer the
// package's tests receive conforms to it (harness_test.go).

// apiRoute describes one route of the table in server.go.
type apiRoute struct {
	method, path, summary string
	isPublic              bool // open without a session (publicRoutes)
	isProject             bool // acts on the project named by x-project-id
	body                  any  // request body: a Go value of the type read, an obj, a schema; nil: none
	csv                   bool // the body may also be text/csv
	raw                   bool // the body is raw bytes (a file), not JSON
	query                 []queryParam
	responses             []apiResponse
}

type queryParam struct {
	name, description string
	enum              []string
	integer           bool
}

// apiResponse is one success answer; errors share the default Error one.
type apiResponse struct {
	status      int
	body        any    // JSON body (see apiRoute.body); nil: none
	contentType string // a non-JSON body ("image/png", "text/event-stream")
	description string
}

func route(method, path, summary string) apiRoute {
	return apiRoute{method: method, path: "/api" + path, summary: summary}
}

// public marks a route open without a session.
func (r apiRoute) public() apiRoute { r.isPublic = true; return r }

// inProject marks a list or create route that acts on x-project-id.
func (r apiRoute) inProject() apiRoute { r.isProject = true; return r }

// in is the request body: a value of the Go type the handler decodes.
func (r apiRoute) in(body any) apiRoute { r.body = body; return r }

// orCSV says the body may also be text/csv.
func (r apiRoute) orCSV() apiRoute { r.csv = true; return r }

// rawBody says the request body is raw bytes of any type (a file).
func (r apiRoute) rawBody() apiRoute { r.raw = true; return r }

// out adds a JSON answer: a value of the Go type the handler writes.
func (r apiRoute) out(status int, body any) apiRoute {
	r.responses = append(r.responses, apiResponse{status: status, body: body})
	return r
}

// file adds an answer that is not JSON: an artifact, a download, a stream.
func (r apiRoute) file(status int, contentType, description string) apiRoute {
	r.responses = append(r.responses, apiResponse{status: status, contentType: contentType, description: description})
	return r
}

// empty adds an answer without a body (204 and the like).
func (r apiRoute) empty(status int) apiRoute {
	r.responses = append(r.responses, apiResponse{status: status})
	return r
}

// q adds a query parameter; values, when given, are its only values.
func (r apiRoute) q(name, description string, values ...string) apiRoute {
	r.query = append(r.query, queryParam{name: name, description: description, enum: values})
	return r
}

// qInt adds an integer query parameter.
func (r apiRoute) qInt(name, description string) apiRoute {
	r.query = append(r.query, queryParam{name: name, description: description, integer: true})
	return r
}

// paged adds the cursor paging parameters of long lists.
func (r apiRoute) paged() apiRoute {
	return r.qInt("limit", "page size (default 50, at most 200)").q("cursor", "nextCursor of the previous page")
}

// OpenAPIDocument is the API's OpenAPI 3.1 document, as served.
var OpenAPIDocument = sync.OnceValue(func() []byte {
	data, err := json.MarshalIndent(buildOpenAPI(apiRoutes()), "", "  ")
	if err != nil {
		panic("openapi: " + err.Error())
	}
	return append(data, '\n')
})

func (s *Server) openAPI(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(OpenAPIDocument())
}

func buildOpenAPI(routes []apiRoute) schema {
	g := newSchemaGen()
	g.of(errorBody{})           // first, so it is Error and its Issue is Issue
	for _, rt := range routes { // responses first (see schemaGen.request)
		for _, rs := range rt.responses {
			g.of(rs.body)
		}
	}
	paths := schema{}
	for _, rt := range routes {
		item, _ := paths[rt.path].(schema)
		if item == nil {
			item = schema{}
			paths[rt.path] = item
		}
		item[strings.ToLower(rt.method)] = g.operation(rt)
	}
	return schema{
		"openapi": "3.1.0",
		"info": schema{
			"title":   "Test automation hub API",
			"version": strconv.Itoa(protocol.DSLVersion) + ".0",
			"description": "The hub's JSON REST API. Every route needs a session (cookie ta_session, from POST /api/auth/login) " +
				"or an API token (Authorization: Bearer), except those marked public. Routes that list or create act on the " +
				"project named by the x-project-id header; routes for one record use the record's own project. A record of " +
				"another project answers 404. Every error is an Error: {error, code, issues?}.",
		},
		"servers":  []schema{{"url": "/"}},
		"security": []schema{{"session": []string{}}, {"token": []string{}}},
		"paths":    paths,
		"components": schema{
			"schemas": g.defs,
			"securitySchemes": schema{
				"session": schema{"type": "apiKey", "in": "cookie", "name": CookieName,
					"description": "The session cookie set by POST /api/auth/login or /api/auth/register (HttpOnly, SameSite=Strict)."},
				"token": schema{"type": "http", "scheme": "bearer",
					"description": "An API token from POST /api/tokens: Authorization: Bearer <token>."},
			},
			"parameters": schema{
				"ProjectId": schema{"name": ProjectHeader, "in": "header", "required": true,
					"description": "The project the route lists or creates in (prj_...).", "schema": schema{"type": "string"}},
			},
			"responses": schema{
				"Error": schema{"description": "An error: 400 malformed, 401 not signed in, 403 not allowed, 404 not found " +
					"(or another project's), 409 conflict, 413 too large, 415 not JSON, 421 addressed to a host name the hub does not answer to, " +
					"422 invalid (with issues), 429 too many attempts.",
					"content": schema{"application/json": schema{"schema": schemaRef("Error")}}},
			},
		},
	}
}

func (g *schemaGen) operation(rt apiRoute) schema {
	op := schema{"summary": rt.summary, "tags": []string{tag(rt.path)},
		"operationId": operationID(rt.method, rt.path)}
	var params []any
	if rt.isProject {
		params = append(params, schema{"$ref": "#/components/parameters/ProjectId"})
	}
	for _, seg := range strings.Split(rt.path, "/") {
		if strings.HasPrefix(seg, "{") {
			params = append(params, schema{"name": strings.Trim(seg, "{}"), "in": "path", "required": true, "schema": schema{"type": "string"}})
		}
	}
	for _, q := range rt.query {
		s := schema{"type": "string"}
		if q.integer {
			s = schema{"type": "integer"}
		}
		if q.enum != nil {
			s["enum"] = q.enum
		}
		params = append(params, schema{"name": q.name, "in": "query", "description": q.description, "schema": s})
	}
	if params != nil {
		op["parameters"] = params
	}
	if rt.isPublic {
		op["security"] = []schema{}
	}
	if rt.body != nil {
		g.request = true
		content := schema{"application/json": schema{"schema": g.of(rt.body)}}
		g.request = false
		if rt.csv {
			content["text/csv"] = schema{"schema": schema{"type": "string"}}
		}
		op["requestBody"] = schema{"required": true, "content": content}
	}
	if rt.raw {
		op["requestBody"] = schema{"required": true, "content": schema{"application/octet-stream": schema{"schema": schema{"type": "string", "format": "binary"}}}}
	}
	responses := schema{"default": schema{"$ref": "#/components/responses/Error"}}
	for _, rs := range rt.responses {
		code := strconv.Itoa(rs.status)
		out, _ := responses[code].(schema)
		if out == nil {
			out = schema{"description": http.StatusText(rs.status)}
			responses[code] = out
		}
		if rs.description != "" {
			out["description"] = rs.description
		}
		content, _ := out["content"].(schema)
		if content == nil && (rs.contentType != "" || rs.body != nil) {
			content = schema{}
			out["content"] = content
		}
		switch {
		case rs.contentType != "":
			content[rs.contentType] = schema{"schema": schema{"type": "string"}}
		case rs.body != nil:
			content["application/json"] = schema{"schema": g.of(rs.body)}
		}
	}
	op["responses"] = responses
	return op
}

// tag groups operations by the first path segment after /api.
func tag(path string) string {
	seg := strings.Split(strings.TrimPrefix(path, "/api/"), "/")[0]
	if seg == "" || seg == "openapi.json" {
		return "api"
	}
	return seg
}

// operationID is a stable name: GET /api/tests/{id}/versions -> getTestsIdVersions.
func operationID(method, path string) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	for _, seg := range strings.FieldsFunc(strings.TrimPrefix(path, "/api"), func(r rune) bool {
		return strings.ContainsRune("/{}-.", r)
	}) {
		b.WriteString(strings.ToUpper(seg[:1]) + seg[1:])
	}
	return b.String()
}

// docBody is the schema of a body that is a test document with more fields
// beside it (visibility, status, note); required false makes every
// document field optional (a save may send a status alone).
func docBody(required bool, extra jsonObj) schema {
	return schema{"x-document-body": true, "x-required": required, "x-extra": extra}
}

// expand replaces docBody markers (built lazily so TestDocument is shared).
func (g *schemaGen) docBody(s schema) schema {
	base := g.object(reflect.TypeFor[protocol.Document]())
	props := base["properties"].(schema)
	extra := s["x-extra"].(jsonObj)
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		props[k] = g.typ(reflect.TypeOf(extra[k]))
	}
	if !s["x-required"].(bool) {
		delete(base, "required")
	}
	return base
}
