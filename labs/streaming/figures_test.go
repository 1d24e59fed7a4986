package streaming

import (
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// TestRealClockFigures runs the presets once on the wall clock, as the web
// app does, and logs what the handler measured. It takes about a minute, so
// it runs only when asked:
//
//	LATENCYLAB_FIGURES=1 go test ./labs/streaming -run RealClock -v
func TestRealClockFigures(t *testing.T) {
	pool := labs.NewEngines(labs.EnginesConfig{})
	defer pool.Close()
	labtest.RunPresetsOnWallClock(t, mustNew(t, Config{Engines: pool}), func(p labs.Preset, final labs.Frame, frames int, took time.Duration) {
		st := labtest.StatMap(t, final)
		t.Logf("%-22s first word %7.1f ms  ttft %6.1f ms  tpot %5.2f ms  total %8.1f ms  %4.0f tokens  %6.1f tok/s  reading %7.0f ms  (%d frames)",
			p.Name, st[statFirstWord], st[statTTFT], st[statTPOT], st[statTotal], st[statTokens], st[statTokPerS], st[statReading], frames)
	})
}
