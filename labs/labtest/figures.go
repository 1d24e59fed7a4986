package labtest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
)

// RunPresetsOnWallClock runs each of l's presets once on the wall clock, as
// the web app does, and hands each one's final frame to log with the number
// of frames emitted and how long the run took. It fails t on a run that
// errs, and skips t unless LATENCYLAB_FIGURES is set: a preset takes real
// seconds, so these runs are for reading figures, not for every test run.
func RunPresetsOnWallClock(t *testing.T, l Lab, log func(p labs.Preset, final labs.Frame, frames int, took time.Duration)) {
	t.Helper()
	if os.Getenv("LATENCYLAB_FIGURES") == "" {
		t.Skip("set LATENCYLAB_FIGURES=1 to run the presets on the real clock")
	}
	for _, p := range l.Presets() {
		var frames int
		var final labs.Frame
		start := time.Now()
		err := l.Run(context.Background(), p.Values, func(f labs.Frame) { frames++; final = f })
		if err != nil || final.Error != "" {
			t.Fatalf("%s: %v %s", p.Name, err, final.Error)
		}
		log(p, final, frames, time.Since(start))
	}
}
