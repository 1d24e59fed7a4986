package moderation

import (
	"testing"

	mod "github.com/latencylab/latencylab/engine/moderation"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// Each policy's figures carry formulas from the run's own token times.
// First word, total, lag and time in moderation are exact splits of the
// measured times (1%); tokens after the problem divide a time by the
// answer's mean time per token, so the engine's uneven steps leave up to
// 10%.
func TestWhyMatchesTheRun(t *testing.T) {
	for _, p := range mod.Policies() {
		t.Run(string(p), func(t *testing.T) {
			frames, _ := runLab(t, labs.Values{knobPolicy: string(p)})
			last := frames[len(frames)-1]
			for key, tol := range map[string]float64{statFirstWord: 0.01, statTotal: 0.01, statLag: 0.01, statModeration: 0.01, statAfterProblem: 0.10} {
				st := labtest.StatOf(t, last, key)
				if st.Why == "" && (st.Value == 0 && (key == statAfterProblem || key == statLag) || key == statModeration && p == mod.NoModeration) {
					continue // nothing to explain: nothing written after the problem, nothing shown, or no check made
				}
				labtest.CheckFormula(t, st, tol)
			}
		})
	}
}
