package prefilldecode

import (
	"context"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

func onPool(pool *labs.Engines) labs.Lab {
	l, err := New(labs.LiveConfig{Engines: pool, Tick: -1, RunTag: "0a1b2c3d"})
	if err != nil {
		panic(err)
	}
	return l
}

// TestStarvedHandlerKeepsGPUFigures: a handler that takes 200 ms over
// every frame (it emits one at the first token, so the decode's tokens,
// ~8 ms apart, pile up behind it) gives the same figures as an unstarved
// one, and only it is told the server was busy.
func TestStarvedHandlerKeepsGPUFigures(t *testing.T) {
	vals := labtest.Values(nil)
	calm := labtest.RunBusy(t, onPool, vals, labtest.Busy{})
	starved := labtest.RunBusy(t, onPool, vals, labtest.Busy{Consume: 200 * time.Millisecond})
	labtest.CheckGPUFigures(t, calm, starved)
	t.Log(calm.Status, " || ", starved.Status)
	if labtest.HasNote(calm, labtest.BusyNote) {
		t.Errorf("unstarved run says the server was busy: %q", calm.Status)
	}
	if !labtest.HasNote(starved, labtest.BusyNote) {
		t.Errorf("starved run does not say the server was busy: %q", starved.Status)
	}
}

// TestSharingNote: alone, no sharing note; with two other learners'
// requests on the engine, a note naming two.
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
		{"two others", 2, "2 other requests " + labtest.SharedNote},
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
			if !labtest.HasNote(final, tc.want) {
				t.Errorf("status %q, want %q", final.Status, tc.want)
			}
		})
	}
}
