package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/testautomation/ta/protocol"
)

// scriptDevice takes the optional device out of a POST /api/script body:
// the run option device, for which the script uses that device's profile
// (Issue 28). The names are the run option's (protocol.Devices), which
// are Playwright's own names for the same profiles. It answers 422 and
// false for another name.
func scriptDevice(w http.ResponseWriter, fields map[string]json.RawMessage) (string, bool) {
	raw, has := fields["device"]
	if !has {
		return "", true
	}
	delete(fields, "device")
	var name string
	if json.Unmarshal(raw, &name) != nil || name == "" {
		writeIssues(w, "the device is not valid", []Issue{{Path: "device", Code: "type",
			Message: `device is the name of a device profile, such as "Pixel 7" or "iPhone 15"`}})
		return "", false
	}
	if _, ok := protocol.DeviceByName(name); !ok {
		writeIssues(w, "the device is not known", []Issue{{Path: "device", Code: "enum",
			Message: fmt.Sprintf("unknown device %q: use one of %s", clipText(name, 60), strings.Join(protocol.DeviceNames(), ", "))}})
		return "", false
	}
	return name, true
}

// scriptFileNames names the project's files for a script's upload steps,
// which read them from files/<name> beside the spec.
func (s *Server) scriptFileNames(ctx context.Context, projectID string) func(string) (string, bool) {
	files, err := s.store.Files(ctx, projectID)
	if err != nil {
		return nil // named by id, as when the file is gone
	}
	names := make(map[string]string, len(files))
	for _, f := range files {
		names[f.ID] = f.Name
	}
	return func(id string) (string, bool) {
		n, ok := names[id]
		return n, ok
	}
}
