// Package cancellation is the lab on cancellation and mid-stream errors.
// One support answer streams through the real pipeline from a shared live
// engine on the wall clock while the lab plays the client: it stops reading
// after N tokens (a closed tab) or meets an injected error mid-stream. The
// engine's own step trace counts every token it generates, so the learner
// sees generation stop when the disconnect is passed upstream, and run on to
// the end (and be paid for) when it is not. The partial answer is saved with
// how it ended, and a follow-up turn shows it coming back as history.
package cancellation

import (
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// Slug is the lab's URL segment.
const Slug = "cancellation"

// Stat keys; tokens_after_disconnect is what the prediction is compared with.
const (
	statGenerated = "tokens_generated"
	statDelivered = "tokens_delivered"
	statAfter     = "tokens_after_disconnect"
	statSaved     = "tokens_saved"
	statCostSaved = "cost_saved"
)

// Config wires a Lab: the engine pool and the knowledge base (nil
// switches retrieval off; Orders is not used).
type Config = pipelinelab.Config

// quiet is how long the engine must go without a step of an aborted
// request before the lab counts it as stopped: far longer than any step.
const quiet = 500 * time.Millisecond

// Lab is the cancellation lab; safe for concurrent runs.
type Lab = labs.Kit[params]

// New returns the lab, or an error when cfg has no engine pool.
func New(cfg Config) (*Lab, error) {
	return pipelinelab.New(cfg, define, params.settings, play)
}

// info describes the lab.
func info() labs.Info {
	return labs.Info{
		Slug:  Slug,
		Title: "Cancellation and mid-stream errors",
		Summary: "Stop reading an answer halfway, with and without passing the disconnect upstream, or break " +
			"the stream with an error; count the tokens the engine still writes and see what the history keeps.",
		Lesson:         "streaming-through-the-stack",
		Prediction:     "How many tokens will the engine generate after you stop reading?",
		PredictionUnit: "tokens",
		PredictionStat: statAfter,
	}
}
