package streaming

import (
	"context"
	"os"
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// TestRealClockFigures runs the presets once on the wall clock, as the web
// app does, and logs what the handler measured. It takes about a minute, so
// it runs only when asked:
//
//	LATENCYLAB_FIGURES=1 go test ./labs/streaming -run RealClock -v
func TestRealClockFigures(t *testing.T) {
	if os.Getenv("LATENCYLAB_FIGURES") == "" {
		t.Skip("set LATENCYLAB_FIGURES=1 to run the presets on the real clock")
	}
	pool := labs.NewEngines(labs.EnginesConfig{})
	defer pool.Close()
	l := New(Config{Engines: pool})
	for _, p := range l.Presets() {
		var frames int
		var final labs.Frame
		err := l.Run(context.Background(), p.Values, func(f labs.Frame) { frames++; final = f })
		if err != nil || final.Error != "" {
			t.Fatalf("%s: %v %s", p.Name, err, final.Error)
		}
		st := labtest.StatMap(t, final)
		t.Logf("%-22s first word %7.1f ms  ttft %6.1f ms  tpot %5.2f ms  total %8.1f ms  %4.0f tokens  %6.1f tok/s  reading %7.0f ms  (%d frames)",
			p.Name, st[statFirstWord], st[statTTFT], st[statTPOT], st[statTotal], st[statTokens], st[statTokPerS], st[statReading], frames)
	}
}
