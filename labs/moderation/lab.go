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
	"fmt"

	mod "github.com/latencylab/latencylab/engine/moderation"
	"github.com/latencylab/latencylab/engine/textmodel"
	"github.com/latencylab/latencylab/labs"
)

// Lab is the moderation lab: a checker paced on the pool's clock stands
// between the pool's engine and the reader. It is safe for concurrent runs.
type Lab struct{ labs.LiveLab[params] }

// New returns the lab, or an error when cfg lacks the engine pool.
//
// It trains the policy classifier and loads the tokenizer here, not on a
// learner's first run: that run's request would otherwise reach a hosted
// engine as much later as they take, and meet other tenants' traffic at
// another moment than every later run does.
func New(cfg Config) (*Lab, error) {
	if _, err := mod.DefaultClassifier(); err != nil {
		return nil, fmt.Errorf("moderation lab: %w", err)
	}
	textmodel.Count("")
	return labs.NewLive(cfg, define, (*Lab).run)
}

// Config wires a Lab: the shared engine pool, whose clock times its runs.
type Config = labs.LiveConfig

// Slug is the lab's URL segment.
const Slug = "moderation"

// run executes one run (or, with the compare policy, one run per policy at
// once on the same engine) and emits frames as the answer is generated,
// checked and delivered. Settings the engine cannot serve end in a final
// frame with Error set and a nil error; run returns an error only for
// failures on the server's side, and ctx.Err() when ctx ends (the engine
// requests are then aborted and no final frame is emitted). Either way
// the run uses the shared engine for the chosen model and GPU and one
// checker.
func (l *Lab) run(ctx context.Context, p params, emit func(labs.Frame)) error {
	s, err := p.settings()
	if err != nil {
		return err
	}
	// The pool is a workshop room's, if the run is a room's; with other
	// tenants' traffic on, the engine is the run's own.
	checker, err := mod.NewChecker(mod.Config{Clock: l.Clock, Latency: s.latency})
	if err != nil {
		return fmt.Errorf("moderation lab: %w", err)
	}
	le, stop, err := s.host.Engine(ctx, l.Engines, s.profile, emit)
	if err != nil {
		return fmt.Errorf("moderation lab: %w", err)
	}
	defer stop()
	if s.compare {
		return l.compare(ctx, s, le, checker, emit)
	}
	return l.single(ctx, s, le, checker, emit)
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
		// The lesson asks for the first-word time beside the leak count.
		Second: labs.SecondPrediction{Prediction: "And when will the first word appear?", Unit: "ms", Stat: statFirstWord},
	}
}
