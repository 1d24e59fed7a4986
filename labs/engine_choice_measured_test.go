package labs_test

import (
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/batching"
	"github.com/latencylab/latencylab/labs/cancellation"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/prefilldecode"
)

// Every stat a lab is listed as not measuring on a server is one of the
// lab's stats: a renamed key would otherwise slip back into the server's
// measured column unnoticed.
func TestNotMeasuredStatsAreTheLabsOwn(t *testing.T) {
	for _, tc := range []struct {
		slug string
		lab  func(*labs.Engines) labs.Lab
		vals labs.Values
		// wall runs the lab on the wall clock: the batching lab paces its
		// live runs on a clock a synctest bubble does not drive.
		wall bool
	}{
		{"prefill-decode", func(pool *labs.Engines) labs.Lab {
			return labtest.Must[*prefilldecode.Lab](t)(prefilldecode.New(labs.LiveConfig{Engines: pool, Tick: -1}))
		}, labs.Values{"outputTokens": 20.0, "prefixCaching": true}, false},
		{"batching", func(pool *labs.Engines) labs.Lab {
			return labtest.Must[*batching.Lab](t)(batching.New(batching.Config{Engines: pool}))
		}, labs.Values{"mode": "live", "requests": 2.0, "outputMean": 16.0, "promptTokens": 100.0}, true},
		{"cancellation", labtest.OnFakeDesk(t, cancellation.New), labs.Values{"answerTokens": 60.0, "stopAfter": 10.0}, false},
	} {
		t.Run(tc.slug, func(t *testing.T) {
			keys := labs.NotMeasuredStats(tc.slug)
			if len(keys) == 0 {
				t.Fatal("no stats listed")
			}
			final := runFinal(t, tc.lab, tc.vals, tc.wall)
			if final.Error != "" {
				t.Fatalf("run failed: %s", final.Error)
			}
			for _, k := range keys {
				labtest.StatOf(t, final, k)
			}
		})
	}
	if !labs.MeasuredOnServer("streaming", "ttft_ms") {
		t.Error("a lab with nothing listed has a figure that reads as not measured")
	}
}

// runFinal runs newLab's lab with vals, in a synctest bubble unless wall,
// and returns its final frame.
func runFinal(t *testing.T, newLab func(*labs.Engines) labs.Lab, vals labs.Values, wall bool) labs.Frame {
	t.Helper()
	if !wall {
		frames := labtest.RunInBubble(t, newLab, vals, nil)
		return frames[len(frames)-1]
	}
	pool := labs.NewEngines(labs.EnginesConfig{})
	defer pool.Close()
	r, errs := newLab(pool).Decode(vals)
	if len(errs) > 0 {
		t.Fatalf("decode: %v", errs)
	}
	var last labs.Frame
	if err := r.Start(t.Context(), func(f labs.Frame) { last = f }); err != nil || !last.Final {
		t.Fatalf("run: %v, final %v", err, last.Final)
	}
	return last
}
