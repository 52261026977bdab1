package protocol

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Selenium IDE's own example projects (testdata/side-examples) import
// every command, control flow included, into valid documents; the golden
// file shows what each test became.
func TestImportSideExamples(t *testing.T) {
	files, err := filepath.Glob("testdata/side-examples/projects/*.side")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example projects: %v", err)
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	commands, left := 0, 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		docs, skipped, issues := ImportSide(data)
		wantIssues(t, issues)
		for _, s := range skipped {
			if s.Command != "debugger" && s.Command != "setSpeed" {
				t.Errorf("%s: %s#%d %s was left out: %s", filepath.Base(file), s.Test, s.Index, s.Command, s.Reason)
			}
		}
		var p struct{ Tests []struct{ Commands []any } }
		_ = json.Unmarshal(data, &p)
		for _, tc := range p.Tests {
			commands += len(tc.Commands)
		}
		left += len(skipped)
		for _, d := range docs {
			wantIssues(t, d.Validate())
			roundTrip(t, d)
		}
		if err := enc.Encode(map[string]any{"project": filepath.Base(file), "documents": docs, "skipped": skipped}); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("figure: %d of %d commands imported; %d left out", commands-left, commands, left)
	golden(t, "testdata/side/examples.want.json", out.Bytes())
}

// sideProject wraps commands into a one-test project.
func sideProject(t *testing.T, cmds ...map[string]any) Document {
	t.Helper()
	data, _ := json.Marshal(map[string]any{"url": "http://app.test", "tests": []any{map[string]any{"id": "t", "name": "T", "commands": cmds}}})
	docs, skipped, issues := ImportSide(data)
	wantIssues(t, issues)
	wantSkipped(t, skipped)
	if len(docs) != 1 {
		t.Fatalf("%d documents", len(docs))
	}
	wantIssues(t, docs[0].Validate())
	return docs[0]
}

func cmd(command, target, value string) map[string]any {
	return map[string]any{"command": command, "target": target, "value": value}
}

// stepLine is a compact view of a step for the tests below.
func stepLine(s Step) string {
	b, _ := json.Marshal(s)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	delete(m, "id")
	if tg, ok := m["target"].(map[string]any); ok {
		locs := tg["locators"].([]any)
		m["target"] = locs[0].(map[string]any)["value"]
	}
	if tg, ok := m["to"].(map[string]any); ok {
		m["to"] = tg["locators"].([]any)[0].(map[string]any)["value"]
	}
	b, _ = json.Marshal(m)
	return string(b)
}

func wantSteps(t *testing.T, d Document, want ...string) {
	t.Helper()
	var got []string
	for _, s := range d.Steps {
		got = append(got, stepLine(s))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
