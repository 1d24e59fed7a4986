package budget

import (
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// Every headline figure carries its formula filled in with the run's own
// stages, and the formula comes to the figure: within 2% for the one live
// request (the trace's hand-overs are the rest) and 0.5% for the batch,
// whose first words are exactly the sum of their stages.
func TestWhyMatchesTheRun(t *testing.T) {
	for _, tc := range []struct {
		name string
		vals labs.Values
	}{
		{"parallel", labs.Values{knobRequests: 50.0, knobAnswer: 50.0}},
		{"sequential", labs.Values{knobLookups: "sequential", knobRequests: 50.0, knobAnswer: 50.0}},
		{"two calls in sequence", labs.Values{knobModelCalls: callsSequence, knobRequests: 50.0, knobAnswer: 50.0}},
		{"two calls together", labs.Values{knobModelCalls: callsTogether, knobRequests: 50.0, knobAnswer: 50.0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			last := runLab(t, tc.vals)
			f := last[len(last)-1]
			for key, tol := range map[string]float64{statFirstWord: 0.02, statComplete: 0.02, statLookups: 0.02,
				statMean: 0.005, statP50: 0.005, statP95: 0.005, statP99: 0.005, statJudged: 0.005} {
				labtest.CheckFormula(t, labtest.StatOf(t, f, key), tol)
			}
			// The second call: its first token + its summary's decode
			// steps, within 2% (its stream's close is the rest).
			if tc.vals[knobModelCalls] != nil {
				labtest.CheckFormula(t, labtest.StatOf(t, f, statSecondCall), 0.02)
			}
		})
	}
}
