package cancellation

import (
	"testing"
	"testing/synctest"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// runLab runs the lab in a synctest bubble: the live engine's pacing and
// the pipeline's waits are on virtual time, so counts and times are exact.
// check, when set, runs inside the bubble after the run with the pool.
func runLab(t *testing.T, vals labs.Values, check func(*labs.Engines)) []labs.Frame {
	t.Helper()
	var frames []labs.Frame
	synctest.Test(t, func(t *testing.T) {
		pool := labs.NewEngines(labs.EnginesConfig{})
		defer pool.Close()
		l := New(Config{Engines: pool, Retriever: pipelinelab.NewFakeStore()})
		v, errs := labs.Validate(l.Knobs(), vals)
		if len(errs) > 0 {
			t.Fatalf("validate: %v", errs)
		}
		if err := l.Run(t.Context(), v, func(f labs.Frame) { frames = append(frames, f) }); err != nil {
			t.Fatalf("run: %v", err)
		}
		if check != nil {
			check(pool)
		}
	})
	if len(frames) == 0 || !frames[len(frames)-1].Final {
		t.Fatalf("no final frame in %d frames", len(frames))
	}
	return frames
}

func stat(t *testing.T, f labs.Frame, key string) float64 {
	t.Helper()
	for _, s := range f.Stats {
		if s.Key == key {
			return s.Value
		}
	}
	t.Fatalf("no stat %q in %+v", key, f.Stats)
	return 0
}
