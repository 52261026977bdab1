package metrics

import (
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestParseAllow(t *testing.T) {
	allow, err := ParseAllow(" 10.0.0.5, 192.168.0.0/16,::1 ,")
	if err != nil {
		t.Fatal(err)
	}
	for addr, want := range map[string]bool{"10.0.0.5": true, "10.0.0.6": false, "192.168.7.9": true, "::1": true,
		"::ffff:10.0.0.5": true, "127.0.0.1": false, "nonsense": false, "": false} {
		if got := Allowed(allow, addr); got != want {
			t.Errorf("Allowed(%q) = %v, want %v", addr, got, want)
		}
	}
	for _, bad := range []string{"10.0.0", "10.0.0.0/33", "example.com", "10.0.0.1:80"} {
		if _, err := ParseAllow(bad); err == nil {
			t.Errorf("ParseAllow(%q) accepted", bad)
		}
	}
	if allow, _ := ParseAllow(""); Allowed(allow, "127.0.0.1") {
		t.Error("no addresses allowed by default")
	}
}

func TestNilRecordsNothing(t *testing.T) {
	var m *Metrics
	m.RunFinished("passed", time.Second)
	m.StepFinished("click", "passed", time.Second)
	m.RunAssigned(time.Second)
	m.Gauge("x", "x", func() float64 { return 1 })
}

func TestLabelsBounded(t *testing.T) {
	m := New()
	m.StepFinished("", "passed", time.Millisecond)
	m.StepFinished(string(make([]byte, 100)), "passed", time.Millisecond)
	if n := testutil.CollectAndCount(m.stepDuration); n != 2 {
		t.Errorf("%d series", n)
	}
	m.Gauge("ta_test", "a gauge", func() float64 { return 1 })
	m.Gauge("ta_test", "a gauge", func() float64 { return 2 }) // a rebuilt hub takes it over
}
