package moderation

import (
	"strings"
	"testing"
	"time"

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

// TestUnevenPace: the first word's formula says why its window's tokens
// came at a pace other than the answer's mean only when they did.
func TestUnevenPace(t *testing.T) {
	ms := time.Millisecond
	paced := func(gaps ...time.Duration) *meter {
		m := &meter{genAt: []time.Duration{0}}
		for _, g := range gaps {
			m.genAt = append(m.genAt, m.genAt[len(m.genAt)-1]+g)
		}
		return m
	}
	for _, tc := range []struct {
		name    string
		m       *meter
		checked int
		want    string
	}{
		{"steady", paced(10*ms, 10*ms, 10*ms, 10*ms, 10*ms), 3, ""},
		{"slow start", paced(30*ms, 30*ms, 10*ms, 10*ms, 10*ms, 10*ms, 10*ms, 10*ms), 3, "30 ms each against 15 ms"},
		{"fast start", paced(5*ms, 5*ms, 20*ms, 20*ms, 20*ms, 20*ms), 3, "5 ms each against 15 ms"},
		{"too few tokens", paced(30*ms, 10*ms, 10*ms), 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := unevenPace(tc.m, tc.checked)
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("unevenPace = %q, want %q", got, tc.want)
			}
		})
	}
}
