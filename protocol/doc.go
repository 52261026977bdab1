// Package protocol is the wire contract shared by the hub and the desktop
// agent: the test document (DSL) with its validation and migration, the
// step-type registry, run events and agent messages. It does no I/O and
// imports neither the hub nor the agent.
//
// The contract is filled in by the test-cases and agent issues; until then
// this package holds only this description.
package protocol
