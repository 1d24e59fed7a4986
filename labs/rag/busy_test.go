package rag

import (
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// TestBusyHostNote: the pipeline times its stages on the host's clock, so
// a handler that takes 60 ms over every frame is told its run was slowed
// by a busy server; an unstarved run is not.
func TestBusyHostNote(t *testing.T) {
	vals := labtest.Values(labs.Values{knobTopK: 5.0})
	calm := labtest.RunBusy(t, labtest.OnFakeDesk(t, New), vals, labtest.Busy{})
	starved := labtest.RunBusy(t, labtest.OnFakeDesk(t, New), vals, labtest.Busy{Consume: 60 * time.Millisecond})
	t.Log(calm.Status, " || ", starved.Status)
	if labtest.HasNote(calm, labtest.BusyNote) {
		t.Errorf("unstarved run says the server was busy: %q", calm.Status)
	}
	if !labtest.HasNote(starved, labtest.BusyNote) || !labtest.HasNote(starved, "include that delay") {
		t.Errorf("starved run does not say the server was busy and its times include it: %q", starved.Status)
	}
}
