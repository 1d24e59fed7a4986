package budget

import (
	"testing"

	"github.com/latencylab/latencylab/labs/labtest"
)

// TestParallelStepsLessonTwoCalls holds the parallel-steps lesson's
// paragraph on the second model call to the lab's presets: the first word
// with one call, in sequence and together, and the summary call's length.
func TestParallelStepsLessonTwoCalls(t *testing.T) {
	one := labtest.StatMap(t, last(runLab(t, presetValues(t, "Seed example: parallel lookups"))))
	seq := labtest.StatMap(t, last(runLab(t, presetValues(t, twoCallsPreset(callsSequence).Name))))
	tog := labtest.StatMap(t, last(runLab(t, presetValues(t, twoCallsPreset(callsTogether).Name))))
	labtest.CheckQuotes(t, "parallel-steps", "ms", []labtest.Quote{
		{Text: "with one call the first word comes at about 230 ms", Got: one[statFirstWord], Lo: 210, Hi: 250},
		{Text: "the summary takes a little under half a second", Got: seq[statSecondCall], Lo: 400, Hi: 499},
		{Text: "In sequence the first word arrives at about 700 ms", Got: seq[statFirstWord], Lo: 650, Hi: 750},
		{Text: "Sent together it arrives at about 250 ms", Got: tog[statFirstWord], Lo: 230, Hi: 270},
	})
}
