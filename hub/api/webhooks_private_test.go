package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/webhooks"
)

// pingDelivery sends the webhook's test ping and waits for its delivery to
// end; it answers the delivery.
func pingDelivery(t *testing.T, c *client, hook string) map[string]any {
	t.Helper()
	id := c.do("POST", "/api/webhooks/"+hook+"/test", nil).want(t, 202).str("deliveryId")
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		for _, d := range c.do("GET", "/api/webhooks/"+hook+"/deliveries", nil).want(t, 200).json()["deliveries"].([]any) {
			if m := d.(map[string]any); m["id"] == id && m["status"] != "pending" {
				return m
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the ping of %s did not end within 15 s", hook)
	return nil
}

// A Test Manager cannot map the hub's own ports through the delivery log:
// receivers on loopback (or private) addresses that answer 501, never
// answer, or refuse the connection all read "delivery failed", without a
// status, after the same time; the hub's log keeps the detail for its
// operator. A receiver that answers 2xx still reads as succeeded.
func TestWebhookPrivateReceiversFailAlike(t *testing.T) {
	h := newHarness(t)
	const timeout = 400 * time.Millisecond
	h.startWebhooks(t, timeout)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	notImplemented := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNotImplemented) })
	release := make(chan struct{})
	silent := newReceiver(t, func(_ int, _ http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close() // its port now refuses connections
	ok := newReceiver(t, nil)

	hook := func(name, url string) string {
		return mgr.projectDo(o.project, "POST", "/api/webhooks", obj{"name": name, "url": url}).want(t, 201).str("id")
	}
	failures := map[string]string{"answers 501": hook("501", notImplemented.srv.URL), "never answers": hook("Silent", silent.srv.URL),
		"refuses": hook("Closed", closedURL)}
	for what, id := range failures {
		d := pingDelivery(t, mgr, id)
		log := d["attemptLog"].([]any)
		entry := log[0].(map[string]any)
		if d["status"] != "failed" || d["responseStatus"] != nil || entry["responseStatus"] != nil ||
			d["error"] != webhooks.InternalFailure || entry["error"] != webhooks.InternalFailure {
			t.Errorf("a receiver that %s on loopback: %v", what, d)
		}
		if ms := num(entry["durationMs"]); ms < int(timeout.Milliseconds()) {
			t.Errorf("a receiver that %s failed in %d ms, before the %s time-out: the time tells it apart", what, ms, timeout)
		}
	}
	logs := h.logs.String()
	for _, detail := range []string{"501 Not Implemented", "no answer within", "connection refused"} {
		if !strings.Contains(logs, detail) {
			t.Errorf("the hub's log lacks %q for its operator", detail)
		}
	}
	if d := pingDelivery(t, mgr, hook("OK", ok.srv.URL)); d["status"] != "succeeded" || d["error"] != nil || d["responseStatus"] != nil {
		t.Errorf("a receiver on loopback that answers 200: %v", d)
	}
}

// IPv4 link-local addresses are refused in their IPv6 forms when saving,
// and when sending to an address saved before this check (or a name that
// resolves to one): the connection is never tried.
func TestWebhookEmbeddedIPv4Refused(t *testing.T) {
	h := newHarness(t)
	h.startWebhooks(t, 2*time.Second)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	for _, u := range []string{"http://[64:ff9b::a9fe:a9fe]/", "http://[64:ff9b::169.254.169.254]/latest/meta-data", "http://[::169.254.169.254]/",
		"http://[2002:a9fe:a9fe::]/", "http://[2001:0:4136:e378:8000:63bf:5601:5601]/", "http://[64:ff9b:1::a9fe:a9fe]/"} {
		r := mgr.projectDo(o.project, "POST", "/api/webhooks", obj{"name": "Metadata", "url": u}).want(t, 422)
		if issues := r.json()["issues"].([]any); len(issues) != 1 || issues[0].(map[string]any)["path"] != "url" {
			t.Errorf("%s: %s", u, r.body)
		}
	}
	if n := len(mgr.projectDo(o.project, "GET", "/api/webhooks", nil).want(t, 200).json()["webhooks"].([]any)); n != 0 {
		t.Fatalf("%d webhooks after refused saves", n)
	}

	id := mgr.projectDo(o.project, "POST", "/api/webhooks", obj{"name": "Old", "url": "https://example.com/"}).want(t, 201).str("id")
	if _, err := h.store.Pool().Exec(t.Context(), `UPDATE webhooks SET url = 'http://[64:ff9b::a9fe:a9fe]/latest/meta-data' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	d := pingDelivery(t, mgr, id)
	if d["status"] != "failed" || !strings.Contains(d["error"].(string), "which webhooks may not reach") {
		t.Errorf("delivery to a NAT64 link-local address: %v", d)
	}
}
