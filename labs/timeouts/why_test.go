package timeouts

import (
	"testing"

	"github.com/latencylab/latencylab/labs"

	"github.com/latencylab/latencylab/labs/labtest"
)

// Every preset's percentiles carry the formula of the request at that
// rank: its stages and attempts add up to its first word (within 1%; the
// rest is the hand-overs the panel names), and the complete answer is its
// first word plus its tokens at its TPOT.
func TestWhyMatchesTheRun(t *testing.T) {
	for i, p := range labtest.Inert(t, define).Presets() {
		t.Run(p.Name, func(t *testing.T) {
			f := presetFinal(t, i)
			for _, key := range []string{statFirstWordP95, statFirstWordP99, statCompleteP95} {
				if st, ok := find(f.Stats, key); ok {
					labtest.CheckFormula(t, st, 0.01)
				}
			}
		})
	}
}

func find(stats []labs.Stat, key string) (labs.Stat, bool) {
	for _, st := range stats {
		if st.Key == key {
			return st, true
		}
	}
	return labs.Stat{}, false
}
