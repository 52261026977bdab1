package runner

import "testing"

// The reader decodes only the Network events the trace reads: not a
// response's chunks nor the headers' extra info, which the trace keeps
// nothing of.
func TestTraceNetworkEvents(t *testing.T) {
	for ev, want := range map[string]bool{
		`{"method":"Network.requestWillBeSent","params":{}}`:          true,
		`{"method":"Network.responseReceived","params":{}}`:           true,
		`{"method":"Network.loadingFinished","params":{}}`:            true,
		`{"method":"Network.loadingFailed","params":{}}`:              true,
		`{"method":"Network.requestWillBeSentExtraInfo","params":{}}`: false,
		`{"method":"Network.responseReceivedExtraInfo","params":{}}`:  false,
		`{"method":"Network.dataReceived","params":{}}`:               false,
		`{"method":"Network.requestServedFromCache","params":{}}`:     false,
		`{"id":3,"result":{}}`:                                        false,
	} {
		if got := traceNetworkEvent([]byte(ev)); got != want {
			t.Errorf("%s: %v, want %v", ev, got, want)
		}
	}
}
