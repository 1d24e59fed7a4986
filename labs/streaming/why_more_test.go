package streaming

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// First word, total, speed and reading time carry formulas from the run's
// own times, streamed or blocked: each an exact split or ratio of what the
// run measured (0.5%, rounding).
func TestWhyOfTheOtherFigures(t *testing.T) {
	for name, changes := range map[string]labs.Values{"streaming": {}, "blocking": {knobStreaming: false}} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				l, _ := newTestLab(t)
				var last labs.Frame
				if err := l.Run(context.Background(), labtest.Values(changes), func(f labs.Frame) { last = f }); err != nil {
					t.Fatal(err)
				}
				for _, key := range []string{statFirstWord, statTotal, statTokPerS, statReading} {
					labtest.CheckFormula(t, labtest.StatOf(t, last, key), 0.005)
				}
			})
		})
	}
}
