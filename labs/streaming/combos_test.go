package streaming

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// TestEveryFittingProfileRuns runs the longest prompt on every model and
// GPU pair the lab accepts: an accepted pair must never fail at the engine.
func TestEveryFittingProfileRuns(t *testing.T) {
	for _, m := range engine.ModelNames() {
		for _, h := range engine.HardwareNames() {
			v := labtest.Values(labs.Values{knobModel: m, knobGPU: h, knobPrompt: 8000.0, knobAnswer: 50.0})
			if _, err := parse(t, v); err != nil {
				continue
			}
			synctest.Test(t, func(t *testing.T) {
				l, _ := newTestLab(t)
				var final labs.Frame
				if err := l.Run(context.Background(), v, func(f labs.Frame) { final = f }); err != nil || final.Error != "" {
					t.Errorf("%s on %s: %v %q", m, h, err, final.Error)
				}
			})
		}
	}
}
