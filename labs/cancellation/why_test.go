package cancellation

import (
	"testing"

	"github.com/latencylab/latencylab/labs/labtest"
)

// The figures' formulas come to the figures: the tokens generated split
// exactly at the cut, the cost saved is exact up to its rounding, and the
// tokens after the cut are the generation rate × the time until the
// engine stopped, within 10% (the engine's steps are not evenly paced).
// The reader's counts are exact: the tokens delivered are what the
// settings let through (where the reader left, where the stream broke, or
// every token generated), and the tokens saved are the tokens delivered,
// counted apart by the pipeline and the reader.
func TestWhyMatchesTheRun(t *testing.T) {
	for name, v := range map[string]map[string]any{
		"stop, passed upstream":     vals(20, 0, 200, "medium", true),
		"stop, not passed upstream": vals(20, 0, 200, "medium", false),
		"stream breaks":             vals(0, 30, 200, "small", true),
		"read to the end":           vals(0, 0, 120, "small", true),
	} {
		t.Run(name, func(t *testing.T) {
			frames := runLab(t, v, nil)
			last := frames[len(frames)-1]
			for _, key := range []string{statGenerated, statDelivered, statSaved} {
				labtest.CheckFormula(t, labtest.StatOf(t, last, key), 0)
			}
			labtest.CheckFormula(t, labtest.StatOf(t, last, statCostSaved), 0.01)
			if v[knobStopAfter] != 0.0 || v[knobFailAfter] != 0.0 { // a run read to the end has no cut
				labtest.CheckFormula(t, labtest.StatOf(t, last, statAfter), 0.10)
			}
		})
	}
}
