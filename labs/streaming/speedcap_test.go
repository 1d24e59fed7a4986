package streaming

import (
	"math"
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// TestSpeedCapReplaysTheLessonTable: with the model held to R tokens a
// second, a 1,000-token answer takes 999/R seconds after its first token,
// the lesson's 33 / 20 / 10 / 5 s at 30 / 50 / 100 / 200 tok/s. A cap above
// what the GPU manages changes nothing, so 200 tok/s is at least 5 s.
func TestSpeedCapReplaysTheLessonTable(t *testing.T) {
	tests := []struct {
		cap   float64
		exact bool // the GPU is faster than the cap, so the cap sets the pace
	}{{30, true}, {50, true}, {100, true}, {200, false}}
	for _, tc := range tests {
		frames := labtest.RunInBubble(t, func(pool *labs.Engines) labs.Lab {
			return mustNew(t, Config{Engines: pool, Tick: -1})
		}, labs.Values{knobAnswer: 1000.0, knobSpeedCap: tc.cap}, nil)
		st := labtest.StatMap(t, frames[len(frames)-1])
		wantTPOT := 1000 / tc.cap // ms
		if st[statTokens] != 1000 {
			t.Fatalf("cap %v: %v tokens", tc.cap, st[statTokens])
		}
		if got := st[statTPOT]; (tc.exact && math.Abs(got-wantTPOT) > 1e-6) || got < wantTPOT-1e-6 {
			t.Errorf("cap %v tok/s: tpot %v ms, want %v", tc.cap, got, wantTPOT)
		}
		after := (st[statTotal] - st[statTTFT]) / 1000
		t.Logf("cap %3v tok/s: the 1,000-token answer ends %.1f s after its first token", tc.cap, after)
	}
}
