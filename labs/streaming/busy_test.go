package streaming

import (
	"context"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

func onPool(pool *labs.Engines) labs.Lab {
	l, err := New(labs.LiveConfig{Engines: pool, Tick: -1, RunTag: "test"})
	if err != nil {
		panic(err)
	}
	return l
}

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
			vals := labtest.Values(tc.changes)
			calm := labtest.RunBusy(t, onPool, vals, labtest.Busy{})
			starved := labtest.RunBusy(t, onPool, vals, labtest.Busy{Consume: 30 * time.Millisecond})
			labtest.CheckGPUFigures(t, calm, starved)
			t.Log(calm.Status, " || ", starved.Status)
			if labtest.HasNote(calm, labtest.BusyNote) {
				t.Errorf("unstarved run says the server was busy: %q", calm.Status)
			}
			if !labtest.HasNote(starved, labtest.BusyNote) {
				t.Errorf("starved run does not say the server was busy: %q", starved.Status)
			}
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
	tests := []struct {
		name   string
		others int
		want   string
	}{
		{"alone", 0, ""},
		{"one other", 1, "1 other request " + labtest.SharedNote},
		{"three others", 3, "3 other requests " + labtest.SharedNote},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			final := labtest.RunBusy(t, onPool, labtest.Values(nil), labtest.Busy{Beside: func(ctx context.Context, pool *labs.Engines) {
				for i := range tc.others {
					labtest.Competitor(t, ctx, pool, s.profile, "other-"+string(rune('a'+i)), 2000, 600)
				}
			}})
			t.Log(final.Status)
			if tc.want == "" {
				if labtest.HasNote(final, labtest.SharedNote) {
					t.Errorf("a lone run mentions sharing: %q", final.Status)
				}
				return
			}
			if !labtest.HasNote(final, tc.want) || !labtest.HasNote(final, "which added ~") {
				t.Errorf("status %q, want %q and what it added", final.Status, tc.want)
			}
		})
	}
}
