package streaming

import (
	"context"
	"regexp"
	"strconv"
	"strings"
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
				ttft, tpot := labtest.StatOf(t, last, statTTFT), labtest.StatOf(t, last, statTPOT)
				t.Log(ttft.Why)
				t.Log(tpot.Why)
				if !strings.Contains(ttft.Why, "compute-bound") || !strings.Contains(tpot.Why, "memory-bound") {
					t.Fatalf("why TTFT %q\nwhy TPOT %q", ttft.Why, tpot.Why)
				}
				for _, c := range []labs.Stat{ttft, tpot} {
					end := approxEnd(t, c.Why)
					if d := end - c.Value; d < -0.05*c.Value || d > 0.05*c.Value {
						t.Errorf("%s: the explanation ends at %.2f ms, the run measured %.2f ms: %q", c.Key, end, c.Value, c.Why)
					}
				}
			})
		})
	}
}

// approxEnd is the "≈ N ms" an explanation ends on.
func approxEnd(t *testing.T, why string) float64 {
	t.Helper()
	m := regexp.MustCompile(`≈ ([0-9.]+) ms`).FindAllStringSubmatch(why, -1)
	if len(m) == 0 {
		t.Fatalf("no ≈ figure in %q", why)
	}
	v, err := strconv.ParseFloat(m[len(m)-1][1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
