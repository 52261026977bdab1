// Package web holds the web application (TypeScript + React, built by Vite
// into web/dist) and serves it from the hub: hashed assets cached as
// immutable, index.html never cached, and every other path that is not a
// file answered with index.html so the application's own routes
// (/tests, /runs/<id>, /pair/<code>) load on reload and from links.
//
// dist/ is embedded at build time. Before the first web build it holds only
// .keep, and the hub answers with a page saying how to build the app.
package web

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist is the built application (the contents of web/dist).
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // the embed pattern guarantees the folder
	}
	return sub
}
