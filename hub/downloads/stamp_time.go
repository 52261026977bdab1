package downloads

import "time"

// The entries a stamp adds (hub.json, its folders) take the package's own
// newest time, not the time of stamping: then a package stamped with the
// same address is the same bytes on every hub and after every restart, so
// the SHA-256 one hub lists is the one another hub serves (several hubs
// behind one address, docs/object-storage.md "Agent downloads").

// stampFloor is the time of a package without times: the first a zip
// entry can hold.
var stampFloor = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func stampTime(newest time.Time) time.Time {
	if newest.Before(stampFloor) {
		return stampFloor
	}
	return newest.UTC().Truncate(time.Second)
}
