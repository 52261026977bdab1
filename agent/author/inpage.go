package author

import _ "embed"

//go:embed recorder.js
var recorderJS string

//go:embed locators.js
var locatorsJS string

// inpageJS is the in-page script (see doc.go).
var inpageJS = recorderJS + "\n;\n" + locatorsJS
