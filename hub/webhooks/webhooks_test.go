package webhooks

import (
	"encoding/json"
	"errors"
	"net/netip"
	"strings"
	"testing"
)

// GitHub's documented example: the same scheme verifies with the same code
// receivers already have.
func TestSignMatchesGitHub(t *testing.T) {
	const want = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"
	if got := Sign("It's a Secret to Everybody", []byte("Hello, World!")); got != want {
		t.Fatalf("Sign = %s, want %s", got, want)
	}
	if !Verify("It's a Secret to Everybody", []byte("Hello, World!"), want) || Verify("another", []byte("Hello, World!"), want) ||
		Verify("It's a Secret to Everybody", []byte("Hello, World?"), want) {
		t.Error("Verify accepts what it should not, or refuses the right signature")
	}
}

func TestCheckURL(t *testing.T) {
	for raw, ok := range map[string]bool{
		"https://ci.example.com/hooks/tests": true,
		"http://127.0.0.1:8080/hook":         true, // loopback: tests, on-premise
		"http://10.0.0.5/hook":               true,
		"http://[::1]:9000/":                 true,
		"":                                   false,
		"ci.example.com/hook":                false,
		"/hook":                              false,
		"ftp://example.com/":                 false,
		"javascript:alert(1)":                false,
		"http://169.254.169.254/latest/meta-data":          false,
		"http://[fe80::1%25eth0]/":                         false,
		"http://[::ffff:169.254.169.254]/":                 false,
		"http://0.0.0.0/":                                  false,
		"https://example.com/a b":                          false,
		"https://example.com/" + strings.Repeat("x", 1981): false,
	} {
		if got := CheckURL(raw) == ""; got != ok {
			t.Errorf("CheckURL(%.60q) ok = %v, want %v (%s)", raw, got, ok, CheckURL(raw))
		}
	}
}

// The dialer refuses link-local addresses whatever name led to them.
func TestGuardDial(t *testing.T) {
	for addr, refused := range map[string]bool{
		"169.254.169.254:80": true, "[fe80::1]:443": true, "[::ffff:169.254.1.1]:80": true,
		"127.0.0.1:80": false, "10.1.2.3:443": false, "[2001:db8::1]:443": false,
	} {
		err := guardDial("tcp", addr, nil)
		if got := errors.Is(err, errRefusedAddress); got != refused {
			t.Errorf("guardDial(%s) = %v", addr, err)
		}
	}
	if !Refused(netip.MustParseAddr("169.254.0.1")) || Refused(netip.MustParseAddr("192.168.1.1")) {
		t.Error("Refused")
	}
}

func TestSlackBody(t *testing.T) {
	p := Payload{Event: RunFinished, Project: ProjectRef{ID: "prj_x", Name: "Shop <&>"},
		Run: &RunPayload{RunID: "run_x", TestName: "Sign <in>", Status: "passed", Passed: 3, Total: 3, DurationMs: 4200, URL: "http://hub/runs/run_x"}}
	data, err := body(FormatSlack, p)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Text   string `json:"text"`
		Blocks []struct {
			Type string `json:"type"`
			Text struct{ Type, Text string }
		} `json:"blocks"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	want := "✅ Run of Sign &lt;in&gt; passed in Shop &lt;&amp;&gt;: 3/3 passed in 4.2s <http://hub/runs/run_x|Open the run>"
	if got.Text != want || len(got.Blocks) != 1 || got.Blocks[0].Type != "section" || got.Blocks[0].Text.Text != want {
		t.Errorf("slack body %s", data)
	}
	data, _ = body(FormatJSON, p)
	if !strings.Contains(string(data), `"event":"run.finished"`) || strings.Contains(string(data), `"batch"`) {
		t.Errorf("json body %s", data)
	}
}
