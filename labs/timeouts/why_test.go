package timeouts

import (
	"strings"
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

// The batch's counts carry their formulas, exact: the timeouts by the
// limit that cut each, the errors by how they failed and the backup's
// share by why the primary lost the request. Every timeout is put down
// to a limit the learner set, and every backup answer to the primary's
// silence or failure.
func TestWhyOfCounts(t *testing.T) {
	for i, p := range labtest.Inert(t, define).Presets() {
		t.Run(p.Name, func(t *testing.T) {
			f := presetFinal(t, i)
			for _, key := range []string{statTimeouts, statErrors, statFallback, statCut} {
				st := labtest.StatOf(t, f, key)
				labtest.CheckFormula(t, st, 0)
				for _, unexplained := range []string{"another limit", "otherwise", "(none set) 1", "(none set) 2"} {
					if strings.Contains(st.Why, unexplained) {
						t.Errorf("%s: %q in %q", key, unexplained, st.Why)
					}
				}
			}
		})
	}
}
