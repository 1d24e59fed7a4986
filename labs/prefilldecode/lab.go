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
	*labs.Kit[params]
	engines *labs.Engines
	clock   Clock
	tick    time.Duration
	// ids number the runs so request ids and session lines are unique.
	ids *labs.RunIDs
}

// New returns the lab, or an error when cfg lacks a dependency.
func New(cfg Config) (*Lab, error) {
	if cfg.Engines == nil {
		return nil, errors.New("prefilldecode: no engine pool configured")
	}
	clk := cfg.Clock
	if clk == nil {
		clk = live.WallClock{}
	}
	tick := cfg.Tick
	if tick == 0 {
		tick = 100 * time.Millisecond
	}
	l := &Lab{engines: cfg.Engines, clock: clk, tick: tick, ids: labs.NewRunIDs(Slug)}
	kit, err := define(l.run)
	if err != nil {
		return nil, err
	}
	l.Kit = kit
	return l, nil
}

// info describes the lab.
func info() labs.Info {
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
