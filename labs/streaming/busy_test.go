package streaming

import (
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// onPool is the lab on a given pool, for RunBusy.
var onPool = labtest.OnPool(New, "test")

// TestStarvedHandlerKeepsGPUFigures: a handler that takes 30 ms over every
// frame (a loaded host; the answer's tokens come every ~8 ms) reads each
// token later and later, yet every figure equals an unstarved run's, and
// only the starved run is told the server was busy.
func TestStarvedHandlerKeepsGPUFigures(t *testing.T) {
	tests := []struct {
		name    string
		changes labs.Values
	}{
		{"streaming", labs.Values{}},
		{"blocking", labs.Values{knobStreaming: false}},
		{"speed cap under the GPU's pace", labs.Values{knobSpeedCap: 50, knobAnswer: 100.0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			labtest.CheckStarvedRun(t, onPool, labtest.Values(tc.changes), 30*time.Millisecond)
		})
	}
}

// TestSharingNote: a run alone on its engine says nothing about sharing;
// with other learners' requests on the same engine it names how many.
func TestSharingNote(t *testing.T) {
	s, err := parse(t, labtest.Values(nil))
	if err != nil {
		t.Fatal(err)
	}
	labtest.CheckSharingNotes(t, onPool, s.profile, map[int]string{0: "", 1: "1 other request " + labtest.SharedNote, 3: "3 other requests " + labtest.SharedNote}, true)
}

// TestStarvedHostKeepsHostedFigures: on a host whose every wait ends
// 150 ms late (the warm-up, the network's upload and the engine's runner
// scheduled late) the hosted preset, other tenants on, gives the calm
// run's figures: the provider's engine adds the tenants on its own
// modelled clock and takes the request at the moment its upload ends on
// the modelled timeline, so it meets the same traffic.
func TestStarvedHostKeepsHostedFigures(t *testing.T) {
	vals := labtest.PresetWith(t, labtest.Inert(t, define), hostedPreset)(nil)
	if vals[pipelinelab.KnobTenants] == 0.0 {
		t.Fatal("the hosted preset has no other tenants to keep")
	}
	calm, starved := labtest.CheckStarvedHost(t, onPool, vals, 150*time.Millisecond)
	t.Logf("first token %v ms calm, %v ms starved; %s", labtest.Stat(t, calm, statTTFT), labtest.Stat(t, starved, statTTFT), starved.Status)
}
