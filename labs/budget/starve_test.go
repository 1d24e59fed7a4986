package budget

import (
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// A reader that takes its time over every frame (a slow connection, a
// starved host) must not move the figures: the stages' waits and the
// engine's token stamps are the pipeline's, not the reader's. The run is
// the lesson's default and the hosted preset.
func TestStarvedReaderKeepsFigures(t *testing.T) {
	newLab := onDesk(t)
	for _, name := range []string{"Seed example: parallel lookups", hostedPreset} {
		t.Run(name, func(t *testing.T) {
			vals := labtest.PresetWith(t, labtest.Inert(t, define), name)(labs.Values{knobRequests: 20.0})
			calm := labtest.RunBusy(t, newLab, vals, labtest.Busy{})
			starved := labtest.RunBusy(t, newLab, vals, labtest.Busy{Consume: 250 * time.Millisecond})
			labtest.CheckGPUFigures(t, calm, starved)
		})
	}
}

// A starved host (every wait of the pipeline, the network and the
// engine's runner ends 30 ms late) does not move the figures either: the
// stages take their modelled times, the model call starts when the
// prompt was ready on the modelled timeline, and the note says the
// server was busy. The hosted preset keeps its other tenants: the
// provider's engine adds them on its own modelled clock and takes each
// call (a second one in sequence too) at the moment the modelled timeline
// sends it, so the calls meet the same traffic. Two calls sent together
// are left out: which of them reaches the engine first, and so whether
// they share their first step, is the host's goroutine order, calm or not.
func TestStarvedHostKeepsFigures(t *testing.T) {
	newLab := onDesk(t)
	for _, tc := range []struct {
		name, calls string
	}{
		{"Seed example: parallel lookups", callsOne},
		{hostedPreset, callsOne},
		{hostedPreset, callsSequence},
	} {
		name := tc.name
		t.Run(name+", calls "+tc.calls, func(t *testing.T) {
			vals := labtest.PresetWith(t, labtest.Inert(t, define), name)(labs.Values{knobRequests: 20.0, knobModelCalls: tc.calls})
			calm, starved := labtest.CheckStarvedHost(t, newLab, vals, 150*time.Millisecond)
			t.Logf("first word %v ms calm, %v ms starved; %s", labtest.Stat(t, calm, statFirstWord), labtest.Stat(t, starved, statFirstWord), starved.Status)
		})
	}
}

// onDesk builds the lab on a pool with the fake support desk answering
// its lookups and a fixed run tag.
func onDesk(t *testing.T) func(*labs.Engines) labs.Lab {
	return func(pool *labs.Engines) labs.Lab {
		desk := labtest.NewFakeStore()
		return labtest.Must[*Lab](t)(New(Config{Engines: pool, Retriever: desk, Orders: desk, RunTag: "test"}))
	}
}
