package prefilldecode

import (
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// TestRealClockFigures runs the presets once on the wall clock, as the web
// app does, and logs what the lab measured. It takes about half a minute,
// so it runs only when asked:
//
//	LATENCYLAB_FIGURES=1 go test ./labs/prefilldecode -run RealClock -v
func TestRealClockFigures(t *testing.T) {
	pool := labs.NewEngines(labs.EnginesConfig{})
	defer pool.Close()
	labtest.RunPresetsOnWallClock(t, mustNew(t, Config{Engines: pool}), func(p labs.Preset, final labs.Frame, frames int, took time.Duration) {
		st := labtest.StatMap(t, final)
		t.Logf("%-38s prompt %5.0f  ttft %7.1f ms  decode %8.1f ms  tpot %6.2f ms  fit %6.1f ms/1k prompt, %5.2f ms/output token  "+
			"intensity prefill %5.0f decode %4.2f ridge %3.0f  second ttft %6.1f ms (%4.0f cached)  (%d frames, %.1f s)",
			p.Name, st[statPrompt], st[statTTFT], st[statDecode], st[statTPOT], st[statPer1kPrompt], st[statPerOutputTok],
			st[statPrefillI], st[statDecodeI], st[statRidge], st[statSecondTTFT], st[statCached], frames, took.Seconds())
	})
}
