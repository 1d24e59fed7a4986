// Package timeouts is the timeouts-and-fallback lab. A small batch of
// support requests goes through the real pipeline at once, on the wall
// clock and the shared live engines, while a FaultyProvider slows a share of
// the calls to the primary tier. The learner sets the first-token timeout,
// the overall timeout, the request deadline and the backup tier, and
// watches traffic move to the backup as timeouts fire. The same batch runs
// beside it with no timeouts and with a web service's one-second timeout, so
// the three settings meet the same injected fault.
//
// Time: every wait is a real wait on the wall clock (slowdowns of a few
// seconds, requests run concurrently), so a batch takes about as long as
// its slowest request, not the sum of them. Nothing is scaled or computed.
package timeouts

import (
	"context"
	"errors"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
)

// Slug is the lab's URL segment.
const Slug = "timeouts"

// Stat keys; first_word_p95_ms is what the prediction is compared with.
const (
	statFirstWordP95 = "first_word_p95_ms"
	statFallback     = "fallback_share"
	statErrors       = "errors"
	statTimeouts     = "timeouts"
	statCompleteP95  = "complete_ms_p95"
	statCut          = "healthy_cut"
)

// Config wires a Lab.
type Config struct {
	// Engines is the shared live-engine pool the tiers run on; required.
	Engines *labs.Engines
	// Retriever is the knowledge base (web/store in the app); nil switches
	// retrieval off and the model answers from its instructions alone.
	Retriever pipeline.Retriever
	// Tick is how often the timeline refreshes while the batch runs. 0
	// means 100 ms; negative turns the refresh off (tests).
	Tick time.Duration
}

// Lab is the timeouts lab; safe for concurrent runs.
type Lab struct {
	cfg Config
	// ids number the runs so request ids and session lines are unique.
	ids *labs.RunIDs
}

// New returns the lab.
func New(cfg Config) *Lab {
	if cfg.Tick == 0 {
		cfg.Tick = 100 * time.Millisecond
	}
	return &Lab{cfg: cfg, ids: labs.NewRunIDs(Slug)}
}

// Info describes the lab.
func (l *Lab) Info() labs.Info {
	return labs.Info{
		Slug:  Slug,
		Title: "Timeouts and fallback",
		Summary: "Slow down the primary model for a share of calls, set a first-token timeout, an overall " +
			"timeout and a deadline, and watch traffic move to the backup tier.",
		Lesson:         "timeouts-and-deadlines",
		Prediction:     "What p95 time to first word do you expect with this timeout?",
		PredictionUnit: "ms",
		PredictionStat: statFirstWordP95,
	}
}

// Knobs lists the settings.
func (l *Lab) Knobs() []labs.Knob { return knobs() }

// Presets lists settings worth trying; the first is the default view.
func (l *Lab) Presets() []labs.Preset { return presets() }

// Run sends the batch through the pipeline under the learner's settings and,
// at the same time, under the two comparison settings, emitting the
// learner's timeline as it fills and a final frame with the stats and the
// comparison. Bad settings end in a final frame with Error and a nil error;
// ctx ending returns ctx's error without a final frame.
func (l *Lab) Run(ctx context.Context, v labs.Values, emit func(labs.Frame)) error {
	s, err := parse(v)
	if err != nil {
		emit(labs.NotRun(err))
		return nil
	}
	if l.cfg.Engines == nil {
		return errors.New("timeouts: no engine pool configured")
	}
	return l.run(ctx, s, emit)
}
