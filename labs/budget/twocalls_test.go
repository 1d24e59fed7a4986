package budget

import (
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// presetValues finds a preset by name.
func presetValues(t *testing.T, name string) labs.Values {
	t.Helper()
	for _, p := range labtest.Inert(t, define).Presets() {
		if p.Name == name {
			return p.Values
		}
	}
	t.Fatalf("no preset %q", name)
	return nil
}

// Two independent model calls: in sequence the answer's first word waits
// for the whole second call; at the same time it does not, but the calls
// share the GPU's batch, so both are a little slower than alone. The
// presets' notes state these figures; this holds them.
func TestTwoModelCalls(t *testing.T) {
	one := labtest.StatMap(t, last(runLab(t, presetValues(t, "Seed example: parallel lookups"))))
	seq := labtest.StatMap(t, last(runLab(t, presetValues(t, twoCallsPreset(callsSequence).Name))))
	tog := labtest.StatMap(t, last(runLab(t, presetValues(t, twoCallsPreset(callsTogether).Name))))
	if _, ok := one[statSecondCall]; ok {
		t.Error("one model call reports a second call")
	}
	labtest.CheckRanges(t, "ms", []labtest.Range{
		{What: "one call: first word (about 230 ms)", Got: one[statFirstWord], Lo: 200, Hi: 260},
		{What: "in sequence: first word (about 700 ms)", Got: seq[statFirstWord], Lo: 650, Hi: 750},
		{What: "in sequence: the summary (close to half a second)", Got: seq[statSecondCall], Lo: 400, Hi: 500},
		{What: "in sequence: first word minus one call's, less the summary", Got: seq[statFirstWord] - one[statFirstWord] - seq[statSecondCall], Lo: -10, Hi: 10},
		{What: "together: first word (about 250 ms)", Got: tog[statFirstWord], Lo: 230, Hi: 270},
		{What: "together: first word later than one call's (some 15 ms)", Got: tog[statFirstWord] - one[statFirstWord], Lo: 5, Hi: 30},
		{What: "together: the summary slower than alone", Got: tog[statSecondCall] - seq[statSecondCall], Lo: 1, Hi: 50},
		{What: "together: the answer ends later than one call's", Got: tog[statComplete] - one[statComplete], Lo: 1, Hi: 60},
	})
	// The batch on the virtual clock follows the same rules.
	if !(seq[statP95] > tog[statP95] && tog[statP95] > one[statP95]) {
		t.Errorf("p95 first word: one call %v, together %v, in sequence %v ms; want one < together < in sequence",
			one[statP95], tog[statP95], seq[statP95])
	}
}

// The waterfall draws the second call on its own row; in sequence the
// answer's first token comes after it ends.
func TestSecondCallOnTheWaterfall(t *testing.T) {
	for _, calls := range []string{callsSequence, callsTogether} {
		t.Run(calls, func(t *testing.T) {
			f := last(runLab(t, labs.Values{knobModelCalls: calls, knobRequests: 20.0, knobAnswer: 50.0}))
			wf := labtest.Chart(t, f, chartWaterfall)
			row := wf.Rows[len(wf.Rows)-1]
			if row.Label != "second model call" || len(row.Spans) != 1 {
				t.Fatalf("last waterfall row %+v, want the second call", row)
			}
			second := row.Spans[0]
			firstWord := labtest.Stat(t, f, statFirstWord)
			if calls == callsSequence && firstWord < second.End {
				t.Errorf("first word at %v ms, before the second call ended at %v ms", firstWord, second.End)
			}
			if calls == callsTogether && firstWord > second.End {
				t.Errorf("first word at %v ms waited for the second call (ended %v ms)", firstWord, second.End)
			}
		})
	}
}

func last(fs []labs.Frame) labs.Frame { return fs[len(fs)-1] }
