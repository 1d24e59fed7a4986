// Package moderation is the lab on checking a streamed answer for safety.
// One real request runs through a shared live engine on the wall clock; its
// answer is composed from support notes that may carry a customer's e-mail
// and card number or a planted fraud how-to, so the generated text really
// contains them. A moderation policy from engine/moderation sits between the
// engine and the reader, with real detectors and a simulated service
// latency, and the lab measures what each policy costs (time to first word,
// delivery lag) and what it lets through (unsafe tokens shown, tokens
// generated after the problem).
package moderation

import (
	"context"
	"errors"
	"time"

	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/labs"
)

// Slug is the lab's URL segment.
const Slug = "moderation"

// Config wires a Lab.
type Config struct {
	// Engines is the shared pool the lab submits to; required.
	Engines *labs.Engines
	// Clock times the run and paces the moderation latency; nil means the
	// wall clock. Tests run inside a synctest bubble instead.
	Clock live.Clock
	// Tick is how often the panels refresh while nothing else happens
	// (waiting for the first token or for a check). 0 means 100 ms;
	// negative turns the refresh off.
	Tick time.Duration
}

// Lab is the moderation lab. It is safe for concurrent runs.
type Lab struct {
	*labs.Kit[params]
	engines *labs.Engines
	clock   live.Clock
	tick    time.Duration
	// ids number the runs so request ids and session lines are unique.
	ids *labs.RunIDs
}

// New returns the lab, or an error when cfg lacks a dependency.
func New(cfg Config) (*Lab, error) {
	if cfg.Engines == nil {
		return nil, errors.New("moderation lab: no engine pool configured")
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
		Title: "Moderation without losing the stream",
		Summary: "Run a real answer that repeats a customer's e-mail and card number through five moderation policies, " +
			"and measure what each costs in waiting and what it lets the reader see.",
		Lesson:         "moderation-and-streaming",
		Prediction:     "How many unsafe tokens will reach the user?",
		PredictionUnit: "tokens",
		PredictionStat: statLeaked,
	}
}

// run executes one run (or, with the compare policy, one run per policy at
// once on the same engine) and emits frames as the answer is generated,
// checked and delivered. Settings the engine cannot serve end in a final
// frame with Error set and a nil error; run returns an error only for
// failures on the server's side, and ctx.Err() when ctx ends (the engine
// requests are then aborted and no final frame is emitted).
func (l *Lab) run(ctx context.Context, p params, emit func(labs.Frame)) error {
	s, err := p.settings()
	if err != nil {
		return err
	}
	if s.compare {
		return l.compare(ctx, s, emit)
	}
	return l.single(ctx, s, emit)
}
