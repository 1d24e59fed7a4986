package budget

import (
	"math"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/pipelinelab"
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

// Each batch figure is rounded once: the judged percentile's card, the
// status, its formula's "≈" and the margin to the budget all show the
// same whole milliseconds (the hosted preset once showed 939 on the card
// and 938 in the status and the formula).
func TestOneRoundingOfTheJudgedFigure(t *testing.T) {
	for _, name := range []string{hostedPreset, "Seed example: parallel lookups", "Heavy tail: one in twenty slow"} {
		t.Run(name, func(t *testing.T) {
			vals := presetValues(t, name)
			f := last(runLab(t, vals))
			judged := labtest.StatOf(t, f, statJudged)
			v := judged.Value
			if v >= 100 && v != math.Trunc(v) {
				t.Errorf("judged first word %v: want whole milliseconds, rounded once", v)
			}
			if !strings.Contains(f.Status, "first word is "+pipelinelab.FmtMS(v)+" ") {
				t.Errorf("card %v ms, status: %s", v, f.Status)
			}
			if want := "≈ " + labs.Figure(v) + " ms."; !strings.Contains(judged.Why, want) {
				t.Errorf("card %v ms, formula does not end %q: %s", v, want, judged.Why)
			}
			budget, _ := vals[knobBudgetMS].(float64)
			margin := pipelinelab.FmtMS(math.Abs(budget - v))
			if !strings.Contains(judged.Why, "this is "+margin+" ") {
				t.Errorf("card %v ms against %v ms: the formula's margin is not %s: %s", v, budget, margin, judged.Why)
			}
			for _, key := range []string{statMean, statP50, statP95, statP99} {
				st := labtest.StatOf(t, f, key)
				if want := "≈ " + labs.Figure(st.Value) + " ms."; !strings.Contains(st.Why, want) {
					t.Errorf("%s card %v ms, formula does not end %q: %s", key, st.Value, want, st.Why)
				}
			}
		})
	}
}
