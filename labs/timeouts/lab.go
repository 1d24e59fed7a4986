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
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// Slug is the lab's URL segment.
const Slug = "timeouts"

// Stat keys; first_word_p95_ms is what the prediction is compared with.
const (
	statFirstWordP95 = "first_word_p95_ms"
	// statFirstWordP99 is the figure the lesson says to set a timeout
	// from: the slow tail a timeout must leave alone.
	statFirstWordP99 = "first_word_p99_ms"
	statFallback     = "fallback_share"
	statErrors       = "errors"
	statTimeouts     = "timeouts"
	statCompleteP95  = "complete_ms_p95"
	statCut          = "healthy_cut"
)

// Config wires a Lab: the engine pool the tiers run on and the knowledge
// base (nil switches retrieval off and the model answers from its
// instructions alone; Orders is not used).
type Config = pipelinelab.Config

// Lab is the timeouts lab; safe for concurrent runs.
type Lab = labs.Kit[params]

// New returns the lab, or an error when cfg has no engine pool.
func New(cfg Config) (*Lab, error) { return newLab(cfg, 100*time.Millisecond) }

// newLab is New with the timeline's refresh interval as a parameter; 0 or
// less turns the refresh off (tests).
func newLab(cfg Config, tick time.Duration) (*Lab, error) {
	return pipelinelab.New(cfg, define, params.settings, runner{tick}.run)
}

// runner runs the batch, refreshing the timeline every tick while it runs.
type runner struct{ tick time.Duration }

// info describes the lab.
func info() labs.Info {
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
