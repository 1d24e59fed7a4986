// Package prefilldecode is the prefill-vs-decode lab. It shows the two
// phases of a request from measurements: on the virtual clock, single
// requests at several prompt lengths and answer lengths give time to first
// token against prompt length and decode time against answer length, with
// least-squares lines; the learner's own request then runs on the wall clock
// on the shared engine for the chosen model and GPU, so the wait for the
// first token is felt and measured at the handler. A roofline places that
// request's prefill and decode steps by arithmetic intensity, computed from
// the inputs the engine gave its cost model for those steps, and a second
// customer sharing the system prompt shows what a cached prefix saves.
package prefilldecode

import (
	"context"
	"errors"
	"time"

	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/labs"
)

// Slug is the lab's URL segment.
const Slug = "prefill-decode"

// Clock is the handler's time source; tests inject one so timings are exact.
type Clock interface{ Now() time.Time }

// Config wires a Lab.
type Config struct {
	// Engines is the shared pool the learner's requests run on; required.
	Engines *labs.Engines
	// Clock times requests at the handler; nil means the real clock.
	Clock Clock
	// Tick is how often the panels refresh while a request runs. 0 means
	// 100 ms; negative turns the refresh off, as tests with a fake clock do.
	Tick time.Duration
}

// Lab is the prefill-vs-decode lab. It is safe for concurrent runs.
type Lab struct {
	engines *labs.Engines
	clock   Clock
	tick    time.Duration
	// ids number the runs so request ids and session lines are unique.
	ids *labs.RunIDs
}

// New returns the lab.
func New(cfg Config) *Lab {
	clk := cfg.Clock
	if clk == nil {
		clk = live.WallClock{}
	}
	tick := cfg.Tick
	if tick == 0 {
		tick = 100 * time.Millisecond
	}
	return &Lab{engines: cfg.Engines, clock: clk, tick: tick, ids: labs.NewRunIDs(Slug)}
}

// Info describes the lab.
func (l *Lab) Info() labs.Info {
	return labs.Info{
		Slug:  Slug,
		Title: "Prefill vs decode",
		Summary: "Grow the prompt and the answer separately and measure what each does: reading the prompt " +
			"sets the time to first token, writing the answer sets the time per token. A roofline shows why.",
		Lesson:         "prefill-vs-decode",
		Prediction:     "What time to first token do you expect for this prompt?",
		PredictionUnit: "ms",
		PredictionStat: statTTFT,
	}
}

// Run measures the sweep on the virtual clock, then sends the learner's
// request (and, for the prefix-caching comparison, a second customer's) to
// the shared engine on the wall clock, emitting a frame after the sweep, at
// every milestone of the requests and on a timer in between, and a final
// frame with every stat. Settings the lab cannot serve end in a final frame
// with Error set and a nil error. Run returns an error only for failures on
// the server's side, and ctx.Err() when ctx ends, in which case running
// requests are aborted and no final frame is emitted.
func (l *Lab) Run(ctx context.Context, v labs.Values, emit func(labs.Frame)) error {
	s, err := parse(v)
	if err != nil {
		// A learner's mistake, not a failure: it ends the run with a
		// message the learner can act on.
		emit(labs.NotRun(err))
		return nil
	}
	if l.engines == nil {
		return errors.New("prefilldecode: no engine pool configured")
	}
	return l.run(ctx, s, emit)
}
