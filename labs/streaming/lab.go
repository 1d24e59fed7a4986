// Package streaming is the first lab: streaming against blocking. One real
// request runs through a shared live engine on the wall clock; with
// streaming the learner sees each token's text the moment the handler gets
// it, without streaming the handler buffers the answer and shows it whole at
// the end. Every time is measured at the handler with its own clock, the way
// a browser-facing server would see it, not copied from the engine.
package streaming

import (
	"errors"
	"time"

	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/labs"
)

// Slug is the lab's URL segment.
const Slug = "streaming"

// Clock is the handler's time source; tests inject one so timings are exact.
type Clock interface{ Now() time.Time }

// Config wires a Lab.
type Config struct {
	// Engines is the shared pool the lab submits to; required.
	Engines *labs.Engines
	// Clock times the request at the handler; nil means the real clock.
	Clock Clock
	// Tick is how often the panels refresh while the learner waits for
	// the first token (nothing else happens then). 0 means 100 ms;
	// negative turns the refresh off, as tests with a fake clock do.
	Tick time.Duration
}

// Lab is the streaming-vs-blocking lab. It is safe for concurrent runs.
type Lab struct {
	*labs.Kit[params]
	engines *labs.Engines
	clock   Clock
	tick    time.Duration
	// ids number the runs so request ids and session lines are unique.
	ids *labs.RunIDs
}

// New returns the lab, or an error when cfg lacks the engine pool.
func New(cfg Config) (*Lab, error) {
	if cfg.Engines == nil {
		return nil, errors.New("streaming: no engine pool configured")
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
		Title: "Streaming vs blocking",
		Summary: "Send one real request to a modelled GPU and watch the answer arrive token by token, " +
			"or all at once at the end. Time to first word is what the reader waits for.",
		Lesson:         "time-to-first-token",
		Prediction:     "What time to first word do you expect?",
		PredictionUnit: "ms",
		PredictionStat: statFirstWord,
	}
}
