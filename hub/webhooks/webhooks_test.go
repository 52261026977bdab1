package webhooks

import (
	"encoding/json"
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/store"
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
		"http://[64:ff9b::a9fe:a9fe]/":                     false, // NAT64 of 169.254.169.254
		"http://[64:ff9b::169.254.169.254]/":               false,
		"http://[64:ff9b:1:a9fe:a9:fe00::]/":               false, // local-use NAT64, /48
		"http://[64:ff9b:1::a9fe:a9fe]/":                   false, // local-use NAT64, /96
		"http://[::169.254.169.254]/":                      false, // IPv4-compatible
		"http://[::ffff:0:a9fe:a9fe]/":                     false, // IPv4-translated
		"http://[2002:a9fe:a9fe::1]/":                      false, // 6to4
		"http://[2001:0:4136:e378:8000:63bf:5601:5601]/":   false, // Teredo, client 169.254.169.254 inverted
		"http://[2001:0:a9fe:a9fe::1]/":                    false, // Teredo, server 169.254.169.254
		"http://[64:ff9b::0:0]/":                           false, // NAT64 of 0.0.0.0
		"http://[64:ff9b::7f00:1]/":                        true,  // NAT64 of loopback: allowed as loopback is
		"http://[64:ff9b::808:808]/":                       true,
		"http://[2002:808:808::1]/":                        true,
		"http://[2001:db8::a9fe:a9fe]/":                    true, // documentation range, nothing embedded
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
		"[64:ff9b::a9fe:a9fe]:80": true, "[2002:a9fe:1::]:80": true, "[::a9fe:a9fe]:80": true, "0.1.2.3:80": true,
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

// A scheduled batch's Slack line names its schedule, escaped (issue 31).
func TestSlackBodyNamesSchedule(t *testing.T) {
	p := Payload{Event: BatchFinished, Project: ProjectRef{ID: "prj_x", Name: "Shop"},
		Batch: &BatchPayload{BatchID: "bat_x", Status: "failed", Passed: 1, Failed: 1, Total: 2, URL: "http://hub/batches/bat_x",
			Schedule: &ScheduleRef{ID: "sch_x", Name: "Nightly <eu>"}}}
	data, err := body(FormatSlack, p)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Text string `json:"text"`
	}
	want := "❌ Batch of 2 runs (schedule Nightly &lt;eu&gt;) failed in Shop: 1 passed, 1 did not <http://hub/batches/bat_x|Open the batch>"
	if json.Unmarshal(data, &got) != nil || got.Text != want {
		t.Errorf("slack body %s, want %s", data, want)
	}
}

// Internal names the hub's own machine and network, in every form Refused
// reads.
func TestInternal(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1": true, "::1": true, "10.1.2.3": true, "172.16.0.1": true, "192.168.1.1": true, "100.64.0.1": true,
		"fd00::1": true, "fec0::1": true, "::ffff:127.0.0.1": true, "64:ff9b::7f00:1": true, "64:ff9b::a00:1": true,
		"2002:c0a8:101::1": true, "::127.0.0.2": true, "169.254.169.254": false, "fe80::1%eth0": false,
		"8.8.8.8": false, "2606:4700::1111": false, "64:ff9b::808:808": false, "2002:808:808::1": false, "100.128.0.1": false,
	} {
		if got := Internal(netip.MustParseAddr(addr)); got != want {
			t.Errorf("Internal(%s) = %v, want %v", addr, got, want)
		}
	}
}

// A public receiver's answer is kept; a loopback or private one's is not:
// every failure there reads the same, so the delivery log cannot tell a
// closed port from an open one or one service from another.
func TestSummarize(t *testing.T) {
	refused := errors.New("dial tcp: connect: connection refused")
	for _, tc := range []struct {
		code     int
		err      error
		internal bool
		want     store.Attempt
		detail   string
	}{
		{200, nil, false, store.Attempt{ResponseStatus: 200, Succeeded: true}, ""},
		{501, nil, false, store.Attempt{ResponseStatus: 501, Error: "the receiver answered 501 Not Implemented"}, ""},
		{0, refused, false, store.Attempt{Error: refused.Error()}, ""},
		{204, nil, true, store.Attempt{Succeeded: true}, ""},
		{501, nil, true, store.Attempt{Error: InternalFailure}, "the receiver answered 501 Not Implemented"},
		{302, nil, true, store.Attempt{Error: InternalFailure}, "the receiver answered 302 Found"},
		{0, refused, true, store.Attempt{Error: InternalFailure}, refused.Error()},
	} {
		got, detail := summarize(tc.code, tc.err, tc.internal)
		if got != tc.want || detail != tc.detail {
			t.Errorf("summarize(%d, %v, %v) = %+v, %q; want %+v, %q", tc.code, tc.err, tc.internal, got, detail, tc.want, tc.detail)
		}
	}
}
