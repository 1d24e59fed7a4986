package streaming

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// The "why" behind TTFT and TPOT fills the roofline with the run's own
// numbers, names the bound (a long prefill is compute-bound, a decode
// step memory-bound) and lands on what the run measured alone.
func TestWhyMatchesTheRun(t *testing.T) {
	for _, tc := range []struct {
		name    string
		changes labs.Values
	}{
		{"default prompt on an H100", labs.Values{}},
		{"huge prompt on an L4", labs.Values{knobPrompt: 8000.0, knobGPU: "l4", knobAnswer: 100.0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				l, _ := newTestLab(t)
				var last labs.Frame
				if err := l.Run(context.Background(), labtest.Values(tc.changes), func(f labs.Frame) { last = f }); err != nil {
					t.Fatal(err)
				}
				labtest.CheckWhy(t, labtest.StatOf(t, last, statTTFT), "compute-bound")
				labtest.CheckWhy(t, labtest.StatOf(t, last, statTPOT), "memory-bound")
			})
		})
	}
}
