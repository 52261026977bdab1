package api

import (
	"encoding/json"
	"net/http"
	"regexp"
)

// deviceNameRe accepts the names of Playwright's device profiles: "Pixel 7",
// "iPhone 15 Pro Max landscape", "Galaxy S9+", "Desktop Chrome HiDPI".
var deviceNameRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 ().+-]{0,99}$`)

// scriptDevice takes the optional device out of a POST /api/script body:
// the run option device, for which the script uses that device's profile
// (Issue 28). It answers 422 and false when the device is not a name.
func scriptDevice(w http.ResponseWriter, fields map[string]json.RawMessage) (string, bool) {
	raw, has := fields["device"]
	if !has {
		return "", true
	}
	delete(fields, "device")
	var name string
	if json.Unmarshal(raw, &name) != nil || !deviceNameRe.MatchString(name) {
		writeIssues(w, "the device is not valid", []Issue{{Path: "device", Code: "format",
			Message: `device is the name of a Playwright device profile, such as "Pixel 7" or "iPhone 15"`}})
		return "", false
	}
	return name, true
}
